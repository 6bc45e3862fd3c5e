// Command embed plays two rounds of the bundled Middle-earth SBG ruleset
// with scripted dice and scripted decisions, and prints every event.
//
// It is the shape of a game server or a bot that embeds turnorder: load a
// ruleset, compile it once, start a battle with a source of dice and a
// decider, play rounds, and read typed events back.
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

func main() {
	if err := play(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// play runs the battle and writes its events to w.
func play(w io.Writer) error {
	// Load and compile the ruleset. A Program is immutable: compile it
	// once and start any number of battles with it.
	prog, err := rulesets.Load("mesbg")
	if err != nil {
		return err
	}

	// The dice, written in advance per player: in round 1 Jay rolls 4 and
	// Rob 2; in round 2 both roll 3, a tie.
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	dice.AddRoll("Jay", 3)
	dice.AddRoll("Rob", 3)
	// The decisions: Jay wins round 1 and keeps priority. The round 2 tie
	// gives the choice to Rob, who did not choose in round 1; he takes it.
	decisions := runtime.NewScriptedDecider()
	decisions.Add("Jay", "Jay")
	decisions.Add("Rob", "Rob")

	b, err := prog.NewBattle(runtime.Sides("Jay", "Rob"),
		runtime.WithDice(dice), runtime.WithDecider(decisions))
	if err != nil {
		return err
	}
	ctx := context.Background()
	for range 2 {
		res, err := b.PlayRound(ctx)
		if err != nil {
			return err
		}
		for _, ev := range res.Events {
			switch ev.Kind {
			case runtime.EvRoundStart, runtime.EvRoundEnd:
				fmt.Fprintf(w, "%s\n", ev)
			default:
				// Each event is typed: Kind says what happened, Rule
				// and Pos which rule of the ruleset made it happen.
				fmt.Fprintf(w, "  %-9s %s\n", ev.Kind, ev)
			}
		}
		fmt.Fprintf(w, "  => holder %s, chosen by %s\n", res.Holder, res.Chooser)
	}
	if unused := append(dice.Unused(), decisions.Unused()...); len(unused) > 0 {
		return fmt.Errorf("scripted but never used: %v", unused)
	}
	return nil
}
