package runtime_test

// Semantic error tests: every chunk of testdata/errors/*.rules parses
// cleanly, and compiling each of its rulesets (which also builds the battle
// of its example block) reports exactly the positioned errors its "###"
// markers expect. Warnings a marker asks for must be reported too, at the
// marked position; warnings nobody asked for are ignored. A chunk with no
// marker is a positive case and must say so with an "# ok:" comment.
//
// SHOWDIAGS=1 go test -run TestSemanticErrors -v ./runtime/ shows every
// chunk's diagnostics as `turnorder check` renders them.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/dsltest"
	"github.com/turnorder/turnorder/runtime"
)

// okMark is what a chunk with no marker must say, so that a chunk whose
// markers were forgotten is not taken for a positive case.
const okMark = "# ok:"

func TestSemanticErrors(t *testing.T) {
	dsltest.RunFiles(t, "testdata/errors/*.rules", 30, func(t *testing.T, file string, c dsltest.Chunk) {
		if len(c.Want) == 0 && !strings.Contains(c.Source, okMark) {
			t.Errorf("%s:%d: chunk expects no diagnostic; error chunks need a ### marker, positive ones a %q comment",
				file, c.Line, okMark)
		}
		diags := compileChunk(t, file, c.Source)
		for _, d := range diags {
			if d.Pos.Line < 1 || d.Pos.Column < 1 {
				t.Errorf("%s: diagnostic without a position: %v", file, d)
			} else if d.Pos.Filename != file {
				t.Errorf("%s: diagnostic names file %q: %v", file, d.Pos.Filename, d)
			}
		}
		dsltest.Check(t, file, c, diags)
		if t.Failed() || os.Getenv("SHOWDIAGS") != "" {
			t.Logf("all diagnostics:\n%s", diags.Render(c.Source))
		}
	})
}

// compileChunk parses src and compiles every ruleset in it, returning all
// diagnostics: the parser's, then each ruleset's errors and warnings. A
// panic fails the test.
func compileChunk(t *testing.T, file, src string) (diags dsl.Diagnostics) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: panic: %v", file, r)
		}
	}()
	f, pd := dsl.Parse(file, []byte(src))
	if pd.HasErrors() {
		// The inputs here are meant to be well-formed; a syntax error means
		// the chunk does not test what it says.
		t.Errorf("%s: the chunk does not parse:\n%s", file, pd.Render(src))
	}
	diags = append(diags, pd...)
	if f == nil {
		return diags
	}
	n := 0
	for _, r := range f.Rulesets() {
		n++
		p, err := runtime.CompileRuleset(f, r)
		if err != nil {
			ds, ok := err.(dsl.Diagnostics)
			if !ok {
				t.Errorf("ruleset %s: Compile error is %T, not dsl.Diagnostics: %v", r.Name, err, err)
				continue
			}
			diags = append(diags, ds...)
			continue
		}
		diags = append(diags, p.Warnings()...)
	}
	if n == 0 {
		_, err := runtime.Compile(f)
		if ds, ok := err.(dsl.Diagnostics); ok {
			diags = append(diags, ds...)
		} else if err != nil {
			t.Errorf("Compile error is %T, not dsl.Diagnostics: %v", err, err)
		}
	}
	return diags
}

// TestRenderUnknownName renders the error of `lowest count(unitz)` the way
// `turnorder check` shows it: the position of `unitz`, the source line,
// and a caret under it.
func TestRenderUnknownName(t *testing.T) {
	const src = "ruleset x {\n" +
		"  phase p {\n" +
		"    order sides as o {\n" +
		"      lowest count(unitz)\n" +
		"      random\n" +
		"    }\n" +
		"  }\n" +
		"}\n"
	diags := compileChunk(t, "x.rules", src)
	var errs dsl.Diagnostics
	for _, d := range diags {
		if d.Severity == dsl.Error {
			errs = append(errs, d)
		}
	}
	if len(errs) != 1 {
		t.Fatalf("want one error, got:\n%s", diags.Render(src))
	}
	got := errs.Render(src)
	// `unitz` starts at column 20 of line 4.
	const prefix = "x.rules:4:20: error: "
	wantSnippet := "\n" +
		"          lowest count(unitz)\n" +
		"                       ^\n"
	if !strings.HasPrefix(got, prefix) || !strings.HasSuffix(got, wantSnippet) || !strings.Contains(got, "unitz") {
		t.Errorf("Render:\n got:\n%s\nwant %q ... (naming unitz) ... %q", got, prefix, wantSnippet)
	}
	if strings.Count(got, "\n") != 3 {
		t.Errorf("Render: want the message, the line and the caret, got:\n%s", got)
	}
}

// An expression that expr-lang itself fails on while compiling (it
// recovers from a panic of its own and returns the stack trace as the
// error) is still reported as a one-line diagnostic at the expression:
// a rule author must not be shown a Go stack dump.
//
// `filter(sides, .name != holder)[0].name` is valid expr-lang, but
// expr-lang v1.17.8 dereferences a nil pointer compiling a member of an
// indexed filter() result (with any environment, not only the runtime's).
// `map(filter(sides, .name != holder), .name)[0]` works.
func TestExprInternalErrorIsOneLine(t *testing.T) {
	const src = "ruleset x {\n" +
		"  phase p {\n" +
		"    order sides as o {\n" +
		"      random\n" +
		"    }\n" +
		"  }\n" +
		"  on end of phase p {\n" +
		"    holder = filter(sides, .name != holder)[0].name\n" +
		"  }\n" +
		"}\n"
	diags := compileChunk(t, "x.rules", src)
	for _, d := range diags {
		if d.Severity != dsl.Error {
			continue
		}
		if d.Pos.Line != 8 {
			t.Errorf("error not at the expression (line 8): %v", d)
		}
		if strings.Contains(d.Message, "\n") || strings.Contains(d.Message, "goroutine") {
			first, _, _ := strings.Cut(d.Message, "\n")
			t.Errorf("the diagnostic is %d lines long (a Go stack trace); first line: %s",
				strings.Count(d.Message, "\n")+1, first)
		}
	}
}

// The chunk checker matches a warning marker against warnings too, at the
// marked position, while warnings no marker asks for are not failures.
func TestWarningMarkers(t *testing.T) {
	const file = "w.rules"
	src := "ruleset x {\n" + // 1
		"  phase p {\n" + // 2
		"    order sides as o {\n" + // 3
		"      random\n" + // 4
		"      lowest count(units)\n" + // 5
		"    }\n" + // 6
		"  }\n" + // 7
		"}" // 8
	diags := compileChunk(t, file, src)
	if diags.HasErrors() || len(diags) == 0 {
		t.Fatalf("want warnings only, got:\n%s", diags.Render(src))
	}
	chunk := func(want ...dsltest.Expectation) dsltest.Chunk {
		return dsltest.Chunk{Source: src, Line: 1, Want: want}
	}
	after := regexp.MustCompile("comes after random")
	if m := dsltest.Mismatches(file, chunk(), diags); len(m) != 0 {
		t.Errorf("unasked-for warnings are failures: %q", m)
	}
	if m := dsltest.Mismatches(file, chunk(dsltest.Expectation{Line: 5, Column: 7, Pattern: after}), diags); len(m) != 0 {
		t.Errorf("the warning at 5:7 does not match its marker: %q", m)
	}
	for _, wrong := range []dsltest.Expectation{
		{Line: 5, Column: 8, Pattern: after},
		{Line: 4, Pattern: after},
		{Line: 5, Pattern: regexp.MustCompile("still tied")},
	} {
		if m := dsltest.Mismatches(file, chunk(wrong), diags); len(m) != 1 {
			t.Errorf("marker %d:%d %q: mismatches %q, want one", wrong.Line, wrong.Column, wrong.Pattern, m)
		}
	}
}

// A Go function that expressions could not call by its name, or that would
// replace or lose to another name, is a compile error.
func TestHostFunctionNames(t *testing.T) {
	src := "ruleset x {\n sides 2\n side attribute threat int\n phase p { order sides as o { highest threat } }\n}\n"
	f, diags := dsl.Parse("x.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	fn := func(...any) (any, error) { return 1, nil }
	tests := []struct {
		name string
		want string
	}{
		{"count", `WithFunction("count") would replace the built-in function count`},
		{"same_team", `WithFunction("same_team") would replace the built-in function`},
		{"tied", `every expression has a value called tied`},
		{"threat", `the side attribute threat declared at line 3 would hide the function`},
		{"", `WithFunction(""): an expression cannot call a function by that name`},
		{"two words", `an expression cannot call a function by that name`},
	}
	for _, tt := range tests {
		_, err := runtime.Compile(f, runtime.WithFunction(tt.name, fn))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("WithFunction(%q): err = %v, want %q", tt.name, err, tt.want)
		}
	}
	_, err := runtime.Compile(f, runtime.WithFunction("bonus", fn), runtime.WithFunction("bonus", fn))
	if err == nil || !strings.Contains(err.Error(), `WithFunction("bonus") is given twice`) {
		t.Errorf("twice: err = %v", err)
	}
	if _, err := runtime.Compile(f, runtime.WithFunction("bonus", fn), nil); err != nil {
		t.Errorf("a good function and a nil option: %v", err)
	}
	if _, err := runtime.Compile(nil); err == nil {
		t.Error("Compile(nil): no error")
	}
}

// InRound names the round once, by type: an error whose text only looks
// as if it named a round is not taken for one.
func TestInRound(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"plain", errors.New("no unit is called Zed"), "round 2: no unit is called Zed"},
		{"text only", errors.New("round 2: looks named"), "round 2: round 2: looks named"},
		{"named", &runtime.RoundError{Round: 2, Err: errors.New("unscripted decision")}, "round 2: unscripted decision"},
		{"order", &runtime.RoundError{Round: 2, Order: "priority", Err: errors.New("a d6 roll is needed")}, "round 2, order priority: a d6 roll is needed"},
		{"wrapped", fmt.Errorf("the dice: %w", &runtime.RoundError{Round: 2, Err: errors.New("jammed")}), "the dice: round 2: jammed"},
		{"rule", &runtime.RuleError{Err: &runtime.RoundError{Round: 2, Err: errors.New("tied")}}, "round 2: tied"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := runtime.InRound(2, tt.err)
			if err.Error() != tt.want {
				t.Errorf("InRound(2, %q) = %q, want %q", tt.err, err, tt.want)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("InRound(2, %q) does not wrap the error", tt.err)
			}
			re, ok := errors.AsType[*runtime.RoundError](err)
			if !ok || re.Round != 2 {
				t.Errorf("InRound(2, %q) = %#v, want a RoundError of round 2", tt.err, err)
			}
		})
	}
}

// The dice and deciders of the package say which round (and order) they
// failed in with a RoundError, so a host need not parse the message.
func TestRoundErrorFromScripts(t *testing.T) {
	p := mustProgram(t, "mesbg")
	for _, tt := range []struct {
		name   string
		script func(*runtime.ScriptedDice)
		want   runtime.RoundError
	}{
		{"no roll scripted", func(d *runtime.ScriptedDice) {}, runtime.RoundError{Round: 1, Order: "priority"}},
		{"impossible roll", func(d *runtime.ScriptedDice) { d.AddRoll("Jay", 7); d.AddRoll("Rob", 1) }, runtime.RoundError{Round: 1, Order: "priority"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dice := &runtime.ScriptedDice{}
			tt.script(dice)
			b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
			if err != nil {
				t.Fatal(err)
			}
			err = b.AdvanceRound(context.Background())
			re, ok := errors.AsType[*runtime.RoundError](err)
			if !ok {
				t.Fatalf("err = %v, want a RoundError", err)
			}
			if diff := cmp.Diff(tt.want, *re, cmpopts.IgnoreFields(runtime.RoundError{}, "Err")); diff != "" {
				t.Errorf("RoundError (-want +got):\n%s", diff)
			}
		})
	}
}

// The same guard twice is a dead rule, unless it calls a host function,
// which may answer differently the second time.
func TestSameGuardWithHostFunction(t *testing.T) {
	src := "ruleset x {\n sides 2\n phase p { order sides as o {\n  highest roll d6\n  tie when coin(): reroll\n  tie when coin(): random\n  tie when round == 1: reroll\n  tie when round == 1: random\n  tie: reroll\n } }\n}\n"
	f, diags := dsl.Parse("x.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	coin := func(...any) (any, error) { return true, nil }
	p, err := runtime.Compile(f, runtime.WithFunction("coin", coin))
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, w := range p.Warnings() {
		if strings.Contains(w.Message, "has the same guard") {
			lines = append(lines, w.Pos.Line)
		}
	}
	if diff := cmp.Diff([]int{8}, lines); diff != "" {
		t.Errorf("lines warned of the same guard (-want +got):\n%s", diff)
	}
}

// InRound of no error is no error, so that a host may wrap whatever a
// round returned, as with fmt.Errorf's %w it could not.
func TestInRoundOfNil(t *testing.T) {
	if err := runtime.InRound(2, nil); err != nil {
		t.Errorf("InRound(2, nil) = %v, want nil", err)
	}
}

// ExampleInRound reports the error of a round a host played, naming the
// round, and reports nothing for a round that went well.
func ExampleInRound() {
	prog := compileBundled("mesbg")
	b, _ := prog.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewScriptedDice()))
	for range 2 {
		err := runtime.InRound(b.Round()+1, b.AdvanceRound(context.Background()))
		fmt.Println(err)
	}
	b, _ = prog.NewBattle(runtime.Sides("Jay", "Rob"))
	fmt.Println(runtime.InRound(b.Round()+1, b.AdvanceRound(context.Background())))
	// Output:
	// round 1, order priority: a d6 roll is needed for Jay, Rob, but none is scripted
	// round 1, order priority: a d6 roll is needed for Jay, Rob, but none is scripted
	// <nil>
}

// A handler's when, and a ready rule's condition, that give something
// other than true or false (a host function without a signature returning
// the wrong type) are the rule's error, as a tie rule's guard is: they
// were taken as false, and the special rule silently never ran.
func TestConditionNotABool(t *testing.T) {
	for _, tt := range []struct {
		name, rule, want string
	}{
		{"on when", `on start of round when flag() { set x of "A" = 1 }`, "inline.rules:11:26: `flag()` is 1, not true or false"},
		{"ready unless", `phase q { ready units unless flag() }`, "inline.rules:11:32: `flag()` for a1 is 1, not true or false"},
		{"tie when", "phase q {\n    order sides as q {\n      highest 1\n      tie when flag(): random\n      tie: random\n    }\n  }",
			"inline.rules:14:16: `flag()` is 1, not true or false"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, `ruleset a "a" {
  sides 2
  side attribute x int
  phase p {
    order sides as p {
      highest roll d6
      tie: reroll
    }
  }
  activation alternate by p
  `+tt.rule+`
}
`, runtime.WithFunction("flag", func(...any) (any, error) { return 1, nil }))
			b, err := p.NewBattle([]runtime.SideSpec{{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}}}, {Name: "B"}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(context.Background())
			if _, ok := errors.AsType[*runtime.RuleError](err); !ok || err.Error() != tt.want {
				t.Errorf("PlayRound: %v\nwant the RuleError %s", err, tt.want)
			}
		})
	}
}

// A stateless server keeps the battle as it was when the round began and
// what its players have given since, and on each request plays the round
// again with them through ScriptedDice and a ScriptedDecider. What the
// round needs next is an UnscriptedError: errors.As says who must roll
// which dice, or decide what, without reading the message.
func TestUnscriptedErrorSaysWhatIsNeeded(t *testing.T) {
	ctx := context.Background()
	p := compileInline(t, `ruleset r "Roll, reroll, choose" {
  sides 3
  phase p {
    order sides as priority {
      highest roll 2d6
      tie when round == 1: reroll
      choice first by winner default self
    }
  }
}`)
	b, err := p.NewBattle(runtime.Sides("Jay Smith", "Rób 🐗", "Ann"))
	if err != nil {
		t.Fatal(err)
	}
	start, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	// The table: Jay and Rob tie on 7, and again on 5; then Jay wins, and
	// lets Rob go first.
	table := map[string][]int{"Jay Smith": {7, 5, 9}, "Rób 🐗": {7, 5, 3}, "Ann": {2}}
	var rolls []struct {
		who   string
		total int
	}
	var answers [][]string
	var asked []string
	for range 20 {
		dice, dec := runtime.NewScriptedDice(), runtime.NewScriptedDecider()
		for _, r := range rolls {
			dice.AddRoll(r.who, r.total)
		}
		for _, a := range answers {
			dec.Add(a[0], a[1:]...)
		}
		b, err := p.Restore(start, runtime.WithDice(dice), runtime.WithDecider(dec))
		if err != nil {
			t.Fatal(err)
		}
		err = b.StartRound(ctx)
		if err == nil {
			if got, want := b.Order(), []string{"Rób 🐗", "Jay Smith", "Ann"}; !slices.Equal(got, want) {
				t.Errorf("order %q, want %q", got, want)
			}
			want := []string{"roll 2d6 attempt 0 for Jay Smith, Rób 🐗, Ann", "roll 2d6 attempt 1 for Jay Smith, Rób 🐗",
				"roll 2d6 attempt 2 for Jay Smith, Rób 🐗", "Jay Smith decides first among Jay Smith, Rób 🐗, Ann (default Jay Smith)"}
			if diff := cmp.Diff(want, asked); diff != "" {
				t.Errorf("asked (-want +got):\n%s", diff)
			}
			return
		}
		if !errors.Is(err, runtime.ErrUnscripted) {
			t.Fatal(err)
		}
		ue, ok := errors.AsType[*runtime.UnscriptedError](err)
		if !ok {
			t.Fatalf("%v: no UnscriptedError", err)
		}
		switch {
		case ue.Roll != nil:
			asked = append(asked, fmt.Sprintf("roll %dd%d attempt %d for %s", ue.Roll.Count, ue.Roll.Faces, ue.Roll.Attempt, strings.Join(ue.Missing, ", ")))
			for _, who := range ue.Missing {
				rolls = append(rolls, struct {
					who   string
					total int
				}{who, table[who][0]})
				table[who] = table[who][1:]
			}
		case ue.Decision != nil:
			d := ue.Decision
			asked = append(asked, fmt.Sprintf("%s decides %s among %s (default %s)", d.By, d.Kind, strings.Join(d.Options, ", "), strings.Join(d.Default, ", ")))
			answers = append(answers, []string{d.By, "Rób 🐗"})
		default:
			t.Fatalf("%v: nothing asked", err)
		}
	}
	t.Fatal("the round never started")
}

// A random pick nothing scripted says its options.
func TestUnscriptedErrorOfAPick(t *testing.T) {
	p := compileInline(t, randomRuleset)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(context.Background())
	ue, ok := errors.AsType[*runtime.UnscriptedError](err)
	if !ok || ue.Pick == nil || !slices.Equal(ue.Pick.Options, []string{"Jay", "Rob"}) || ue.Pick.Standing != "priority" {
		t.Fatalf("%v: want an UnscriptedError of a pick among Jay, Rob in priority, got %+v", err, ue)
	}
	if !errors.Is(err, runtime.ErrUnscripted) {
		t.Errorf("%v: not ErrUnscripted", err)
	}
}

// A roll that lacks one subject's result names that subject alone, and
// leaves the others' in the script: the group rolls as one.
func TestUnscriptedErrorOfPartOfAGroup(t *testing.T) {
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	b, err := mustProgram(t, "mesbg").NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(context.Background())
	ue, ok := errors.AsType[*runtime.UnscriptedError](err)
	if !ok || ue.Roll == nil || !slices.Equal(ue.Missing, []string{"Rob"}) || !slices.Equal(ue.Roll.Subjects, []string{"Jay", "Rob"}) {
		t.Fatalf("%v: want an UnscriptedError of the roll of Jay and Rob, missing Rob's; got %+v", err, ue)
	}
	if n := dice.Pending("Jay"); n != 1 {
		t.Errorf("Jay's scripted rolls left: %d, want 1", n)
	}
}

// The hint of a roll nobody scripted says "does" of one name, "do" of
// several, as the hint of an unscripted decision does.
func TestUnscriptedRollHintAgrees(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	for _, tc := range []struct {
		others []string
		want   string
	}{
		{[]string{"Rbo"}, "(the rolls scripted and not yet used are for Rbo, who does not roll here)"},
		{[]string{"Rbo", "Bob"}, "(the rolls scripted and not yet used are for Bob, Rbo, who do not roll here)"},
	} {
		dice := runtime.NewScriptedDice()
		dice.AddRoll("Jay", 4)
		for _, o := range tc.others {
			dice.AddRoll(o, 2)
		}
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.PlayRound(ctx)
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("rolls scripted for %v: %v, want it to end %q", tc.others, err, tc.want)
		}
	}
}
