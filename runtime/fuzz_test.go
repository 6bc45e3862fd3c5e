package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// FuzzPlay compiles whatever parses and plays it: the runtime must never
// panic or hang on a ruleset, whatever it says, an error must point at the
// rule that caused it, and a snapshot taken after the rounds must restore
// to the same battle.
//
//	go test ./runtime -run '^$' -fuzz FuzzPlay -fuzztime 60s
func FuzzPlay(f *testing.F) {
	for _, name := range rulesets.Names() {
		source, err := rulesets.Read(name)
		if err != nil {
			f.Fatal(err)
		}
		src := source.Text
		f.Add(string(src), uint64(1), true)
	}
	for _, body := range []string{
		"highest roll d6\n tie when round == 1: reroll\n tie: award not previous.chooser\n choice first by winner default self",
		"highest roll 2d6 + len(sides)\n tie: random",
		"lowest len(units)\n tie when len(tied) == 2 { highest roll d6\n tie: reroll\n choice before_after by winner default after }\n tie { random }",
		"highest roll d6\n tie: choice order by loser default reverse",
		"highest round > 1 ? 1 : 2\n tie: award previous.holder",
		// Randomizers: the declarations ride in a criterion's line.
		"highest roll prio + len(units)\n tie: highest draw cards\n tie: reroll\n }\n }\n die prio { blank * 2, crown = 2 }\n deck cards per side reshuffle when empty { 1..3, 1 }\n phase q {\n  order sides as q {\n random",
		"highest draw cards\n tie: reroll\n }\n }\n bag cards reshuffle each round { a = 1, b = 1 * 2, c = -1 }\n phase q {\n  order sides as q {\n random",
	} {
		f.Add(fmt.Sprintf("ruleset f {\n sides 2..\n unit attribute agi int = 3\n phase p each round {\n  order sides as o {\n %s\n  }\n }\n activation alternate by o\n example {\n  side A { unit a1\n unit a2 }\n  side B { unit b1 }\n  side C\n }\n}\n", body), uint64(7), false)
	}
	// The activation loops of the change: a dice bag, and a condition on
	// passing.
	for _, act := range []string{
		"activation draw by o",
		"activation draw by o default last",
		"activation alternate by o default last pass allowed when count(units, .ready) < max(map(sides, count(.units, .ready)))",
		"activation sequential by o pass allowed when round > 1",
	} {
		f.Add(fmt.Sprintf("ruleset f {\n sides 2..\n phase p each round {\n  order sides as o {\n highest roll d6\n tie: random\n  }\n }\n %s\n example {\n  side A { unit a1\n unit a2 }\n  side B { unit b1 }\n  side C\n }\n}\n", act), uint64(3), true)
	}
	// Loops in phases and steps, with and without an order, and first =.
	for _, body := range []string{
		"phase m {\n activation alternate by o\n }\n phase s {\n step f {\n activation sequential pass allowed\n }\n }",
		"phase m {\n activation unit_order\n }\n activation draw\n on start of phase m {\n first = \"B\"\n }",
		"phase m {\n ready units\n activation draw\n hook h\n activation_x\n }",
		"phase m {\n hook h\n activation alternate default last\n }\n on hook h {\n first = sides[1].name\n }",
	} {
		f.Add(fmt.Sprintf("ruleset f {\n sides 2..\n phase p each round {\n  order sides as o {\n highest roll d6\n tie: random\n  }\n }\n %s\n example {\n  side A { unit a1\n unit a2 }\n  side B { unit b1 }\n  side C\n }\n}\n", body), uint64(5), true)
	}
	// Decisions of decide statements, and an attribute's range.
	for _, dec := range []string{
		"decide bid int 1..3 by each side secretly default random\n  order sides as o {\n lowest bid\n tie: random\n  }",
		"order sides as o {\n highest roll d6 + pips\n tie: reroll\n  }\n decide heroic bool by o.last default yes",
		"order sides as o {\n random\n  }\n decide kick one of kick, receive by o.first default random\n ready units where kick == \"kick\"",
	} {
		f.Add(fmt.Sprintf("ruleset f {\n sides 2..\n side attribute pips int 1..6\n phase p each round {\n %s\n }\n on end of phase p { set pips of holder = 7 }\n example {\n  side A { unit a1 }\n  side B pips = 6\n }\n}\n", dec), uint64(5), true)
	}
	f.Fuzz(func(t *testing.T, src string, seed uint64, transcript bool) {
		file, diags := dsl.Parse("fuzz.rules", []byte(src))
		if diags.HasErrors() {
			return
		}
		p, err := runtime.Compile(file, runtime.WithLimits(runtime.Limits{MaxRerolls: 50, MaxSteps: 200}))
		if err != nil && strings.Contains(err.Error(), "runtime error") {
			t.Fatalf("compiling reports a Go runtime error: %v", err)
		}
		if err != nil {
			return
		}
		sides := p.Example()
		if len(sides) == 0 {
			sides = runtime.Sides("A", "B", "C", "D")[:max(2, min(4, p.MinSides()))]
		}
		b, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(seed)), runtime.WithTranscript(transcript))
		if err != nil {
			return
		}
		// A twin with the transcript the other way must play the same
		// rounds (the battle takes shortcuts when nobody records).
		twin, err := p.NewBattle(sides, runtime.WithDice(runtime.NewSeededDice(seed)), runtime.WithTranscript(!transcript))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for range 3 {
			res, err := b.PlayRound(ctx)
			want, twinErr := twin.PlayRound(ctx)
			if (err == nil) != (twinErr == nil) {
				t.Fatalf("with the transcript %v: %v; with it %v: %v", transcript, err, !transcript, twinErr)
			}
			if err == nil && (!slices.Equal(res.Order, want.Order) || res.Holder != want.Holder || res.Chooser != want.Chooser) {
				t.Fatalf("round %d with the transcript %v: %v, holder %q, chooser %q; with it %v: %v, %q, %q",
					res.Round, transcript, res.Order, res.Holder, res.Chooser, !transcript, want.Order, want.Holder, want.Chooser)
			}
			if err != nil {
				if errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("a round took more than 10s: %v", err)
				}
				// Only the ruleset can fail here (the dice are seeded and
				// decisions follow its policies): the error must say where.
				var re *runtime.RuleError
				if !errors.As(err, &re) || re.Pos.Filename != "fuzz.rules" || re.Pos.Line < 1 {
					t.Fatalf("round %d: the error is not a RuleError in fuzz.rules: %v", b.Round(), err)
				}
				if q := b.Pending(); q != nil {
					t.Fatalf("round %d failed with %v, and waits for %s", b.Round(), err, q)
				}
				break
			}
		}
		if _, err := snapRestore(p, b); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzRestore feeds Restore edited snapshots of the bundled rulesets, and
// of the activation loops they do not have (a bag of dice, a condition on
// passing): a saved battle is a file a user can change, so whatever Restore accepts
// must play on without a panic or a hang, and save again exactly.
//
//	go test ./runtime -run '^$' -fuzz FuzzRestore -fuzztime 60s
func FuzzRestore(f *testing.F) {
	var progs []*runtime.Program
	var sides [][]runtime.SideSpec
	for _, name := range rulesets.Names() {
		p := mustProgram(f, name)
		progs, sides = append(progs, p), append(sides, p.Example())
	}
	// The activation loops no bundled ruleset has: a bag of dice (a
	// snapshot holds the side drawn), and a condition on passing.
	progs = append(progs, compileInline(f, strings.Replace(drawRules, "%s", "", 1)),
		compileInline(f, fmt.Sprintf(passRules, "pass allowed when "+fewerMayPass)))
	sides = append(sides, bagSides(), fewerSides())
	// Loops in phases and steps, and a side put first in one phase (a
	// snapshot holds the loop under way and the side).
	progs, sides = append(progs, compileInline(f, phaseLoopsSrc)), append(sides, phaseLoopSides())
	// Decisions made in the round, which a snapshot holds, and a range.
	progs, sides = append(progs, compileInline(f, secretBids)), append(sides, runtime.Sides("Jay", "Rob", "Kim"))
	for i := range progs {
		// Saved before the first round, between rounds, and at every step
		// of the second round.
		b, err := progs[i].NewBattle(sides[i], runtime.WithDice(runtime.NewSeededDice(uint64(i))))
		if err != nil {
			f.Fatal(err)
		}
		ctx := context.Background()
		save := func() {
			data, err := b.Snapshot()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), data)
		}
		save()
		if err := b.AdvanceRound(ctx); err != nil {
			f.Fatal(err)
		}
		save()
		if err := b.StartRound(ctx); err != nil {
			f.Fatal(err)
		}
		for done := false; !done; {
			save()
			if t := b.Next(); t != nil && t.Undrawn {
				if _, err := b.Draw(ctx); err != nil {
					f.Fatal(err)
				}
				save() // with the side drawn
			}
			if done, err = b.Step(ctx); err != nil {
				f.Fatal(err)
			}
		}
		save()
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		p := progs[int(which)%len(progs)]
		// What Restore accepts must play on, and save again exactly.
		if err := playEdited(p, data, 3, runtime.WithTranscript(which&0x80 != 0)); err != nil {
			t.Fatal(err)
		}
		// And so with fresh seeded dice given, stepped through turn by
		// turn, under a deadline; what it refuses, it refuses in one line.
		if err := restorePlayOn(p, data); err != nil {
			t.Fatal(err)
		}
	})
}
