package main

// The run command: a battle played with seeded dice, printed as a
// transcript or a JSON document; and how a command loads its ruleset.

import (
	"context"
	"errors"
	"fmt"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// maxRounds bounds --rounds, so that a typo cannot run for hours.
const maxRounds = 10000

func runCommand() *command {
	c := &command{
		name:  "run",
		args:  "RULESET [--sides A,B,...] [--setup FILE] [--seed N] [--rounds N] [--json] [--policy KIND=POLICY]...",
		short: "play rounds of a ruleset with seeded dice and print the transcript",
		flags: newFlags("run"),
	}
	fs := c.flags
	sides, setup := sideFlags(fs)
	seed := uint64(1)
	rounds := 3
	fs.Var(&uintFlag{&seed}, "seed", "seed the dice with `N` (the same seed gives the same battle)")
	fs.Var(&intFlag{&rounds}, "rounds", fmt.Sprintf("play `N` rounds, from 1 to %d", maxRounds))
	asJSON := fs.Bool("json", false, "print one JSON document (see docs/json.md) instead of the transcript")
	var policies listFlag
	fs.Var(&policies, "policy", "answer one kind of decision by `KIND=POLICY` (first=other) instead of the ruleset's policy; repeat it for several kinds")
	c.run = func(e *env, args []string) int {
		if !rulesetArgs(e, args, 1) {
			return exitUsage
		}
		doc := &runDoc{Seed: seed, Rounds: []*runtime.RoundResult{}}
		status := func() int {
			if rounds < 1 || rounds > maxRounds {
				e.errorf("--rounds must be between 1 and %d (got %d)", maxRounds, rounds)
				return exitError
			}
			dec, msg := parsePolicies(policies)
			if msg != "" {
				e.errorf("%s", msg)
				return exitError
			}
			o := runOptions{ruleset: args[0], sides: *sides, setup: *setup, seed: seed, rounds: rounds, json: *asJSON, decider: dec}
			return runBattle(e, o, doc)
		}()
		if !*asJSON {
			return status
		}
		// However the battle went, a program reading the document gets
		// one, with the rounds played and the errors that stopped it.
		doc.ErrorsDoc = errorsJSON(e.errs)
		return e.finishJSON(doc, status)
	}
	return c
}

type runOptions struct {
	ruleset, sides, setup string
	seed                  uint64
	rounds                int
	json                  bool
	decider               runtime.Decider // the ruleset's policies, perhaps overridden
}

// source is a .rules file's name and text, kept to render diagnostics.
type source struct {
	filename string
	src      []byte
}

// runBattle plays the battle, printing the transcript or, with --json,
// filling in doc for the caller to print.
func runBattle(e *env, o runOptions, doc *runDoc) int {
	s, ok := loadSetup(e, o.ruleset, o)
	if !ok {
		return exitError
	}
	prog := s.prog
	doc.Ruleset = prog.Name()
	warnUnusedPolicies(e, prog, o.decider)
	b, ok := s.battle(e, runtime.WithDice(runtime.NewSeededDice(o.seed)), runtime.WithDecider(o.decider))
	if !ok {
		return exitError
	}

	ctx := context.Background()
	if !o.json {
		printHeader(e.stdout, prog, b)
		fmt.Fprintf(e.stdout, "seed: %d\n", o.seed)
	}
	for range o.rounds {
		res, err := b.PlayRound(ctx)
		if err != nil {
			// The transcript, and the document's failed_round, show
			// what the failing round did up to the error, so the
			// players (or a program) see what led to it.
			round, events := b.Round(), b.Events()
			if re, ok := errors.AsType[*runtime.RuleError](err); ok && re.Round != 0 {
				// The battle is back where the round started.
				round, events = re.Round, re.Events
			}
			if o.json {
				doc.FailedRound = &failedRoundDoc{Round: round, Events: append([]runtime.Event{}, events...)}
			} else {
				printFailedRound(e.stdout, round, events)
			}
			s.report(e, runtime.InRound(round, err))
			return exitError
		}
		if o.json {
			doc.Rounds = append(doc.Rounds, res)
		} else {
			printRound(e.stdout, res, keptStandings(b, res.Round))
		}
	}
	return exitOK
}

// loadProgram compiles the first ruleset of a file, or a bundled ruleset,
// and prints its warnings. On failure it returns a nil program and either a one-line message or ""
// when it has already printed the diagnostics.
func loadProgram(e *env, arg string) (*runtime.Program, source, string) {
	src, err := rulesets.Read(arg)
	if err != nil {
		return nil, source{}, err.Error()
	}
	rs := source{src.Filename, src.Text}
	p, diags, err := rulesets.Compile(src)
	if err != nil {
		if _, ok := asDiags(err); ok {
			e.report(diags, rs.src)
			return nil, rs, ""
		}
		return nil, rs, err.Error()
	}
	// Warnings (a tie chain that can end still tied, say) matter as much
	// when the ruleset is played as when it is checked; stdout is left to
	// the transcript or the JSON.
	writeDiags(e.stderr, diags, rs.src, e.prefix())
	return p, rs, ""
}
