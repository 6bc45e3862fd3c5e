package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// The resumable engine: a battle whose dice and decider leave every input
// to the host (runtime.AskHost) stops at each one, and a battle saved
// there, restored in a fresh Battle and answered plays on exactly as the
// battle that was never saved does. The inputs are random valid answers
// from a seeded source, so the same seed gives the same answers however
// the battle is played.

// resumeRounds is how many rounds each battle plays.
const resumeRounds = 4

// resumeSeeds is how many seeds each ruleset is played with: a few by
// default, many more in the long run.
func resumeSeeds() uint64 { return longtest.Seeds(10, 200) }

// resumeCase is a ruleset the resume tests play: a bundled one, or a
// .rules file of examples/.
type resumeCase struct {
	name string
	prog *runtime.Program
}

// resumeCases loads every bundled ruleset and every ruleset of the
// examples that compiles on its own: a file of sides alone (a setup) has
// no ruleset, and one that needs a host's Go functions does not compile
// without them. A new ruleset in either place is played at once.
func resumeCases(t *testing.T) []resumeCase {
	t.Helper()
	var cases []resumeCase
	for _, name := range rulesets.Names() {
		p, err := rulesets.Load(name)
		if err != nil {
			t.Fatalf("bundled ruleset %s: %v", name, err)
		}
		cases = append(cases, resumeCase{name, p})
	}
	files, err := filepath.Glob(filepath.Join("..", "examples", "*", "*.rules"))
	if err != nil {
		t.Fatal(err)
	}
	examples := 0
	for _, file := range files {
		p, err := rulesets.Load(file)
		if err != nil {
			t.Logf("%s is not played: %v", file, firstLine(err.Error()))
			continue
		}
		rel, _ := filepath.Rel(filepath.Join("..", "examples"), file)
		cases = append(cases, resumeCase{"examples/" + strings.TrimSuffix(filepath.ToSlash(rel), ".rules"), p})
		examples++
	}
	if len(rulesets.Names()) < 4 || examples < 6 {
		t.Fatalf("%d bundled rulesets and %d of examples/ are played; want at least 4 and 6", len(rulesets.Names()), examples)
	}
	return cases
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// randomAnswer gives a random answer that req accepts: a total within
// the dice for each subject that rolls (a third of the time the same for
// all, so that ties and their rules come up), an index among the options
// of a pick, and an option of a decision, every option once for an
// arrangement. Every answer draws from rng as req says, so equal requests
// in the same order get equal answers.
func randomAnswer(rng *rand.Rand, req *runtime.Request) runtime.Answer {
	switch req.Kind {
	case runtime.RollInput:
		r := req.Roll
		lo, hi := r.Count, r.Count*r.Faces
		tie := rng.IntN(3) == 0
		totals := make([]int, len(r.Subjects))
		for i := range totals {
			if tie && i > 0 {
				totals[i] = totals[0]
				continue
			}
			totals[i] = lo + rng.IntN(hi-lo+1)
		}
		return runtime.RollAnswer(totals...)
	case runtime.PickInput:
		return runtime.PickAnswer(rng.IntN(len(req.Pick.Options)))
	case runtime.DecisionInput:
		d := req.Decision
		var a runtime.Answer
		if d.Kind == runtime.ChooseOrder {
			order := slices.Clone(d.Options)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			a = runtime.ChoiceAnswer(order...)
		} else {
			a = runtime.ChoiceAnswer(d.Options[rng.IntN(len(d.Options))])
		}
		if rng.IntN(2) == 0 {
			a.By = d.By // said who answers half the time
		}
		return a
	}
	panic(fmt.Sprintf("a request of no kind: %+v", req))
}

// callbackHost is the same random player as dice and decider that are
// asked in a call (the engine's callbacks): the battle it plays in never
// stops, so it is the reference the stopping battles are held to.
type callbackHost struct {
	rng      *rand.Rand
	requests []string
}

func (h *callbackHost) answer(req *runtime.Request) runtime.Answer {
	h.requests = append(h.requests, requestJSON(req))
	return randomAnswer(h.rng, req)
}

func (h *callbackHost) Roll(_ context.Context, r runtime.RollRequest) ([]int, error) {
	return h.answer(&runtime.Request{Kind: runtime.RollInput, Roll: &r}).Rolls, nil
}

func (h *callbackHost) Pick(_ context.Context, r runtime.PickRequest) (int, error) {
	return *h.answer(&runtime.Request{Kind: runtime.PickInput, Pick: &r}).Pick, nil
}

func (h *callbackHost) Decide(_ context.Context, d runtime.Decision) ([]string, error) {
	return h.answer(&runtime.Request{Kind: runtime.DecisionInput, Decision: &d}).Choice, nil
}

func requestJSON(req *runtime.Request) string {
	data, err := json.Marshal(req)
	if err != nil {
		return "unmarshalable request: " + err.Error()
	}
	return string(data)
}

// hookCounter counts the calls of a Go hook at each point of each round.
type hookCounter map[string]int

func (h hookCounter) hook(_ context.Context, b *runtime.Battle, at runtime.HookPoint) error {
	h[fmt.Sprintf("round %d: %s", b.Round(), at)]++
	return nil
}

// play is what a battle played: each round's result with its
// transcript, the inputs asked for, the Go hook's calls, and the battle's
// save at the end.
type play struct {
	Results  []*runtime.RoundResult
	Requests []string
	Hooks    hookCounter
	Final    string
}

// player plays a battle's rounds, answering every input the battle
// stops at with randomAnswer.
type player struct {
	p    *runtime.Program
	b    *runtime.Battle
	opts func() []runtime.BattleOption // a restored battle's, with the same hook
	rng  *rand.Rand
	// restore saves the battle before every answer, as JSON read and
	// written again, and answers in a battle restored from the save.
	restore bool
	// saves, if not nil, collects the battle's save before every call
	// and every answer.
	saves *[]string
	// advance plays each round with AdvanceRound, not StartRound, Step
	// until done and EndRound.
	advance bool

	requests []string
	results  []*runtime.RoundResult
	where    []string // what was played, for a failure to say where
}

// errStop is the failure of a player, saying where it was.
type errStop struct {
	where []string
	err   error
}

func (e *errStop) Error() string {
	where := e.where
	if len(where) > 12 {
		where = append([]string{"..."}, where[len(where)-12:]...)
	}
	return fmt.Sprintf("%v\nafter:\n  %s", e.err, strings.Join(where, "\n  "))
}

func (e *errStop) Unwrap() error { return e.err }

func (pl *player) fail(err error) error {
	return &errStop{slices.Clone(pl.where), err}
}

func (pl *player) save() string {
	data, err := pl.b.Snapshot()
	if err != nil {
		return "snapshot failed: " + err.Error()
	}
	return string(data)
}

// call makes one call that plays (an op), and answers every input it
// stops at until it is done.
func (pl *player) call(ctx context.Context, what string, f func(b *runtime.Battle) error) error {
	if pl.saves != nil {
		*pl.saves = append(*pl.saves, pl.save())
	}
	pl.where = append(pl.where, what)
	err := f(pl.b)
	if err != nil && !errors.Is(err, runtime.ErrPending) {
		return pl.fail(fmt.Errorf("%s: %w", what, err))
	}
	if err != nil && pl.b.Pending() == nil {
		return pl.fail(fmt.Errorf("%s returned %v, but Pending is nil", what, err))
	}
	if err == nil && pl.b.Pending() != nil {
		return pl.fail(fmt.Errorf("%s returned nil, but Pending is %s", what, pl.b.Pending()))
	}
	for pl.b.Pending() != nil {
		if err := pl.answer(ctx); err != nil {
			return err
		}
	}
	return nil
}

// answer answers the input pending, in a battle restored from a save
// of this one if pl.restore.
func (pl *player) answer(ctx context.Context) error {
	req := pl.b.Pending()
	pl.requests = append(pl.requests, requestJSON(req))
	a := randomAnswer(pl.rng, req)
	if pl.restore {
		data, err := pl.b.Snapshot()
		if err != nil {
			return pl.fail(fmt.Errorf("snapshot waiting for %s: %w", req, err))
		}
		data, err = rewriteJSON(data)
		if err != nil {
			return pl.fail(fmt.Errorf("the save waiting for %s is no JSON: %w", req, err))
		}
		b, err := pl.p.Restore(data, pl.opts()...)
		if err != nil {
			return pl.fail(fmt.Errorf("restore waiting for %s: %w", req, err))
		}
		if diff := cmp.Diff(req, b.Pending()); diff != "" {
			return pl.fail(fmt.Errorf("the battle restored waiting for %s waits for (-saved +restored):\n%s", req, diff))
		}
		pl.b = b
	}
	if pl.saves != nil {
		*pl.saves = append(*pl.saves, pl.save())
	}
	aj, _ := json.Marshal(a)
	pl.where = append(pl.where, fmt.Sprintf("answer %s with %s", req, aj))
	if err := pl.b.Answer(ctx, a); err != nil {
		return pl.fail(fmt.Errorf("answer %s with %s: %w", req, aj, err))
	}
	return nil
}

// rewriteJSON reads a save as any JSON and writes it again, keys sorted
// and numbers as written.
func rewriteJSON(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// playRounds plays n rounds.
func (pl *player) playRounds(ctx context.Context, n int) error {
	for range n {
		round := pl.b.Round() + 1
		if pl.advance {
			if err := pl.call(ctx, fmt.Sprintf("AdvanceRound (round %d)", round), func(b *runtime.Battle) error { return b.AdvanceRound(ctx) }); err != nil {
				return err
			}
			pl.results = append(pl.results, pl.b.Result())
			continue
		}
		if err := pl.call(ctx, fmt.Sprintf("StartRound (round %d)", round), func(b *runtime.Battle) error { return b.StartRound(ctx) }); err != nil {
			return err
		}
		for turn := 1; ; turn++ {
			var done bool
			if err := pl.call(ctx, fmt.Sprintf("Step (round %d, call %d)", round, turn), func(b *runtime.Battle) error {
				var err error
				done, err = b.Step(ctx)
				return err
			}); err != nil {
				return err
			}
			// A Step that stopped at an input reports done only when
			// called again.
			if done {
				break
			}
		}
		if err := pl.call(ctx, fmt.Sprintf("EndRound (round %d)", round), func(b *runtime.Battle) error {
			_, err := b.EndRound(ctx)
			return err
		}); err != nil {
			return err
		}
		pl.results = append(pl.results, pl.b.Result())
	}
	return nil
}

// resumeMode is how a battle's chance is played: by the host, or by the
// battle's seeded dice.
type resumeMode struct {
	name string
	// dice are the battle's dice: nil for the host's (AskHost).
	dice func(seed uint64) runtime.Dice
}

var resumeModes = []resumeMode{
	{"host_dice", nil},
	{"seeded_dice", func(seed uint64) runtime.Dice { return runtime.NewSeededDice(seed) }},
}

// playOnce plays a battle of c with seed: in one Battle that stops at
// every input, or (restore) in a battle restored before every answer, or
// (callback) with dice and decider asked in calls, that never stop.
func playOnce(ctx context.Context, c resumeCase, mode resumeMode, seed uint64, how string) (*play, error) {
	hooks := hookCounter{}
	rng := rand.New(rand.NewPCG(seed, 0x7e5))
	cb := &callbackHost{rng: rng}
	var dice runtime.Dice = runtime.AskHost{}
	var decider runtime.Decider = runtime.AskHost{}
	if how == "callback" {
		dice, decider = cb, cb
	}
	if mode.dice != nil {
		dice = mode.dice(seed)
	}
	b, err := c.prog.NewBattle(c.prog.Example(), runtime.WithDice(dice), runtime.WithDecider(decider), runtime.WithHook(hooks.hook))
	if err != nil {
		return nil, err
	}
	pl := &player{p: c.prog, b: b, rng: rng, restore: how == "restore", advance: seed%2 == 1,
		opts: func() []runtime.BattleOption {
			// Seeded dice of another seed: the save's state must win.
			var dice runtime.Dice = runtime.AskHost{}
			if mode.dice != nil {
				dice = mode.dice(seed + 1000003)
			}
			return []runtime.BattleOption{runtime.WithDice(dice), runtime.WithDecider(runtime.AskHost{}), runtime.WithHook(hooks.hook)}
		}}
	if err := pl.playRounds(ctx, resumeRounds); err != nil {
		return nil, err
	}
	requests := pl.requests
	if how == "callback" {
		requests = cb.requests
	}
	return &play{Results: pl.results, Requests: requests, Hooks: hooks, Final: pl.save()}, nil
}

// A battle saved before every answer, the save read back in a fresh
// Battle and the answer given there, plays the very battle that one
// Battle stopping at every input plays, and that dice and a decider asked
// in calls play: the same inputs asked, the same rounds and transcripts,
// each Go hook run once at each point (never again when a save is
// restored or an answer plays the call again), and the same save at the
// end. With the battle's own seeded dice, their state is in every save.
func TestSavedBeforeEveryAnswerPlaysAsOneBattle(t *testing.T) {
	ctx := context.Background()
	for _, c := range resumeCases(t) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for seed := range resumeSeeds() {
				t.Run(fmt.Sprint(seed), func(t *testing.T) {
					for _, mode := range resumeModes {
						ref, err := playOnce(ctx, c, mode, seed, "callback")
						if err != nil {
							t.Fatalf("%s, asked in calls: %v", mode.name, err)
						}
						for at, n := range ref.Hooks {
							if n != 1 {
								t.Errorf("%s, asked in calls: the Go hook ran %d times at %s", mode.name, n, at)
							}
						}
						for _, how := range []string{"straight", "restore"} {
							got, err := playOnce(ctx, c, mode, seed, how)
							if err != nil {
								t.Errorf("%s, %s: %v", mode.name, how, err)
								continue
							}
							if diff := cmp.Diff(ref, got); diff != "" {
								t.Errorf("%s, %s (-asked in calls +%s):\n%s", mode.name, how, how, diff)
							}
						}
					}
				})
			}
		})
	}
}
