package dsl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestShortenExpected(t *testing.T) {
	tests := []struct{ in, want string }{
		{`unexpected "x" (expected ("alternate" | "sequential" | "unit_order") "by" <ident> ("pass" "allowed")?)`,
			`unexpected "x" (expected "alternate", "sequential" or "unit_order")`},
		{`unexpected "x" (expected (<ident> | <string>) <string>? "{")`, `unexpected "x" (expected a name or a quoted string)`},
		{`unexpected "x" (expected ("when" Expr)? "{")`, `unexpected "x" (expected "when" or "{")`},
		{`unexpected "x" (expected ((?! "when") (<ident> | <string>))? "{")`, `unexpected "x" (expected a name, a quoted string or "{")`},
		{`unexpected "x" (expected "}")`, `unexpected "x" (expected "}")`},
		{`unexpected "x" (expected ((( unbalanced)`, `unexpected "x" (expected ((( unbalanced)`},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, shortenExpected(tt.in)); diff != "" {
			t.Errorf("shortenExpected(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
