package linediff

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// apply rebuilds both sides of an edit script.
func apply(ops []Op) (oldText, newText string) {
	var a, b strings.Builder
	for _, op := range ops {
		if op.Kind != Add {
			a.WriteString(op.Line)
		}
		if op.Kind != Del {
			b.WriteString(op.Line)
		}
	}
	return a.String(), b.String()
}

func TestDiffLines(t *testing.T) {
	tests := []struct{ a, b string }{
		{"", ""},
		{"a\n", ""},
		{"", "a\n"},
		{"a\nb\nc\n", "a\nc\n"},
		{"a\nb\nc\n", "a\nB\nc\nd\n"},
		{"x\ny\n", "y\nx\n"},
		{"a\nb", "a\nb\n"},
		{strings.Repeat("l\n", 50) + "z\n", "z\n" + strings.Repeat("l\n", 50)},
	}
	for _, tt := range tests {
		for _, inPlace := range []bool{false, true} {
			ops := diff(Lines(tt.a), Lines(tt.b), inPlace)
			if a, b := apply(ops); a != tt.a || b != tt.b {
				t.Errorf("diff %q -> %q (in place %v) rebuilds %q -> %q", tt.a, tt.b, inPlace, a, b)
			}
		}
	}
}

func TestDiffMinimal(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		ops := diff(Lines("a\nb\nc\nd\n"), Lines("a\nc\nd\ne\n"), inPlace)
		changes := 0
		for _, op := range ops {
			if op.Kind != Same {
				changes++
			}
		}
		if changes != 2 {
			t.Errorf("in place %v: %d changed lines, want 2 (-b, +e): %q", inPlace, changes, ops)
		}
	}
}

func TestUnified(t *testing.T) {
	if d := Unified("a", "b", "same\n", "same\n"); d != "" {
		t.Errorf("equal texts give a diff: %q", d)
	}
	var a, b []string
	for i := 1; i <= 20; i++ {
		a = append(a, "line"+string(rune('a'+i)))
	}
	b = append(b, a...)
	b[1] = "changed"
	b[17] = "changed too"
	got := Unified("old", "new", strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n")
	want := `--- old
+++ new
@@ -1,5 +1,5 @@
 lineb
-linec
+changed
 lined
 linee
 linef
@@ -15,6 +15,6 @@
 linep
 lineq
 liner
-lines
+changed too
 linet
 lineu
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = Unified("old", "new", "a\nb", "a\nc\n")
	want = "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = Unified("old", "new", "", "a\n")
	want = "--- old\n+++ new\n@@ -0,0 +1,1 @@\n+a\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A swap reads as two lines replaced, the others kept in place, and a
// long run of lines in both is cut short, saying how many are left out.
func TestListing(t *testing.T) {
	skipped := func(n int) string { return fmt.Sprintf("  ... %d as expected", n) }
	tests := []struct {
		a, b []string
		want []string
	}{
		{nil, nil, nil},
		{[]string{"x", "y", "p", "z"}, []string{"x", "z", "p", "y"}, []string{"  x", "- y", "+ z", "  p", "- z", "+ y"}},
		{[]string{"a"}, nil, []string{"- a"}},
		{nil, []string{"a", "b"}, []string{"+ a", "+ b"}},
		{
			[]string{"1", "2", "3", "4", "5", "x", "6", "7", "8", "9", "10", "11", "12", "13", "y"},
			[]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "z"},
			[]string{"  ... 2 as expected", "  3", "  4", "  5", "- x", "  6", "  7", "  8", "  ... 2 as expected", "  11", "  12", "  13", "- y", "+ z"},
		},
		// A run of 2*context+1 is shown whole.
		{
			[]string{"x", "1", "2", "3", "4", "5", "6", "7", "y"},
			[]string{"1", "2", "3", "4", "5", "6", "7"},
			[]string{"- x", "  1", "  2", "  3", "  4", "  5", "  6", "  7", "- y"},
		},
	}
	for _, tt := range tests {
		if got := Listing(tt.a, tt.b, 3, skipped); !slices.Equal(got, tt.want) {
			t.Errorf("Listing(%q, %q) =\n%q\nwant\n%q", tt.a, tt.b, got, tt.want)
		}
	}
}

// A middle too large to compare whole is a plain replacement, after the
// common lines at either end.
func TestDiffTooLarge(t *testing.T) {
	var a, b []string
	for i := range 3000 {
		a = append(a, fmt.Sprint("a", i))
		b = append(b, fmt.Sprint("b", i))
	}
	a, b = append(append([]string{"top"}, a...), "end"), append(append([]string{"top"}, b...), "end")
	for _, inPlace := range []bool{false, true} {
		ops := diff(a, b, inPlace)
		if len(ops) != 6002 || ops[0] != (Op{Same, "top"}) || ops[1] != (Op{Del, "a0"}) || ops[3001] != (Op{Add, "b0"}) || ops[6001] != (Op{Same, "end"}) {
			t.Errorf("in place %v: %d ops, starting %q", inPlace, len(ops), ops[:3])
		}
	}
}
