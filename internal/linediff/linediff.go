// Package linediff computes the differences between two lists of lines
// and prints them: as a unified diff (turnorder fmt -d), or as a listing
// of every line marked kept, removed or added (the activations a scenario
// expected against those a round had).
package linediff

import (
	"fmt"
	"strings"
)

// Kind says what an edit script does with a line.
type Kind byte

const (
	Same Kind = ' ' // in both
	Del  Kind = '-' // only in the first
	Add  Kind = '+' // only in the second
)

// Op is one line of an edit script.
type Op struct {
	Kind Kind
	Line string
}

// maxCells bounds the table of the longest common subsequence, whose size
// is the product of the two lengths: a middle too large for it is shown
// as a plain replacement, which is still a correct diff.
const maxCells = 4 << 20

// Diff returns an edit script turning a into b that keeps a longest
// common subsequence of lines. Of those as long, it keeps the one with
// the most lines at their own index, so that two lines swapped read as two
// lines replaced, the others in place, and not as one line moved. In each
// run of changes, the lines removed come before those added.
func Diff(a, b []string) []Op { return diff(a, b, true) }

// diff is Diff with inPlace. Without it, the common prefix and suffix are
// kept first, and of the longest common subsequences of what is between
// them, the one that removes lines as early as it can. Keeping the common
// prefix first changes neither script; with inPlace the common suffix is
// kept first only where the rest is too large to compare whole, as lines
// at their own index may be kept in its place.
func diff(a, b []string, inPlace bool) []Op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	if !inPlace || (len(a)-pre+1)*(len(b)-pre+1) > maxCells {
		for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
			suf++
		}
	}
	ops := make([]Op, 0, max(len(a), len(b)))
	for _, l := range a[:pre] {
		ops = append(ops, Op{Same, l})
	}
	ops = append(ops, middle(a[pre:len(a)-suf], b[pre:len(b)-suf], inPlace)...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, Op{Same, l})
	}
	return ops
}

// middle diffs what is left of a and b after their common prefix, whose
// length keeps the index of each line the same.
func middle(a, b []string, inPlace bool) []Op {
	n, m := len(a), len(b)
	if (n+1)*(m+1) > maxCells {
		ops := make([]Op, 0, n+m)
		for _, l := range a {
			ops = append(ops, Op{Del, l})
		}
		for _, l := range b {
			ops = append(ops, Op{Add, l})
		}
		return ops
	}
	// best[i*(m+1)+j] is the longest common subsequence of a[i:] and
	// b[j:]: its length and, of those as long, the most lines kept at
	// their own index; step is its first step.
	type score struct{ n, inPlace int32 }
	better := func(x, y score) bool { return x.n > y.n || (x.n == y.n && x.inPlace > y.inPlace) }
	best := make([]score, (n+1)*(m+1))
	step := make([]Kind, (n+1)*(m+1))
	at := func(i, j int) int { return i*(m+1) + j }
	for i := n; i >= 0; i-- {
		for j := m; j >= 0; j-- {
			switch {
			case i == n:
				step[at(i, j)] = Add
				continue
			case j == m:
				step[at(i, j)] = Del
				continue
			}
			s, by := best[at(i+1, j)], Del
			if better(best[at(i, j+1)], s) {
				s, by = best[at(i, j+1)], Add
			}
			if a[i] == b[j] {
				keep := score{best[at(i+1, j+1)].n + 1, best[at(i+1, j+1)].inPlace}
				if inPlace && i == j {
					keep.inPlace++
				}
				if !better(s, keep) {
					s, by = keep, Same
				}
			}
			best[at(i, j)], step[at(i, j)] = s, by
		}
	}
	var ops, dels, adds []Op
	flush := func() {
		ops = append(append(ops, dels...), adds...)
		dels, adds = dels[:0], adds[:0]
	}
	for i, j := 0, 0; i < n || j < m; {
		switch step[at(i, j)] {
		case Same:
			flush()
			ops = append(ops, Op{Same, a[i]})
			i, j = i+1, j+1
		case Del:
			dels = append(dels, Op{Del, a[i]})
			i++
		default:
			adds = append(adds, Op{Add, b[j]})
			j++
		}
	}
	flush()
	return ops
}

// Lines splits s after each newline; the last line may lack one.
func Lines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// unifiedContext is how many unchanged lines a unified diff shows on
// either side of a change.
const unifiedContext = 3

// Unified returns the unified diff of the texts a and b, or "" if they are
// equal, with three lines of context.
func Unified(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	ops := diff(Lines(a), Lines(b), false)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	for k := 0; k < len(ops); {
		if ops[k].Kind == Same {
			k++
			continue
		}
		// A hunk starts unifiedContext lines before this change and runs
		// to unifiedContext lines after the last change that is no more
		// than 2*unifiedContext unchanged lines from the one before it.
		start := max(0, k-unifiedContext)
		end := k
		for end < len(ops) {
			if ops[end].Kind != Same {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].Kind == Same {
				run++
			}
			if run == len(ops) || run-end > 2*unifiedContext {
				end = min(end+unifiedContext, len(ops))
				break
			}
			end = run
		}
		oldBefore, newBefore := 0, 0
		for _, op := range ops[:start] {
			if op.Kind != Add {
				oldBefore++
			}
			if op.Kind != Del {
				newBefore++
			}
		}
		oldN, newN := 0, 0
		for _, op := range ops[start:end] {
			if op.Kind != Add {
				oldN++
			}
			if op.Kind != Del {
				newN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldBefore, oldN), hunkRange(newBefore, newN))
		for _, op := range ops[start:end] {
			out.WriteByte(byte(op.Kind))
			out.WriteString(op.Line)
			if !strings.HasSuffix(op.Line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		k = end
	}
	return out.String()
}

// hunkRange is "start,count" where start counts from 1, or names the line
// before an empty range.
func hunkRange(before, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", before)
	}
	return fmt.Sprintf("%d,%d", before+1, n)
}

// Listing returns every line of the diff of a and b, marked "  " (in
// both), "- " (only in a) or "+ " (only in b). A run of more than
// 2*context+1 lines in both is cut to context lines either side of it
// (none before the first change, none after the last), the lines left out
// said by skipped(n).
func Listing(a, b []string, context int, skipped func(n int) string) []string {
	ops := Diff(a, b)
	mark := func(op Op) string { return string(op.Kind) + " " + op.Line }
	var out []string
	for k := 0; k < len(ops); {
		if ops[k].Kind != Same {
			out = append(out, mark(ops[k]))
			k++
			continue
		}
		end := k
		for end < len(ops) && ops[end].Kind == Same {
			end++
		}
		keepBefore, keepAfter := context, context
		if k == 0 {
			keepBefore = 0
		}
		if end == len(ops) {
			keepAfter = 0
		}
		if n := end - k; n > keepBefore+keepAfter+1 {
			for _, op := range ops[k : k+keepBefore] {
				out = append(out, mark(op))
			}
			out = append(out, skipped(n-keepBefore-keepAfter))
			for _, op := range ops[end-keepAfter : end] {
				out = append(out, mark(op))
			}
		} else {
			for _, op := range ops[k:end] {
				out = append(out, mark(op))
			}
		}
		k = end
	}
	return out
}
