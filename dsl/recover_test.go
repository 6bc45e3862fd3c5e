package dsl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/dsl"
)

// TestDiceInCapitals checks that D6 and 2D6, as rulebooks write them, are
// dice, kept in lowercase (the form the runtime and the formatter use), and
// that a bare D6 elsewhere is still a name.
func TestDiceInCapitals(t *testing.T) {
	const src = `ruleset x {
  phase p {
    order sides as o {
      highest roll D6
      lowest roll 2D6+1
      tie: reroll
    }
  }
  example {
    side D6 {
      unit D20
    }
  }
}
`
	f, diags := dsl.Parse("caps.rules", []byte(src))
	if diags != nil {
		t.Fatalf("Parse: %v", diags)
	}
	var dice, mods []string
	dsl.Walk(f, func(n dsl.Node) {
		if r, ok := n.(*dsl.RollCrit); ok {
			dice = append(dice, r.Dice)
			if r.Modifier != nil {
				mods = append(mods, r.Modifier.Source)
			}
		}
	})
	if diff := cmp.Diff([]string{"d6", "2d6"}, dice); diff != "" {
		t.Errorf("dice (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"+1"}, mods); diff != "" {
		t.Errorf("modifiers (-want +got):\n%s", diff)
	}
	side := f.Rulesets()[0].Body[1].(*dsl.ExampleStmt).Setup[0].(*dsl.SideSetup)
	if side.Name != "D6" || side.Body[0].(*dsl.UnitSetup).Name != "D20" {
		t.Errorf("names D6 and D20 parsed as %q and %v", side.Name, side.Body)
	}
	if out := string(dsl.Format(f)); !strings.Contains(out, "highest roll d6\n") || !strings.Contains(out, "lowest roll 2d6") {
		t.Errorf("Format does not write the dice in lowercase:\n%s", out)
	}
}

// TestParseLeavesOutBrokenDeclarations checks that the file Parse returns
// with errors holds only the declarations without any, so that a compiler
// given it does not report the consequences of a reported mistake (an
// expression whose unclosed bracket was removed, a tie rule's reroll whose
// roll had bad dice), and that the errors come in source order, once each.
func TestParseLeavesOutBrokenDeclarations(t *testing.T) {
	const src = `ruleset bracket {
  phase p {
    order sides as o {
      highest count(units
      random
    }
  }
}
ruleset dice {
  phase p {
    order sides as o {
      highest roll D6x
      tie: reroll
    }
  }
}
ruleset stmt {
  sidse 2
  phase p {
    order sides as o {
      frob
    }
  }
}
ruleset number {
  sides 99999999999999999999
}
ruleset good {
  phase p {
    order sides as o {
      random
    }
  }
}
scenario "broken" {
  seed
}
scenario "fine" {
  ruleset good
}
`
	f, diags := dsl.Parse("broken.rules", []byte(src))
	if f == nil {
		t.Fatalf("Parse returned no file; diagnostics:\n%s", diags.Render(src))
	}
	var got []string
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *dsl.Ruleset:
			got = append(got, "ruleset "+string(d.Name))
		case *dsl.Scenario:
			got = append(got, "scenario "+string(d.Title))
		}
	}
	if diff := cmp.Diff([]string{"ruleset good", "scenario fine"}, got); diff != "" {
		t.Errorf("declarations kept (-want +got):\n%s", diff)
	}

	var where []string
	for _, d := range diags {
		where = append(where, d.Pos.String()+": "+d.Message)
	}
	want := []string{
		`broken.rules:4:20: this "(" is not closed`,
		`broken.rules:12:20: bad dice "D6x": write NdS (N dice of S sides), such as d6 or 2d6`,
		`broken.rules:18:3: unknown statement "sidse" in ruleset block`,
		`broken.rules:21:7: unknown statement "frob" in order block`,
		`broken.rules:26:9: this number is too large`,
		`broken.rules:36:7: unexpected end of line (expected a number)`,
	}
	if len(where) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(where), len(want), strings.Join(where, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(where[i], want[i]) {
			t.Errorf("diagnostic %d = %s\nwant it to start %s", i, where[i], want[i])
		}
	}
}

// TestRecoveryStopsAtBrokenStructure checks that a file whose braces do not
// balance gets one error per declaration, not one per statement: past a
// missing "}", the statements that follow are not what they seem.
func TestRecoveryStopsAtBrokenStructure(t *testing.T) {
	const src = `ruleset x {
  phase p {
    order sides as o {
      frob
  }
  also wrong
  activation whenever by o
}
`
	_, diags := dsl.Parse("brace.rules", []byte(src))
	if len(diags) != 1 || diags[0].Pos.Line != 4 {
		t.Errorf("want one error, at line 4; got:\n%s", diags.Render(src))
	}
}

// A missing "}" is reported at the next declaration, which is whole: it is
// kept, so that what is wrong inside it is found too.
func TestMissingBraceKeepsTheNextDeclaration(t *testing.T) {
	const src = "ruleset a {\n  sides 2\n\nruleset b {\n  sides 2\n}\n"
	f, diags := dsl.Parse("brace.rules", []byte(src))
	if f == nil || len(diags) != 1 || diags[0].Hint != `is a "}" missing above?` {
		t.Fatalf("file %v, diagnostics:\n%s", f, diags.Render(src))
	}
	var got []string
	for _, r := range f.Rulesets() {
		got = append(got, string(r.Name))
	}
	if diff := cmp.Diff([]string{"b"}, got); diff != "" {
		t.Errorf("rulesets kept (-want +got):\n%s", diff)
	}
}

// When recovery stops, the diagnostic saying so comes last, whether the
// mistakes are in the grammar or in the characters.
func TestRecoveryStopComesLast(t *testing.T) {
	for _, stmt := range []string{"  frob%d 1\n", "  sides @%d\n", "  sides @%d\n  frob%[1]d 1\n"} {
		var b strings.Builder
		b.WriteString("ruleset x {\n")
		for i := range 25 {
			fmt.Fprintf(&b, stmt, i)
		}
		b.WriteString("}\nruleset y {\n  sides 99999999999999999999\n}\n")
		_, diags := dsl.Parse("many.rules", []byte(b.String()))
		if n := len(diags); n == 0 || !strings.HasPrefix(diags[n-1].Message, "too many errors") {
			t.Fatalf("diagnostics:\n%s", diags.Render(b.String()))
		}
		// Mistakes in the characters and in the grammar share one bound:
		// 20 errors, then the one saying so.
		if n := len(diags); n != 21 {
			t.Errorf("%q: %d diagnostics, want 21", stmt, n)
		}
	}
}
