package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// Start a Morturi battle with schools and their gladiators, and step
// through a battle round's activations one turn at a time, as a game
// server does when each player acts in turn. The school with fewer
// gladiators has priority; a school with none ready must pass.
func ExampleProgram_NewBattle() {
	p := compileBundled("morturi")
	sides := []runtime.SideSpec{
		{Name: "Malleus Deus", Units: []runtime.UnitSpec{{Name: "Brutus"}, {Name: "Cassia"}}},
		{Name: "Ludi Aeternum", Units: []runtime.UnitSpec{
			{Name: "Decimus", Attrs: map[string]any{"movement": 3}},
			{Name: "Flavia"},
			{Name: "Gaius"},
		}},
	}
	b, err := p.NewBattle(sides)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := b.StartRound(ctx); err != nil { // the priority phase, then Ready markers
		log.Fatal(err)
	}
	fmt.Println("priority:", strings.Join(b.Order(), ", "))
	for t := b.Next(); t != nil; t = b.Next() {
		if t.MustPass {
			fmt.Printf("%s has no ready gladiator and passes\n", t.Side)
			if err := b.Pass(ctx); err != nil {
				log.Fatal(err)
			}
			continue
		}
		unit := t.Options[len(t.Options)-1] // the player's choice: here, the last ready one
		fmt.Printf("%s activates %s (ready: %s)\n", t.Side, unit, strings.Join(t.Options, ", "))
		if err := b.Activate(ctx, unit); err != nil {
			log.Fatal(err)
		}
	}
	res, err := b.EndRound(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("turns:", len(res.Activations))
	// Output:
	// priority: Malleus Deus, Ludi Aeternum
	// Malleus Deus activates Cassia (ready: Brutus, Cassia)
	// Ludi Aeternum activates Gaius (ready: Decimus, Flavia, Gaius)
	// Malleus Deus activates Brutus (ready: Brutus)
	// Ludi Aeternum activates Flavia (ready: Decimus, Flavia)
	// Malleus Deus has no ready gladiator and passes
	// Ludi Aeternum activates Decimus (ready: Decimus)
	// turns: 6
}

// A battle can be saved at any point, even in the middle of a round's
// activations, and restored later (in another process, say) to carry on
// exactly where it was. The restored battle is given its own dice and
// decider.
func ExampleProgram_Restore() {
	p := compileBundled("necromunda")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Goliaths", 2)
	dice.AddRoll("Eschers", 5)
	b, err := p.NewBattle(p.Example(), runtime.WithDice(dice))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := b.StartRound(ctx); err != nil {
		log.Fatal(err)
	}
	if err := b.Activate(ctx, "Sable"); err != nil { // the Eschers hold priority
		log.Fatal(err)
	}
	saved, err := b.Snapshot()
	if err != nil {
		log.Fatal(err)
	}

	// Later: restore, with decisions now made by the ruleset's policy.
	restored, err := p.Restore(saved, runtime.WithDecider(runtime.Policy{}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("round", restored.Round(), "holder", restored.Holder(), "ready:", strings.Join(restored.ReadyUnits(), ", "))
	fmt.Println("next:", restored.Next().Side)
	for {
		done, err := restored.Step(ctx)
		if err != nil {
			log.Fatal(err)
		}
		if done {
			break
		}
	}
	res, err := restored.EndRound(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range res.Activations {
		fmt.Printf("%s: %s\n", a.Side, a.Unit)
	}
	// Output:
	// round 1 holder Eschers ready: Krug, Grath, Volk, Mira, Vex
	// next: Goliaths
	// Eschers: Sable
	// Goliaths: Krug
	// Eschers: Mira
	// Goliaths: Grath
	// Eschers: Vex
	// Goliaths: Volk
}

// A ruleset's expressions can call Go functions that the host registers
// when it compiles the ruleset. Here an army builder knows each force's
// points, and the force with the lowest threat goes first.
func ExampleWithFunction() {
	src := `
ruleset skirmish {
  phase initiative {
    order sides as initiative {
      lowest threat(name)
      highest roll d6
      tie: reroll
    }
  }
}
`
	points := map[string]int{"Orcs": 300, "Elves": 250, "Dwarves": 275}
	threat := func(params ...any) (any, error) {
		return points[params[0].(string)], nil
	}
	f, diags := dsl.Parse("skirmish.rules", []byte(src))
	if diags.HasErrors() {
		log.Fatal(diags)
	}
	// The signature lets Compile type-check every call of threat.
	p, err := runtime.Compile(f, runtime.WithFunction("threat", threat, new(func(string) int)))
	if err != nil {
		log.Fatal(err)
	}
	b, err := p.NewBattle(runtime.Sides("Orcs", "Elves", "Dwarves"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Join(res.Order, ", "))
	// Output:
	// Elves, Dwarves, Orcs
}

// A rule that fails in play says where it is. Here a house rule puts the
// side with the most points per model first, and a side with no models
// (and no points) makes its criterion 0 / 0: the host shows the rule as it
// would show a compile error.
func ExampleRuleError() {
	src := `ruleset house {
  side attribute points int
  side attribute models int
  phase initiative {
    order sides as initiative {
      highest points / models
    }
  }
}
`
	f, diags := dsl.Parse("house.rules", []byte(src))
	if diags.HasErrors() {
		log.Fatal(diags)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		log.Fatal(err)
	}
	b, err := p.NewBattle([]runtime.SideSpec{
		{Name: "Orcs", Attrs: map[string]any{"points": 300, "models": 20}},
		{Name: "Elves", Attrs: map[string]any{"points": 0, "models": 0}},
	})
	if err != nil {
		log.Fatal(err)
	}
	err = b.AdvanceRound(context.Background())
	var re *runtime.RuleError
	if errors.As(err, &re) {
		fmt.Print(dsl.Diagnostics{re.Diagnostic()}.Render(src))
	}
	// Output:
	// house.rules:6:15: error: `points / models` for Elves is NaN (such as 0 / 0), which cannot be compared
	//           highest points / models
	//                   ^
}

// Dice read from the table and decisions asked of the players: FuncDice
// and DeciderFunc connect the runtime to a user interface. An impossible
// result is an error, never silently accepted.
func ExampleFuncDice() {
	p := compileBundled("mesbg")
	table := map[string][]int{"Jay": {3, 6}, "Rob": {3, 2}} // what the physical dice show
	dice := runtime.FuncDice{
		Die: func(ctx context.Context, req runtime.RollRequest, who string) (int, error) {
			v := table[who][0]
			table[who] = table[who][1:]
			fmt.Printf("round %d: %s rolls d%d: %d\n", req.Round, who, req.Faces, v)
			return v, nil
		},
	}
	ask := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		fmt.Printf("%s? (options %s)\n", d, strings.Join(d.Options, ", "))
		return []string{"Rob"}, nil // Jay lets Rob go first
	})
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(ask))
	if err != nil {
		log.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("holder:", res.Holder, "chooser:", res.Chooser)

	table["Jay"], table["Rob"] = []int{7}, []int{1}
	_, err = b.PlayRound(context.Background())
	fmt.Println("error:", err)
	// Output:
	// round 1: Jay rolls d6: 3
	// round 1: Rob rolls d6: 3
	// round 1: Jay rolls d6: 6
	// round 1: Rob rolls d6: 2
	// Jay chooses who goes first among Jay, Rob? (options Jay, Rob)
	// holder: Rob chooser: Jay
	// round 2: Jay rolls d6: 7
	// error: round 2, order priority: Jay rolled 7, which is impossible on d6 (1-6)
}

// A host hook is Go code run at each hook point, after the ruleset's own
// handlers. Here a special rule (a Heroic Action, say) gives Rob priority
// at the end of the priority phase, whatever the roll-off said.
func ExampleWithHook() {
	p := compileBundled("mesbg")
	heroic := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if at.Kind == "hook" && at.Name == "end" && b.Holder() != "Rob" {
			return b.SetHolder("Rob")
		}
		return nil
	}
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 6)
	dice.AddRoll("Rob", 1)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithHook(heroic))
	if err != nil {
		log.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range res.Events {
		if e.Kind == runtime.EvDecision || e.Kind == runtime.EvHolder {
			fmt.Println(e)
		}
	}
	fmt.Println("order:", strings.Join(res.Order, ", "), "holder:", res.Holder)
	// Output:
	// Jay chooses to go first
	// Rob holds priority (set by a special rule)
	// order: Rob, Jay holder: Rob
}

// TestLanguageReferenceExamples keeps docs/language.md true: every block
// marked ```rules there is a complete file that parses, whose rulesets
// compile and play three rounds of their example with seeded dice and
// declared policies, and whose scenarios pass.
func TestLanguageReferenceExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	lines := strings.Split(string(doc), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```rules" {
			continue
		}
		start := i + 1
		j := start
		for j < len(lines) && lines[j] != "```" {
			j++
		}
		blocks++
		src := strings.Join(lines[start:j], "\n") + "\n"
		name := fmt.Sprintf("language.md:%d", start+1)
		i = j
		t.Run(name, func(t *testing.T) {
			checkDocBlock(t, name, start, src)
		})
	}
	if blocks < 5 {
		t.Errorf("docs/language.md has %d ```rules blocks; the test expects its examples there", blocks)
	}
}

func checkDocBlock(t *testing.T, name string, offset int, src string) {
	// Pad with blank lines so that positions are the document's own.
	f, diags := dsl.Parse("docs/language.md", []byte(strings.Repeat("\n", offset)+src))
	if diags.HasErrors() {
		t.Fatalf("%s: does not parse:\n%s", name, diags)
	}
	ctx := context.Background()
	for _, r := range f.Rulesets() {
		p, err := runtime.CompileRuleset(f, r)
		if err != nil {
			t.Errorf("ruleset %s does not compile:\n%v", r.Name, err)
			continue
		}
		if len(p.Example()) == 0 {
			continue
		}
		b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(7)))
		if err != nil {
			t.Errorf("ruleset %s: its example: %v", r.Name, err)
			continue
		}
		for range 3 {
			if _, err := b.PlayRound(ctx); err != nil {
				t.Errorf("ruleset %s: round %d: %v", r.Name, b.Round(), err)
				break
			}
		}
	}
	for _, res := range conformance.RunFile(ctx, f, conformance.Options{}) {
		for _, fl := range res.Failures {
			t.Errorf("scenario %q: %s", res.Title, fl)
		}
	}
}

// A player's move that the turn does not allow (another school's
// gladiator, one already activated, a pass with a gladiator ready) is
// ErrNotAllowed: the battle is unchanged, so a bot tells the player and
// waits for another move.
func ExampleBattle_Activate() {
	p := compileBundled("morturi")
	sides := []runtime.SideSpec{
		{Name: "Malleus Deus", Units: []runtime.UnitSpec{{Name: "Brutus"}}},
		{Name: "Ludi Aeternum", Units: []runtime.UnitSpec{{Name: "Decimus"}, {Name: "Flavia"}}},
	}
	b, err := p.NewBattle(sides)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	if err := b.StartRound(ctx); err != nil {
		log.Fatal(err)
	}
	// The moves as the players sent them.
	for _, move := range []string{"Flavia", "pass", "Brutus", "Brutus", "Flavia"} {
		var err error
		if move == "pass" {
			err = b.Pass(ctx)
		} else {
			err = b.Activate(ctx, move)
		}
		switch {
		case errors.Is(err, runtime.ErrNotAllowed):
			fmt.Println("refused:", err)
		case err != nil:
			log.Fatal(err) // a real failure
		default:
			fmt.Println("done:", move)
		}
	}
	// Output:
	// refused: Malleus Deus cannot activate Flavia now (ready: Brutus): Flavia is Ludi Aeternum's unit, and Malleus Deus activates one of its own ready units
	// refused: Malleus Deus may not pass while it has ready units (Brutus)
	// done: Brutus
	// refused: Ludi Aeternum cannot activate Brutus now (ready: Decimus, Flavia): Brutus is Malleus Deus' unit, and Ludi Aeternum activates one of its own ready units
	// done: Flavia
}

// List where a Go hook can plug into a ruleset's round, and the standings
// it can read, as a virtual tabletop does to offer its special rules a
// place to run.
func ExampleProgram_HookPoints() {
	p := compileBundled("necromunda")
	for _, at := range p.HookPoints() {
		fmt.Println(at)
	}
	fmt.Println("standings:", strings.Join(p.Standings(), ", "))
	// Output:
	// start of round
	// start of phase priority
	// start of step Roll For Priority
	// end of step Roll For Priority
	// start of step Ready Gang
	// end of step Ready Gang
	// end of phase priority
	// end of round
	// standings: priority
}
