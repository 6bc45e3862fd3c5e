package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// A message quotes the rule it is about, but a rule of thousands of
// characters is cut short: the source line and caret under the message
// show where it is, and a warning must stay a line a person reads.
func TestMessagesQuoteLongRulesShort(t *testing.T) {
	long := strings.Repeat("1 + ", 300) + "1"
	p := compileInline(t, "ruleset big {\n sides 2\n phase p each round { order sides as o { highest "+long+" } }\n}\n")
	w := p.Warnings()
	if len(w) != 1 {
		t.Fatalf("want one warning (the order can end tied), got %v", w)
	}
	msg := w[0].Message
	if n := utf8.RuneCountInString(msg); n > 200 {
		t.Errorf("the warning is %d characters long:\n%s", n, msg)
	}
	if !strings.Contains(msg, "`highest 1 + 1 + 1") || !strings.Contains(msg, "…`") {
		t.Errorf("the warning does not quote the start of the criterion, cut short:\n%s", msg)
	}
}

// An expression of thousands of parts is refused at compile time, in a
// few words at its start: its checking would recurse deep enough to crash
// a WebAssembly build.
func TestExpressionTooLong(t *testing.T) {
	long := strings.Repeat("1 + ", 2000) + "1"
	f, diags := dsl.Parse("big.rules", []byte("ruleset big {\n sides 2\n phase p each round { order sides as o { highest "+long+"\n random } }\n}\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, err := runtime.Compile(f)
	want := "big.rules:3:50: error: this expression is too long: it has more than 1000 parts (numbers, names and operators), where a rule's expression has a few dozen"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Compile: %v\nwant: %s", err, want)
	}
}

// A field of the element a filter picks (`filter(sides, p)[0].name`),
// which expr-lang's optimiser turns into a find, compiles and reads the
// right element, in a handler and in a criterion. It used to make
// compilation fail with a Go runtime error from inside expr-lang.
func TestFieldOfFilteredElement(t *testing.T) {
	const rules = `ruleset f {
 sides 3
 unit attribute agi int = 1
 phase p each round {
  order sides as o {
   highest (%s)
   tie: random
  }
  hook h
 }
 activation alternate by o
 on hook h {
  holder = (%s)
 }
 example {
  side A { unit a1 }
  side B { unit b1 }
  side C { unit c1 }
 }
}
`
	for _, tc := range []struct {
		criterion, holder string
		want              runtime.RoundResult
	}{
		{`name == "B" ? 1 : 0`, `filter(sides, .name != holder)[0].name`, runtime.RoundResult{Holder: "A"}},
		{`name == "B" ? 1 : 0`, `filter(sides, .name != holder)[-1].name`, runtime.RoundResult{Holder: "C"}},
		{`name == "B" ? 1 : 0`, `first(filter(sides, .name != holder)).name`, runtime.RoundResult{Holder: "A"}},
		{`name == "B" ? 1 : 0`, `last(filter(sides, .name != holder)).name`, runtime.RoundResult{Holder: "C"}},
		{`name == "B" ? 1 : 0`, `filter(units, .side != holder)[0].side`, runtime.RoundResult{Holder: "A"}},
		{`name == "B" ? 1 : 0`, `(filter(sides, .name != holder)[0]).name`, runtime.RoundResult{Holder: "A"}},
		{`name == filter(sides, .name > "A")[0].name ? 1 : 0`, `holder`, runtime.RoundResult{Holder: "B"}},
		{`name == filter(sides, .name < "C")[-1].name ? 1 : 0`, `holder`, runtime.RoundResult{Holder: "B"}},
		{`filter(units, .agi > 0)[0].agi + (name == "C" ? 1 : 0)`, `holder`, runtime.RoundResult{Holder: "C"}},
		{`len(filter(units, .name != "")[0].name) + (name == "C" ? 1 : 0)`, `holder`, runtime.RoundResult{Holder: "C"}},
	} {
		t.Run(tc.criterion+"/"+tc.holder, func(t *testing.T) {
			p := compileInline(t, fmt.Sprintf(rules, tc.criterion, tc.holder))
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(1)))
			if err != nil {
				t.Fatal(err)
			}
			res, err := b.PlayRound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			got := runtime.RoundResult{Holder: res.Holder}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("the round's holder (-want +got):\n%s", diff)
			}
		})
	}
}

// No expression text makes compilation report a Go runtime error: a
// field of what expr-lang's optimiser rewrites, and its variants.
func TestNoRuntimeErrorCompilingExpressions(t *testing.T) {
	for _, src := range []string{
		`filter(sides, .name != holder)[0].name`,
		`filter(sides, .name != holder)[-1].name`,
		`first(filter(sides, .name != holder)).name`,
		`last(filter(sides, .name != holder)).name`,
		`filter(sides, .name != holder)[0].nmae`,
		`filter(sides, .name != holder)[0].units[0].name`,
		`filter(sides, true)[0].units[0].agi`,
		`filter(units, .agi > 1)[0].agi`,
		`filter(units, .agi > 1)[-1].nope`,
		`filter(sides, 1)[0].name`,
		`filter(tied, .name != holder)[0].name`,
		`find(sides, .name != holder).name`,
		`findLast(sides, .name != holder).name`,
		`filter(map(sides, .units), true)[0][0].name`,
		`filter(sides, .name != holder)[0]?.name`,
		`filter(sides, .name != holder)?.[0].name`,
		`map(filter(sides, .name != holder), .name)[0]`,
	} {
		f, diags := dsl.Parse("x.rules", []byte("ruleset x {\n sides 2\n unit attribute agi int = 1\n phase p each round {\n  order sides as o {\n   highest 1\n   tie: random\n  }\n  hook h\n }\n on hook h {\n  holder = ("+src+")\n }\n}\n"))
		if diags.HasErrors() {
			t.Fatalf("%s: %v", src, diags)
		}
		if _, err := runtime.Compile(f); err != nil && strings.Contains(err.Error(), "runtime error") {
			t.Errorf("%s: %v", src, err)
		}
	}
}
