package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// compileDiags compiles src and returns its error diagnostics.
func compileDiags(t *testing.T, src string) dsl.Diagnostics {
	t.Helper()
	f, diags := dsl.Parse("h.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, err := runtime.Compile(f)
	var ds dsl.Diagnostics
	if !errors.As(err, &ds) {
		t.Fatalf("Compile: %v, want diagnostics", err)
	}
	return ds
}

// The compiler's advice is the diagnostic's hint, apart from what is
// wrong, and the line shows them together as before.
func TestCompileHintApart(t *testing.T) {
	ds := compileDiags(t, `ruleset h {
  sides 2
  unit attribute agi int
  phase p {
    order units as o {
      highest agi == 3
    }
  }
}`)
	if len(ds) != 1 {
		t.Fatalf("want one diagnostic, got:\n%v", ds)
	}
	d := ds[0]
	if d.Message != "`agi == 3` must be a number, but it is bool" {
		t.Errorf("Message = %q", d.Message)
	}
	if !strings.HasPrefix(d.Hint, "a criterion ranks by a number; to put first those for which it holds, write `") {
		t.Errorf("Hint = %q", d.Hint)
	}
	if !strings.HasSuffix(d.String(), d.Message+": "+d.Hint) {
		t.Errorf("String() = %q does not end with the message and hint", d.String())
	}
}

// An error expr-lang places on a token ends where the token does: expr-lang
// gives the span as data.
func TestCompileErrorEnd(t *testing.T) {
	ds := compileDiags(t, `ruleset h {
  sides 2
  unit attribute agi int
  phase p {
    order units as o {
      highest agl + 1
    }
  }
}`)
	if len(ds) != 1 {
		t.Fatalf("want one diagnostic, got:\n%v", ds)
	}
	d := ds[0]
	if d.Pos.Line != 6 || d.Pos.Column != 15 {
		t.Fatalf("at %d:%d, want 6:15: %v", d.Pos.Line, d.Pos.Column, d)
	}
	if d.End.Line != 6 || d.End.Column != 18 {
		t.Errorf("End %d:%d, want 6:18, just past agl", d.End.Line, d.End.Column)
	}
}

// A rule's play-time advice is the RuleError's hint: Error gives it after
// what went wrong, and Diagnostic as the diagnostic's hint.
func TestRuleErrorHint(t *testing.T) {
	re := &runtime.RuleError{Pos: dsl.Pos{Filename: "h.rules", Line: 3, Column: 5},
		Err: errors.New("`award previous.holder` names nobody"), Hint: "put a tie rule for round 1 above this one"}
	if got, want := re.Error(), "h.rules:3:5: `award previous.holder` names nobody: put a tie rule for round 1 above this one"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	d := re.Diagnostic()
	if d.Message != "`award previous.holder` names nobody" || d.Hint != re.Hint || d.Pos != re.Pos {
		t.Errorf("Diagnostic() = %#v", d)
	}
}
