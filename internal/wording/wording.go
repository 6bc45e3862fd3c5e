// Package wording holds the few ways of writing names in English that the
// runtime's errors and transcript, the conformance runner's failures and
// the command's prompts share, so that they all say a list, or whose a
// unit is, alike, and how far apart two names are, for the diagnostics
// that ask "did you mean X?". It is nobody's API: it lives under internal
// so that every package of the module can share it.
package wording

import "strings"

// Possessive writes a side's or unit's name as its owner's: "Jay's", and
// "Eschers'" for a name that ends in s, as a gang's or a school's often
// does.
func Possessive(name string) string {
	if strings.HasSuffix(name, "s") || strings.HasSuffix(name, "S") {
		return name + "'"
	}
	return name + "'s"
}

// AndList writes names as a list in words: "A", "A and B", "A, B and C".
func AndList(names []string) string {
	if len(names) < 3 {
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// OrNone writes names as a list, "A, B, C", or "none" when there are none.
func OrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// EditDistance is the number of letters inserted, deleted, changed or swapped
// with the next that turn a into b (the optimal string alignment distance:
// "mesgb" is one swap from "mesbg", "strat" one from "start"), case
// counting, in bytes: names are identifiers.
func EditDistance(a, b string) int {
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
