package dsl

import "strings"

// Suggest returns the one candidate that word is most likely a typo of,
// ignoring case ("mesgb" for "mesbg", "agl" for "agi"), or "" when none is
// close enough or two are as close: a diagnostic then adds "did you mean
// X?". Close enough is a third of the word's letters wrong, at least one.
func Suggest(word string, candidates []string) string {
	best, bestDist, ties := "", max(1, len(word)/3)+1, 0
	for _, c := range candidates {
		switch d := editDistance(strings.ToLower(word), strings.ToLower(c)); {
		case d < bestDist:
			best, bestDist, ties = c, d, 1
		case d == bestDist:
			ties++
		}
	}
	if ties > 1 {
		return ""
	}
	return best
}

// EditDistance is the number of letters inserted, deleted, changed or
// swapped with the next that turn a into b, case counting: "strat" is one
// edit from "start". It is for a warning about a name that is valid but
// most likely a typo of a word with a meaning.
func EditDistance(a, b string) int { return editDistance(a, b) }

// editDistance is the number of letters inserted, deleted, changed or
// swapped with the next that turn a into b (the optimal string alignment
// distance: "mesgb" is one swap from "mesbg"), in bytes: names are
// identifiers.
func editDistance(a, b string) int {
	prev2, prev, row := make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev2, prev, row = prev, row, prev2
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			row[j] = min(prev[j]+1, row[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				row[j] = min(row[j], prev2[j-2]+1)
			}
		}
	}
	return row[len(b)]
}
