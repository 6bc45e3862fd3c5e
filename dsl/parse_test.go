package dsl

import (
	"os"
	"path/filepath"
	"testing"
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
		Walk(file, func(n any) {
			if e, ok := n.(*Expr); ok {
				t.Logf("%s:%d:%d expr %q", f, e.Pos.Line, e.Pos.Column, e.Source)
			}
		})
	}
}
