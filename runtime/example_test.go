package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// Compile a ruleset written inline and play one round of it, with the
// dice and the winner's choice written in advance.
func ExampleCompile() {
	src := `
ruleset duel "A roll-off for priority" {
  sides 2
  phase priority {
    order sides as priority {
      highest roll d6
      tie: reroll
      choice first by winner default self
    }
  }
}
`
	f, diags := dsl.Parse("duel.rules", []byte(src))
	if diags.HasErrors() {
		log.Fatal(diags)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		log.Fatal(err)
	}

	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	decisions := runtime.NewScriptedDecider()
	decisions.Add("Jay", "Rob") // Jay wins the roll-off and lets Rob go first

	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(decisions))
	if err != nil {
		log.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("holder:", res.Holder)
	fmt.Println("chooser:", res.Chooser)
	for _, e := range res.Events {
		if e.Kind == runtime.EvPlacement {
			fmt.Printf("%s at %s\n", e, e.Pos)
		}
	}
	// Output:
	// holder: Rob
	// chooser: Jay
	// priority #1: Rob, by Jay's choice (choice first by winner) at duel.rules:8:7
	// priority #2: Jay, by Jay's choice (choice first by winner) at duel.rules:8:7
}

// Save a battle between rounds, restore it, and carry on: seeded dice
// continue exactly where they were, so the restored battle plays the same
// rounds as the original.
func ExampleBattle_Snapshot() {
	f, err := rulesets.Parse("mesbg")
	if err != nil {
		log.Fatal(err)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(2024)))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		log.Fatal(err)
	}

	data, err := b.Snapshot() // JSON: store it anywhere
	if err != nil {
		log.Fatal(err)
	}
	restored, err := p.Restore(data)
	if err != nil {
		log.Fatal(err)
	}

	for range 3 {
		a, err := b.PlayRound(ctx)
		if err != nil {
			log.Fatal(err)
		}
		r, err := restored.PlayRound(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("round %d: original %s (chosen by %s), restored %s (chosen by %s)\n",
			a.Round, a.Holder, a.Chooser, r.Holder, r.Chooser)
	}
	// Output:
	// round 2: original Rob (chosen by Rob), restored Rob (chosen by Rob)
	// round 3: original Jay (chosen by Jay), restored Jay (chosen by Jay)
	// round 4: original Rob (chosen by Rob), restored Rob (chosen by Rob)
}

// Script the dice of the Middle-earth SBG roll-off: a tie in the first
// turn is rerolled. Decisions the script does not answer follow the
// ruleset's declared defaults (the winner takes priority).
func ExampleScriptedDice() {
	f, err := rulesets.Parse("mesbg")
	if err != nil {
		log.Fatal(err)
	}
	p, err := runtime.Compile(f)
	if err != nil {
		log.Fatal(err)
	}
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 3)
	dice.AddRoll("Rob", 3)
	dice.AddRoll("Jay", 5) // the reroll
	dice.AddRoll("Rob", 2)

	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(runtime.Policy{}))
	if err != nil {
		log.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range res.Events {
		fmt.Println(e)
	}
	fmt.Println("unused:", dice.Unused())
	// Output:
	// round 1 begins
	// hook start
	// Jay rolls 3 for priority
	// Rob rolls 3 for priority
	// tie between Jay and Rob on highest roll d6
	// Jay and Rob roll again (highest roll d6)
	// Jay rolls 5 for priority
	// Rob rolls 2 for priority
	// Jay chooses to go first
	// priority #1: Jay, by Jay's choice (choice first by winner)
	// priority #2: Rob, by Jay's choice (choice first by winner)
	// hook end
	// round 1 ends
	// unused: []
}

// A bot looks ahead on clones of the battle: each clone plays on with dice
// of its own and none of the original's Go hooks (here, the one that tells
// the table what happened), and the battle itself is untouched. (The
// exact answer is 15 in 36: Jay chose in round 1, so a tie goes to Rob.)
func ExampleBattle_Clone() {
	ctx := context.Background()
	p := compileBundled("mesbg")
	announce := func(ctx context.Context, b *runtime.Battle, at runtime.HookPoint) error {
		if at.Kind == "round" && at.Edge == "end" {
			fmt.Printf("table: round %d, %s holds priority\n", b.Round(), b.Holder())
		}
		return nil
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(1)),
		runtime.WithHook(announce), runtime.WithTranscript(false))
	if err != nil {
		log.Fatal(err)
	}
	if err := b.AdvanceRound(ctx); err != nil {
		log.Fatal(err)
	}
	jay := 0
	for seed := range uint64(1000) {
		c := b.Clone(runtime.WithDice(runtime.NewSeededDice(seed)), runtime.WithoutHooks())
		if err := c.AdvanceRound(ctx); err != nil {
			log.Fatal(err)
		}
		if c.Holder() == "Jay" {
			jay++
		}
	}
	fmt.Printf("lookahead: Jay holds priority in round 2 in %d of 1000 games\n", jay)
	fmt.Println("the battle is at round", b.Round())
	// Output:
	// table: round 1, Jay holds priority
	// lookahead: Jay holds priority in round 2 in 414 of 1000 games
	// the battle is at round 1
}

// A host that keeps nothing between its players' inputs: the battle waits
// for each roll and decision (AskHost), is saved while it waits, and is
// restored to take the answer, in the middle of the roll-off as anywhere.
func ExampleBattle_Answer() {
	p, err := rulesets.Load("mesbg")
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	host := []runtime.BattleOption{runtime.WithDice(runtime.AskHost{}), runtime.WithDecider(runtime.AskHost{})}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), host...)
	if err != nil {
		log.Fatal(err)
	}
	if err := b.StartRound(ctx); !errors.Is(err, runtime.ErrPending) {
		log.Fatal(err)
	}
	// What the players type, one input at a time: a tie, the reroll, and
	// the winner's choice; a 7 is refused.
	typed := []runtime.Answer{runtime.RollAnswer(3, 3), runtime.RollAnswer(7, 2), runtime.RollAnswer(6, 2), runtime.ChoiceAnswer("Rob")}
	for _, a := range typed {
		saved, err := b.Snapshot() // store it anywhere, and forget the battle
		if err != nil {
			log.Fatal(err)
		}
		if b, err = p.Restore(saved, host...); err != nil {
			log.Fatal(err)
		}
		fmt.Println("waiting:", b.Pending())
		if err := b.Answer(ctx, a); err != nil {
			fmt.Println("refused:", err)
		}
	}
	fmt.Println("holder:", b.Holder(), "pending:", b.Pending())
	// Output:
	// waiting: roll d6 for Jay, Rob (order priority)
	// waiting: reroll d6 for Jay, Rob (order priority)
	// refused: round 1, order priority: the dice rolled 7 for Jay, which is impossible on d6 (1-6)
	// waiting: reroll d6 for Jay, Rob (order priority)
	// waiting: Jay chooses who goes first among Jay, Rob
	// holder: Rob pending: <nil>
}
