// Command hostfunc orders sides by a value only the host program knows: a
// ruleset's expression calls a Go function registered with
// runtime.WithFunction.
//
// Here the host is an army builder. It knows each force's points ("threat"),
// and the house rule is that the force with the lowest threat acts first,
// ties rolling off. The ruleset calls threat(name); Go answers.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

const skirmish = `
ruleset skirmish "Lowest threat goes first" {
  sides 2..
  phase initiative {
    order sides as initiative {
      quote "The force with the lowest threat acts first."
      lowest threat(name)
      quote "Forces of equal threat roll off."
      highest roll d6
      tie: reroll
    }
  }
}
`

func main() {
	if err := play(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func play(w io.Writer) error {
	// The host's own state: each force's points, which change as models
	// are lost.
	points := map[string]int{"Orcs": 300, "Elves": 250, "Dwarves": 250}

	threat := func(params ...any) (any, error) {
		name := params[0].(string) // the signature below guarantees a string
		p, ok := points[name]
		if !ok {
			return nil, fmt.Errorf("no army list for %s", name)
		}
		return p, nil
	}

	// The signature, new(func(string) int), lets the compiler check every
	// call: threat(1) or threat(name) > "x" is an error at compile time.
	src := rulesets.Source{Filename: "skirmish.rules", Text: []byte(skirmish)}
	prog, _, err := rulesets.Compile(src, runtime.WithFunction("threat", threat, new(func(string) int)))
	if err != nil {
		return err
	}

	dice := runtime.NewScriptedDice()
	dice.AddRoll("Elves", 3) // round 1: Elves and Dwarves tie on threat
	dice.AddRoll("Dwarves", 5)
	dice.AddRoll("Elves", 6) // round 2: they tie again
	dice.AddRoll("Dwarves", 1)
	b, err := prog.NewBattle(runtime.Sides("Orcs", "Elves", "Dwarves"), runtime.WithDice(dice))
	if err != nil {
		return err
	}

	ctx := context.Background()
	for round := 1; round <= 2; round++ {
		if round == 2 {
			points["Orcs"] = 200 // the Orcs lost models: their threat drops
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "round %d: %v\n", res.Round, res.Order)
		for _, ev := range res.Events {
			if ev.Kind == runtime.EvPlacement {
				// Key is the value the criterion placed the subject by:
				// the threat, or the roll that broke the tie (nil for a
				// choice, an award or random).
				by := ev.Rule
				if ev.Key != nil {
					by = fmt.Sprintf("%s = %v", by, *ev.Key)
				}
				fmt.Fprintf(w, "  %d. %-7s by %s (%s)\n", ev.Place, ev.Subject, by, ev.Pos)
			}
		}
	}
	return nil
}
