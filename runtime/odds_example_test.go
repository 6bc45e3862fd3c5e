package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/turnorder/turnorder/runtime"
)

// The odds of the battle at the table, not of a fresh one: in mesbg a tie
// after round 1 goes to the player who did not choose, so once Jay has
// chosen, Rob holds priority in round 2 more often than not.
func ExampleBattle_Odds() {
	ctx := context.Background()
	p := compileBundled("mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := b.PlayRound(ctx); err != nil {
		log.Fatal(err)
	}
	rep, err := b.Odds(ctx, runtime.OddsOptions{Rounds: 1})
	if err != nil {
		log.Fatal(err)
	}
	r := rep.Rounds[0]
	fmt.Printf("round %d: Jay %s, Rob %s\n", r.Round, r.Holder["Jay"].RatString(), r.Holder["Rob"].RatString())
	// Output:
	// round 2: Jay 5/12, Rob 7/12
}

// A stateless server plays the round again on each request, with what its
// players have given so far, and asks them for what the UnscriptedError
// says comes next.
func ExampleUnscriptedError() {
	ctx := context.Background()
	p := compileBundled("mesbg")
	play := func(rolls map[string]int) error {
		dice := runtime.NewScriptedDice()
		for who, total := range rolls {
			dice.AddRoll(who, total)
		}
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
		if err != nil {
			return err
		}
		res, err := b.PlayRound(ctx)
		if err == nil {
			fmt.Println("holder:", res.Holder)
		}
		return err
	}
	rolls := map[string]int{"Jay": 4}
	err := play(rolls)
	if ue, ok := errors.AsType[*runtime.UnscriptedError](err); ok && ue.Roll != nil {
		fmt.Printf("ask %v for a %dd%d\n", ue.Missing, ue.Roll.Count, ue.Roll.Faces)
		rolls["Rob"] = 2 // Rob's answer
	}
	if err := play(rolls); err != nil {
		log.Fatal(err)
	}
	// Output:
	// ask [Rob] for a 1d6
	// holder: Jay
}
