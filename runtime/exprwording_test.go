package runtime

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"

	"github.com/turnorder/turnorder/dsl"
)

// TestExprWording holds each pattern of exprwording.go to what expr-lang
// says today, for real expressions compiled (or run) as the compiler
// does. If an upgrade of expr-lang words one of these errors otherwise,
// this fails naming the pattern, instead of rule authors quietly getting
// expr-lang's words where the compiler's were.
func TestExprWording(t *testing.T) {
	const src = `ruleset w {
  sides 2
  unit attribute agi int
  remember streak = 1
  phase p {
    order sides as o {
      highest 1
    }
  }
}`
	f, diags := dsl.Parse("w.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	ty := p.types
	tests := []struct {
		name    string
		pattern *regexp.Regexp
		env     reflect.Type
		expr    string
		run     bool // the error comes from running it, not compiling it
	}{
		{"exprTooLong", exprTooLong, ty.sideEnv, strings.Repeat("1 + ", maxExprNodes) + "1", false},
		{"exprListIndex", exprListIndex, ty.sideEnv, "units.agi", false},
		{"coalesceMix", coalesceMix, ty.groupSides, `previous.holder ?? "" == "Jay"`, false},
		{"mismatch", mismatch, ty.sideEnv, `round == "1"`, false},
		{"unknownName", unknownName, ty.sideEnv, "agl", false},
		{"noField", noField, ty.unitEnv, "previous.streek", false},
		{"noField of a unit", noField, ty.sideEnv, "units[0].agl", false},
		{"unexpectedToken", unexpectedToken, ty.sideEnv, "round 1", false},
		{"unexpectedToken at the end", unexpectedToken, ty.sideEnv, "round +", false},
		{"exprNil", exprNil, ty.groupSides, "previous.streak + 1", true},
		{"exprEmpty of a list", exprEmpty, ty.groupSides, "previous.order[0] == \"Jay\"", true},
		{"exprEmpty of a value", exprEmpty, ty.groupSides, "previous.streak > 1", true},
		{"noField of an order", noField, ty.sideEnv, "o.frist", false},
		{"exprNilFetch", exprNilFetch, ty.groupSides, `o.first == "A"`, true},
		{"exprNilFetch of a map", exprNilFetch, ty.unitEnv, `o.place[side] > 1`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prog, err := expr.Compile(tt.expr, p.exprOptions(tt.env)...)
			if tt.run {
				if err != nil {
					t.Fatalf("compiling %q: %v", tt.expr, err)
				}
				_, err = expr.Run(prog, reflect.New(tt.env).Elem().Interface())
			}
			if err == nil {
				t.Fatalf("%q gave no error", tt.expr)
			}
			msg := err.Error()
			var fe *file.Error
			if errors.As(err, &fe) && tt.pattern != exprTooLong {
				msg = fe.Message
			}
			msg = ty.friendly(msg)
			if !tt.pattern.MatchString(msg) {
				t.Errorf("expr-lang's message for %q no longer matches %s `%s`:\n%s", tt.expr, tt.name, tt.pattern, msg)
			}
		})
	}
}
