package main

// The play command: a battle played at the table, round by round, and
// what play shows of it. Its questions, the dice, the decisions, the
// changes and the saves are in the other play_*.go files.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/internal/colour"
	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
)

func playCommand() *command {
	c := &command{
		name:  "play",
		args:  "RULESET [--sides A,B,...] [--setup FILE] [--save FILE] [--resume FILE] [--rounds N]",
		short: "a table companion: enter physical dice and decisions, see each round's order",
		flags: newFlags("play"),
	}
	fs := c.flags
	sides, setup := sideFlags(fs)
	save := nonEmpty(fs, "save", "save the battle to `FILE` after every round, at each round's first activation, after every activation and every change", "name a file")
	resume := nonEmpty(fs, "resume", "continue the battle saved in `FILE`", "name a saved battle's file")
	rounds := 0
	fs.Var(&intFlag{&rounds}, "rounds", fmt.Sprintf("play `N` rounds without asking, from 0 to %d (0: ask after each round); with --resume, N more rounds", maxRounds))
	c.run = func(e *env, args []string) int {
		if !rulesetArgs(e, args, 1) {
			return exitUsage
		}
		if rounds < 0 || rounds > maxRounds {
			fmt.Fprintf(e.stderr, "turnorder play: --rounds must be between 0 and %d (got %d)\n", maxRounds, rounds)
			return exitError
		}
		if *resume != "" && (*sides != "" || *setup != "") {
			fmt.Fprintln(e.stderr, "turnorder play: --resume continues a saved battle with its own sides; leave out --sides and --setup")
			return exitUsage
		}
		o := playOptions{ruleset: args[0], sides: *sides, setup: *setup, save: *save, resume: *resume, rounds: rounds}
		return playBattle(e, o)
	}
	return c
}

type playOptions struct {
	ruleset, sides, setup string
	save, resume          string
	rounds                int // 0: ask after each round
}

// table is the dialogue with the players: it asks the questions, checks the
// answers, and shows what the battle does as it happens.
type table struct {
	out  io.Writer
	in   *bufio.Reader
	echo bool // the input is not a terminal: echo each answer after its prompt
	eof  bool
	// style emphasises the prompts, on a terminal.
	style colour.Style

	b          *runtime.Battle
	shownRound int // the round whose events have been shown up to shown
	shown      int
	asked      int // dice, picks and decisions asked for so far

	// The battle is played with dice and a decider that leave every input
	// to play (runtime.AskHost), and with undo: each call play makes
	// (StartRound, Draw, Step, EndRound, a change) stops where it needs
	// an input, which play asks the players for and answers (see next).
	// ops is play's own record of the calls the battle keeps for Undo, the
	// last one's input pending if any: what each was, for play to say what
	// it did once it is done, and what undo took back.
	ops []opRec
	// rolled holds the dice typed so far for the roll pending: the battle
	// asks one roll of every subject at once, and play asks the players
	// one die at a time.
	rolled []int
	rounds int // --rounds: 0 asks "another round?" after each round
	target int // with --rounds, the round after which play stops
	headed int // the last round whose heading ("Round 2") is shown
	// hush is set while the calls undo took back, that needed no answer,
	// are made again as they were: what they say was said.
	hush bool

	// What this session has saved, so that play can say truthfully which
	// file holds the battle when it stops.
	saveTo         string // --save: written after every round, every activation and every change at the prompt
	resumed        string // --resume: the file the battle came from
	resumedAt      string // how it was resumed: "after round 1", "in round 2, at A's activation"
	written        string // the file written last in this session ("": none)
	writtenAt      string // where the battle was when it was written, as position says
	writtenChanges bool   // it holds changes made at the prompt after the round it was written after
	changed        bool   // changes were made at the prompt since the last round ended
	lost           bool   // changes were made at the prompt since the last write
	writtenData    []byte // the snapshot written last, to tell whether it is the battle as it stands
	resumedData    []byte // the battle as it was resumed, to tell whether the --resume file still holds it

	decl declarations // for set and is at the prompt
	with playedWith   // the ruleset's file, for every save to name
	// told counts the battle's pending events (those of changes made
	// between rounds, which open the next round's transcript) that the
	// prompt has shown already, so that the next round does not repeat them.
	told int
}

func newTable(e *env) *table {
	return &table{out: e.stdout, in: bufio.NewReader(e.stdin), echo: !isTerminal(e.stdin), style: e.style}
}

// flush shows the events of the round that have not been shown yet, or,
// between rounds, those of the change under way: what its recomputation
// did before the question it asks (a tie), as a round shows them.
func (t *table) flush() {
	if t.b == nil {
		return
	}
	if !t.b.InRound() {
		evs := t.b.PendingEvents()
		t.told = min(t.told, len(evs))
		t.show(evs[t.told:])
		t.told = len(evs)
		return
	}
	evs := t.b.Events()
	if t.b.Round() != t.shownRound {
		// The new round opens with the events of the changes made at the
		// prompt before it, which the prompt has shown.
		t.shownRound, t.shown, t.told = t.b.Round(), t.told, 0
	}
	t.shown = min(t.shown, len(evs))
	t.show(evs[t.shown:])
	t.shown = len(evs)
}

// show prints events as the transcript of play: the players' own rolls and
// decisions are not repeated, but for the answers to a secret decision,
// which are revealed here.
func (t *table) show(evs []runtime.Event) {
	printEvents(t.out, evs, func(i int) bool {
		switch evs[i].Kind {
		case runtime.EvDecision:
			return !t.secretDecision(evs[i])
		case runtime.EvRoundStart, runtime.EvRoundEnd, runtime.EvRoll, runtime.EvDraw, runtime.EvRandom:
			return true
		}
		return false
	})
}

// markShown treats every event so far as shown (after a resume): those of
// the last round, and those of the changes made after it, which the session
// that saved the battle showed.
func (t *table) markShown() {
	t.shownRound, t.shown, t.told = t.b.Round(), len(t.b.Events()), len(t.b.PendingEvents())
}

// showResult prints what a round settled.
func (t *table) showResult(res *runtime.RoundResult) {
	fmt.Fprintf(t.out, "  → %s\n", standing(res))
	if len(res.Activations) > 0 {
		fmt.Fprintf(t.out, "  → activations: %s\n", activations(res.Activations))
	}
}

// standing says a round's order, holder and chooser: none for a ruleset
// that orders no sides.
func standing(res *runtime.RoundResult) string {
	none := func(s string) string {
		if s == "" {
			return "none"
		}
		return s
	}
	return fmt.Sprintf("order: %s   holder: %s   chooser: %s", none(strings.Join(res.Order, ", ")), none(res.Holder), none(res.Chooser))
}

// activations says a round's turns: "Jay: j1; Rob passes".
func activations(recs []runtime.ActivationRecord) string {
	acts := make([]string, len(recs))
	for i, a := range recs {
		if a.Pass {
			acts[i] = a.Side + " passes"
		} else {
			acts[i] = a.Side + ": " + a.Unit
		}
		// Each phase's loop is named where it begins.
		if a.Phase != "" && (i == 0 || recs[i-1].Phase != a.Phase || recs[i-1].Step != a.Step) {
			where := a.Phase
			if a.Step != "" {
				where += "/" + a.Step
			}
			acts[i] = "(" + where + ") " + acts[i]
		}
	}
	return strings.Join(acts, "; ")
}

// showStanding shows where a battle resumed between rounds stands: its last
// round as that round's end showed it, and the order the next round starts
// from, where a change made after that round has changed it.
func (t *table) showStanding() {
	res := t.b.Result()
	if res == nil {
		return
	}
	t.showResult(res)
	if now := t.b.Order(); len(now) > 0 && !slices.Equal(now, res.Order) {
		t.say("the order is now %s, after the changes made since", strings.Join(now, ", "))
	}
}

func playBattle(e *env, o playOptions) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, e.prefix()+format+"\n", args...)
		return exitError
	}
	var s setup
	var msg string
	s.prog, s.rs, msg = loadProgram(e, o.ruleset)
	if s.prog == nil {
		if msg != "" {
			return fail("%s", msg)
		}
		return exitError
	}
	prog := s.prog
	if o.save != "" {
		if err := canWrite(o.save); err != nil {
			return fail("--save: %v", err)
		}
	}

	t := newTable(e)
	// Every die, random pick and decision is the players': the battle
	// stops at each, and play asks for it (see next).
	opts := []runtime.BattleOption{runtime.WithDice(runtime.AskHost{}), runtime.WithDecider(runtime.AskHost{}), runtime.WithUndo()}
	var b *runtime.Battle
	var err error
	var saved savedPlay
	if o.resume != "" {
		data, rerr := os.ReadFile(o.resume)
		if rerr != nil {
			return fail("--resume: %s", pathError(rerr))
		}
		if why := notSnapshot(data); why != "" {
			return fail("%s is not a saved battle (%s)", o.resume, why)
		}
		refuse, warn := checkPlayedWith(data, o.resume, prog.Name(), rulesetPlayed(o.ruleset, s.rs))
		if refuse != "" {
			return fail("%s", refuse)
		}
		restoreOpts := opts
		if warn != "" {
			fmt.Fprintf(e.stderr, "%swarning: %s\n", e.prefix(), warn)
			// The file it was saved with, mended since: its rules are
			// the ones to play on with.
			restoreOpts = append(slices.Clip(opts), runtime.AcceptChangedRules())
		}
		b, err = prog.Restore(data, restoreOpts...)
		if errors.Is(err, runtime.ErrChangedRules) {
			return fail("%s", changedRules(o.resume, prog.Name(), rulesetPlayed(o.ruleset, s.rs)))
		}
		if err != nil {
			return fail("cannot resume %s: %v", o.resume, err)
		}
		if saved, err = readSavedPlay(data, b); err != nil {
			return fail("cannot resume %s: %v", o.resume, err)
		}
	} else {
		var ok bool
		s.specs, s.from, msg = battleSides(e, prog, s.rs, runOptions{sides: o.sides, setup: o.setup})
		if s.specs == nil {
			if msg != "" {
				return fail("%s", msg)
			}
			return exitError
		}
		if b, ok = s.battle(e, opts...); !ok {
			return exitError
		}
	}
	t.b = b
	t.markShown()
	t.decl = declared(prog)
	t.with = rulesetPlayed(o.ruleset, s.rs)
	t.saveTo = o.save
	t.rounds = o.rounds
	t.headed = t.b.Round() // a round resumed in its middle is headed already
	if saved.op != nil {
		// Restored waiting for an input: the call it waits in is the one
		// its Undo takes back first.
		t.ops = []opRec{*saved.op}
		t.rolled = saved.Rolled
	}
	// With --rounds N, N rounds more: the one resumed in its middle is the
	// first of them.
	t.target = t.b.Round() + o.rounds
	if t.b.InRound() {
		t.target--
	}
	if o.resume != "" {
		t.resumed, t.resumedAt = o.resume, t.position()
		t.resumedData, _ = t.snapshot() // nil if it cannot be: quit then asks for a save
	}
	t.header(prog, o)

	ctx := context.Background()
	for {
		if !t.b.InRound() && t.b.Pending() == nil {
			if o.rounds > 0 && t.b.Round() >= t.target {
				t.endRounds()
				return exitOK
			}
			// After a round, and in a battle resumed between rounds (the
			// header shows where it stands), play asks "another round?":
			// the players may have resumed to look, to save elsewhere, or
			// to make a change first.
			if o.rounds == 0 && t.b.Round() > 0 {
				more, err := t.between(ctx)
				var cut *cutError
				if stop, ok := errors.AsType[*stopError](err); ok {
					fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.stopped(stop, o.save, 0, 0))
					return exitOK
				}
				switch {
				case errors.Is(err, errAgain):
					continue // undone, or a change waits for an input
				case errors.As(err, &cut):
					return fail("input ended during %s, before it was done: the change is not saved (%s)", cut.change, t.whereSaved())
				case errors.Is(err, errInputEnded) || t.eof:
					if msg := t.keepChanges(); msg != "" {
						return fail("%s", msg)
					}
					// The end of the input where play asks for another
					// round is a normal end: said where play says the input
					// ended in a round, but with exit status 0.
					fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.endedBetween(o.save))
					return exitOK
				case err != nil:
					return fail("%v", err)
				case !more:
					if msg := t.keepChanges(); msg != "" {
						return fail("%s", msg)
					}
					if file, _ := t.holder(); file != "" {
						return exitOK
					}
					// Rounds or changes no file holds: n does not lose them
					// unasked.
					stop, err := t.offerSave()
					switch {
					case stop != nil:
						fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.stopped(stop, o.save, 0, 0))
					case err != nil:
						fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.endedBetween(o.save))
					}
					return exitOK
				}
			}
		}
		err := t.next(ctx)
		if stop, ok := errors.AsType[*stopError](err); ok {
			left := 0 // with --rounds, the rounds left to play, the one under way included
			if o.rounds > 0 {
				left = t.target - t.b.Round()
				if t.b.InRound() {
					left++
				}
			}
			fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.stopped(stop, o.save, o.rounds, left))
			return exitOK
		}
		if err == nil {
			continue
		}
		if cut, ok := errors.AsType[*cutError](err); ok {
			if !t.b.InRound() {
				return fail("input ended during %s, before it was done: the change is not saved (%s)", cut.change, t.whereSaved())
			}
			return fail("input ended during %s, in round %d, before it was done: the change is not saved (%s)", cut.change, t.b.Round(), t.whereSaved())
		}
		if errors.Is(err, errInputEnded) || t.eof {
			return fail("input ended in round %d, before the round was over (%s)", t.b.Round(), t.whereSaved())
		}
		if se, ok := errors.AsType[*saveError](err); ok {
			return fail("--save: %v", se.err)
		}
		s.report(e, err)
		return exitError
	}
}

// header opens the session. A resumed battle says where it stands: between
// rounds, how the last round ended; in mid-round, where in the round it is,
// which units still have a Ready marker, as the table should have them,
// and the round's order and activations so far (not in the middle of the
// round's opening); and the change under way, and the dice typed so far of
// the roll it waits for.
func (t *table) header(p *runtime.Program, o playOptions) {
	b := t.b
	printHeader(t.out, p, b)
	if o.resume != "" {
		fmt.Fprintf(t.out, "resumed from %s %s\n", o.resume, t.resumedAt)
	}
	switch {
	case o.resume != "" && b.InRound() && t.opening():
	case o.resume != "" && b.InRound():
		var ready []string
		for _, u := range b.Units() {
			if u.Ready {
				ready = append(ready, u.Name)
			}
		}
		fmt.Fprintf(t.out, "  Ready: %s\n", wording.OrNone(ready))
		// The round so far, as its end will show it.
		if res := b.Result(); res != nil {
			fmt.Fprintf(t.out, "  %s\n", standing(res))
			if len(res.Activations) > 0 {
				fmt.Fprintf(t.out, "  activations so far: %s\n", activations(res.Activations))
			}
		}
	case o.resume != "":
		t.showStanding()
	}
	if c := t.inChange(); o.resume != "" && c != nil {
		fmt.Fprintf(t.out, "  the change under way: %s\n", c.Typed)
	}
	if p := b.Pending(); o.resume != "" && p != nil && p.Roll != nil && len(t.rolled) > 0 {
		typed := make([]string, len(t.rolled))
		for i, v := range t.rolled {
			typed[i] = fmt.Sprintf("%s %s", p.Roll.Subjects[i], rolledText(*p.Roll, v))
		}
		fmt.Fprintf(t.out, "  rolled so far: %s\n", strings.Join(typed, ", "))
	}
	fmt.Fprintln(t.out, "Enter each die as it is rolled, and each decision by number or name.")
}
