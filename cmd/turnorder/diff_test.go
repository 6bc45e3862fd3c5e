package main

import (
	"strings"
	"testing"
)

// apply rebuilds both sides of an edit script.
func apply(ops []diffOp) (oldText, newText string) {
	var a, b strings.Builder
	for _, op := range ops {
		if op.kind != '+' {
			a.WriteString(op.line)
		}
		if op.kind != '-' {
			b.WriteString(op.line)
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
		ops := diffLines(splitLines(tt.a), splitLines(tt.b))
		if a, b := apply(ops); a != tt.a || b != tt.b {
			t.Errorf("diff %q -> %q rebuilds %q -> %q", tt.a, tt.b, a, b)
		}
	}
}

func TestDiffMinimal(t *testing.T) {
	ops := diffLines(splitLines("a\nb\nc\nd\n"), splitLines("a\nc\nd\ne\n"))
	changes := 0
	for _, op := range ops {
		if op.kind != ' ' {
			changes++
		}
	}
	if changes != 2 {
		t.Errorf("%d changed lines, want 2 (-b, +e): %q", changes, ops)
	}
}

func TestUnifiedDiff(t *testing.T) {
	if d := unifiedDiff("a", "b", "same\n", "same\n"); d != "" {
		t.Errorf("equal texts give a diff: %q", d)
	}
	var a, b []string
	for i := 1; i <= 20; i++ {
		a = append(a, "line"+string(rune('a'+i)))
	}
	b = append(b, a...)
	b[1] = "changed"
	b[17] = "changed too"
	got := unifiedDiff("old", "new", strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n")
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
	got = unifiedDiff("old", "new", "a\nb", "a\nc\n")
	want = "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = unifiedDiff("old", "new", "", "a\n")
	want = "--- old\n+++ new\n@@ -0,0 +1,1 @@\n+a\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
