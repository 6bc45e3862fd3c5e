package dsl

import (
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
)

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

// editDistance is the number of letters inserted, deleted, changed or
// swapped with the next that turn a into b ("mesgb" is one swap from
// "mesbg"): see wording.EditDistance.
func editDistance(a, b string) int { return wording.EditDistance(a, b) }
