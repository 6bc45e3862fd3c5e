package dsl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseRulesets(t *testing.T) {
	files, _ := filepath.Glob("../rulesets/*.rules")
	for _, f := range files {
		src, _ := os.ReadFile(f)
		file, diags := Parse(f, src)
		if diags != nil {
			t.Errorf("%s", diags.Render(string(src)))
			continue
		}
		Walk(file, func(n Node) {
			if e, ok := n.(*Expr); ok {
				t.Logf("%s:%d:%d expr %q", f, e.Pos().Line, e.Pos().Column, e.Source)
			}
		})
	}
}

// A default may be written before `pass allowed` or after it (but not
// after a condition, which runs to the end of the line); either way it is
// Default, and Format writes it first only when there is a condition.
func TestActivationDefaultAndCondition(t *testing.T) {
	type got struct {
		Pass      bool
		When      string
		Default   string
		First     bool // DefaultFirst left set
		Formatted string
	}
	for _, tc := range []struct {
		stmt string
		want got
	}{
		{"activation alternate by o pass allowed default last",
			got{true, "", "last", false, "activation alternate by o pass allowed default last"}},
		{"activation alternate by o default last pass allowed",
			got{true, "", "last", false, "activation alternate by o pass allowed default last"}},
		{"activation alternate by o default last",
			got{false, "", "last", false, "activation alternate by o default last"}},
		{"activation alternate by o pass allowed when round > 1",
			got{true, "round > 1", "", false, "activation alternate by o pass allowed when round > 1"}},
		{"activation sequential by o default first pass allowed when count(units, .ready) < 2 # why",
			got{true, "count(units, .ready) < 2", "first", false, "activation sequential by o default first pass allowed when count(units, .ready) < 2 # why"}},
	} {
		t.Run(tc.stmt, func(t *testing.T) {
			src := "ruleset r {\n  phase p { order sides as o { random } }\n  " + tc.stmt + "\n}\n"
			f, diags := Parse("a.rules", []byte(src))
			if diags.HasErrors() {
				t.Fatal(diags.Render(src))
			}
			var s *ActivationStmt
			Walk(f, func(n Node) {
				if a, ok := n.(*ActivationStmt); ok {
					s = a
				}
			})
			g := got{Pass: s.PassAllowed, First: s.DefaultFirst != nil}
			if s.PassWhen != nil {
				g.When = s.PassWhen.Source
			}
			if s.Default != nil {
				g.Default = string(s.Default.Name)
			}
			_, line, _ := strings.Cut(string(Format(f)), "\n  activation ")
			line, _, _ = strings.Cut(line, "\n")
			g.Formatted = "activation " + line
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
