package main

import (
	"context"
	"fmt"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func main() {
	// A bundled name, a .rules path, or rulesets.Compile for a text of your own.
	prog, err := rulesets.Load("mesbg") // immutable: compile once, play many battles
	check(err)

	dice := runtime.NewScriptedDice() // or runtime.NewSeededDice(seed), runtime.FuncDice{...}
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	battle, err := prog.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	check(err)

	result, err := battle.PlayRound(context.Background())
	check(err)
	for _, event := range result.Events {
		fmt.Println(event) // typed events: Kind, Subject, Rule, Pos, ...
	}
	fmt.Println("holder:", result.Holder, "- chosen by", result.Chooser)
}

func check(err error) {
	if err != nil {
		panic(err)
	}
}
