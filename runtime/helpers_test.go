package runtime_test

// Helpers shared by the package's tests: compiling bundled and inline
// rulesets, playing rounds, and the sides and records they expect.

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// mustProgram compiles the bundled ruleset name.
func mustProgram(t testing.TB, name string) *runtime.Program {
	t.Helper()
	f, err := rulesets.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// activated lists a round's turns: the unit activated, or "pass SIDE".
func activated(acts []runtime.ActivationRecord) []string {
	var out []string
	for _, a := range acts {
		if a.Pass {
			out = append(out, "pass "+a.Side)
		} else {
			out = append(out, a.Unit)
		}
	}
	return out
}

// compileInline compiles the ruleset src, failing the test on an error.
func compileInline(t testing.TB, src string, opts ...runtime.Option) *runtime.Program {
	t.Helper()
	f, diags := dsl.Parse("inline.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p, err := runtime.Compile(f, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// finishWithin runs fn in a goroutine and fails the test if it has not
// returned within ten seconds. fn gets a context with that deadline. What
// fn does takes well under a second; the margin is for a busy machine, and
// the deadline only tells a hang from an end.
func finishWithin(t *testing.T, fn func(ctx context.Context) error) error {
	t.Helper()
	return finishWithinD(t, 10*time.Second, fn)
}

// finishWithinD is finishWithin with the deadline d.
func finishWithinD(t *testing.T, d time.Duration, fn func(ctx context.Context) error) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- fn(ctx) }()
	select {
	case err := <-done:
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("stopped by the %v deadline, not by itself: %v", d, err)
		}
		return err
	case <-time.After(d + 5*time.Second):
		t.Fatalf("did not return at all, 5s after a %v deadline: it ignores its context", d)
	}
	return nil
}

// errString is err's message, or "" for nil, for comparing errors.
func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// compileBundled compiles a bundled ruleset by name.
func compileBundled(name string, opts ...runtime.Option) *runtime.Program {
	f, err := rulesets.Parse(name)
	if err != nil {
		log.Fatal(err)
	}
	p, err := runtime.Compile(f, opts...)
	if err != nil {
		log.Fatal(err)
	}
	return p
}

// drawRules draws activations from a bag by roster; %s is the rest of
// the activation line.
const drawRules = `ruleset bag {
  phase roster {
    order sides as roster {
      highest count(units)
      tie: award tied[0].name
    }
  }
  activation draw by roster %s
}
`

// bagSides: A has three units, B two.
func bagSides() []runtime.SideSpec {
	return []runtime.SideSpec{
		{Name: "B", Units: []runtime.UnitSpec{{Name: "b1"}, {Name: "b2"}}},
		{Name: "A", Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}, {Name: "a3"}}},
	}
}

// act and pass build expected activation records.
func act(side, unit string) runtime.ActivationRecord {
	return runtime.ActivationRecord{Side: side, Unit: unit}
}

func pass(side string) runtime.ActivationRecord {
	return runtime.ActivationRecord{Side: side, Pass: true}
}

// playLoop runs the activation loop of a started round to its end with
// Step, failing the test on an error.
func playLoop(t *testing.T, ctx context.Context, b *runtime.Battle) {
	t.Helper()
	for i := 0; ; i++ {
		if i > 10000 {
			t.Fatal("the activation loop does not end")
		}
		done, err := b.Step(ctx)
		if err != nil {
			t.Fatalf("Step: %v", err)
		}
		if done {
			return
		}
	}
}

// gangs is two Necromunda gangs; Grath is seriously injured.
func gangs() []runtime.SideSpec {
	return []runtime.SideSpec{
		{Name: "Goliaths", Units: []runtime.UnitSpec{{Name: "Krug"}, {Name: "Grath", Statuses: []string{"seriously_injured"}}, {Name: "Volk"}}},
		{Name: "Eschers", Units: []runtime.UnitSpec{{Name: "Mira"}, {Name: "Sable"}}},
	}
}

// playTwins plays a round of twin and of b, and wants them the same.
func playTwins(t *testing.T, twin, b *runtime.Battle, what string) *runtime.RoundResult {
	t.Helper()
	ctx := context.Background()
	got, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := twin.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: round %d:\n%s", what, got.Round, diff)
	}
	return got
}

// snapshot saves b, failing the test on an error.
func snapshot(t *testing.T, b *runtime.Battle) string {
	t.Helper()
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// midRound starts the first round of a battle of the bundled ruleset name,
// with dice seeded with seed, and saves it.
func midRound(t *testing.T, name string, seed uint64) (*runtime.Program, *runtime.Battle, []byte) {
	t.Helper()
	p := mustProgram(t, name)
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(seed)))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return p, b, data
}

// fewerSides: A, which goes first, has two units, and B three.
func fewerSides() []runtime.SideSpec {
	return []runtime.SideSpec{
		{Name: "A", Attrs: map[string]any{"rank": 1}, Units: []runtime.UnitSpec{{Name: "a1"}, {Name: "a2"}}},
		{Name: "B", Attrs: map[string]any{"rank": 2}, Units: []runtime.UnitSpec{{Name: "b1"}, {Name: "b2"}, {Name: "b3"}}},
	}
}

// playedOneRound starts a battle of p, plays its first round and saves it.
func playedOneRound(t *testing.T, p *runtime.Program, sides []runtime.SideSpec, opts ...runtime.BattleOption) (*runtime.Battle, []byte) {
	t.Helper()
	b, err := p.NewBattle(sides, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return b, data
}

// randomRuleset orders two sides by a random pick alone.
const randomRuleset = `ruleset r "Random" {
  sides 2
  phase p {
    order sides as priority {
      random
    }
  }
}`

// roll is one scripted natural total: "Jay rolls 4".
type roll struct {
	who string
	v   int
}

// answer is one scripted decision: "Jay chooses Jay".
type answer struct {
	who string
	ans []string
}

// placement is what a placement event says about one place.
type placement struct {
	Place   int
	Subject string
	Rule    string
	Pos     string
}

// why is the explanation an event carries: its rule and where it is written.
type why struct {
	Kind    runtime.EventKind
	Subject string
	Rule    string
	Pos     string
}

// briefEvents renders the events that matter to an order as short strings
// ("roll Jay=4", "tie Jay/Rob", "decision Jay:Jay"), leaving out the noise of
// round boundaries, Ready markers and activations.
func briefEvents(evs []runtime.Event) []string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case runtime.EvRoundStart, runtime.EvRoundEnd, runtime.EvReady, runtime.EvNotReady, runtime.EvActivate, runtime.EvPass:
			continue
		case runtime.EvRoll:
			out = append(out, fmt.Sprintf("roll %s=%d", e.Subject, *e.Value))
		case runtime.EvTie, runtime.EvReroll, runtime.EvKept:
			out = append(out, fmt.Sprintf("%s %s", e.Kind, strings.Join(e.Subjects, "/")))
		case runtime.EvDecision:
			if e.Detail == string(runtime.ChooseActivation) {
				continue // which unit to activate: activation noise
			}
			out = append(out, fmt.Sprintf("decision %s:%s", e.By, strings.Join(e.Choice, "/")))
		case runtime.EvHook:
			out = append(out, "hook "+e.Detail)
		default:
			out = append(out, fmt.Sprintf("%s %s", e.Kind, e.Subject))
		}
	}
	return out
}

// rulePos returns "rulesets/NAME.rules:L:C" for the nth (from 0) rule line
// of a bundled ruleset that contains needle, C being where needle starts.
// Quotes and comments are skipped. Positions are computed from the file so
// that an added comment line does not break every test.
func rulePos(t testing.TB, ruleset, needle string, nth int) string {
	t.Helper()
	source, err := rulesets.Read(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	filename, src := source.Filename, source.Text
	n := 0
	for i, line := range strings.Split(string(src), "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "quote ") || strings.HasPrefix(trim, "#") {
			continue
		}
		c := strings.Index(line, needle)
		if c < 0 {
			continue
		}
		if n == nth {
			return fmt.Sprintf("%s:%d:%d", filename, i+1, c+1)
		}
		n++
	}
	t.Fatalf("%s.rules has no rule line #%d containing %q", ruleset, nth, needle)
	return ""
}

// activationPolicy answers activation decisions with the ruleset's default
// and fails every other decision, so that a test proves no priority
// decision was asked.
var activationPolicy = runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
	if d.Kind == runtime.ChooseActivation {
		return d.Default, nil
	}
	return nil, fmt.Errorf("unexpected decision: %s", d)
})

// agiSide is a side with one unit "<side>-unit".
func agiSide(name, team string, agi int) runtime.SideSpec {
	return runtime.SideSpec{Name: name, Team: team, Units: []runtime.UnitSpec{
		{Name: name + "-unit", Attrs: map[string]any{"agi": agi}},
	}}
}

// school is a side of n gladiators whose movement values are moves.
func school(name, prefix string, moves ...int) runtime.SideSpec {
	s := runtime.SideSpec{Name: name}
	for i, m := range moves {
		s.Units = append(s.Units, runtime.UnitSpec{Name: fmt.Sprintf("%s%d", prefix, i+1), Attrs: map[string]any{"movement": m}})
	}
	return s
}
