// Package editdist measures how far apart two words are, for the
// diagnostics that ask "did you mean X?" and the warnings about a valid
// name that is most likely a typo of a word with a meaning. It is the
// module's own, not public API.
package editdist

// Distance is the number of letters inserted, deleted, changed or swapped
// with the next that turn a into b (the optimal string alignment distance:
// "mesgb" is one swap from "mesbg", "strat" one from "start"), case
// counting, in bytes: names are identifiers.
func Distance(a, b string) int {
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
