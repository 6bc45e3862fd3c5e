package conformance

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// Running scenarios: the suite, the files, and each scenario's rounds.

//go:embed scenarios/*.rules
var suite embed.FS

// Suite returns the bundled conformance suite, read-only.
func Suite() fs.FS { return suite }

// Options changes how scenarios run.
type Options struct {
	// Load finds the ruleset a scenario names that is not in its own file.
	// The default loads a path relative to the scenario's file, or a
	// bundled ruleset by name.
	Load func(name, fromFile string) (*runtime.Program, error)
	// Compile options for every ruleset (host functions, limits).
	Compile []runtime.Option
}

// RunFS runs every scenario in every .rules file of fsys (recursively).
// Unless opts.Load is set, a scenario's `ruleset "FILE"` is read from
// fsys too, relative to the scenario's file (an absolute path is read from
// the disk, as by Load).
func RunFS(ctx context.Context, fsys fs.FS, opts Options) ([]Result, error) {
	if opts.Load == nil {
		compile := opts.Compile
		opts.Load = func(name, fromFile string) (*runtime.Program, error) {
			return loadFS(fsys, name, fromFile, compile...)
		}
	}
	var out []Result
	err := fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return rulesets.FileError(err)
		}
		if d.IsDir() || !strings.HasSuffix(path, ".rules") {
			return nil
		}
		src, err := rulesets.ReadFS(fsys, path)
		if err != nil {
			return err
		}
		rs, err := RunSource(ctx, path, src.Text, opts)
		out = append(out, rs...)
		return err
	})
	return out, err
}

// RunSource parses one file and runs its scenarios. A file that does not
// parse, or whose rulesets do not compile, is an error.
func RunSource(ctx context.Context, filename string, src []byte, opts Options) ([]Result, error) {
	f, diags := dsl.Parse(filename, src)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", diags.Render(string(src)))
	}
	return RunFile(ctx, f, opts), nil
}

// RunFile runs the scenarios of a parsed file.
func RunFile(ctx context.Context, f *dsl.File, opts Options) []Result {
	var out []Result
	for _, d := range f.Decls {
		if sc, ok := d.(*dsl.Scenario); ok {
			out = append(out, Run(ctx, f, sc, opts))
		}
	}
	return out
}

// Run runs one scenario of file f.
func Run(ctx context.Context, f *dsl.File, sc *dsl.Scenario, opts Options) Result {
	r := &run{res: Result{File: sc.Pos().Filename, Title: string(sc.Title), Pos: sc.Pos()}, opts: opts}
	r.play(ctx, f, sc)
	r.stopped()
	return r.res
}

// PlayedRound is what a round of a scenario did, for its transcript
// (turnorder test -v): the round's result, and the battle's standings at
// its end. A round that stopped at an error has Stopped set, and of its
// result only its number and the events it had up to the error.
type PlayedRound struct {
	*runtime.RoundResult
	Standings []*runtime.Standing
	Stopped   bool
}

// standings returns the battle's standings that are made, in the order
// the ruleset declares them.
func standings(b *runtime.Battle) []*runtime.Standing {
	var out []*runtime.Standing
	for _, name := range b.Program().Standings() {
		if st := b.Standing(name); st != nil {
			out = append(out, st)
		}
	}
	return out
}

// stopped adds to the transcript the round that an error stopped, with
// the events it had up to the error: the battle is back where the round
// started, and the error holds them.
func (r *run) stopped() {
	if r.b == nil || r.round == 0 || len(r.res.Rounds) >= r.round {
		return
	}
	var evs []runtime.Event
	switch re, ok := errors.AsType[*runtime.RuleError](r.lastErr); {
	case ok && re.Round == r.round:
		evs = re.Events
	case r.b.Round() == r.round:
		evs = r.b.Events()
	}
	r.res.Rounds = append(r.res.Rounds, PlayedRound{RoundResult: &runtime.RoundResult{Round: r.round, Events: evs}, Stopped: true})
}

type run struct {
	res     Result
	opts    Options
	b       *runtime.Battle
	dice    *runtime.ScriptedDice
	decider *runtime.ScriptedDecider
	round   int
	started bool
	// scripted holds where each scripted roll was written, per subject
	// ("" for random picks), in the order the dice take them.
	scripted map[string][]dsl.Pos
	// chosen holds where each scripted answer was written, per side.
	chosen map[string][]dsl.Pos
	// wantErr is an `expect error` waiting for the error it expects.
	wantErr *dsl.Expect
	errRE   *regexp.Regexp
	gotErr  bool
	// below holds the statements of the round after the one being run.
	below []dsl.RoundStmt
	// lastErr is the last error of play, for the transcript of the round
	// it stopped.
	lastErr error
}

func (r *run) fail(round int, field string, pos dsl.Pos, diff string) {
	r.res.Failures = append(r.res.Failures, Failure{Round: round, Field: field, Pos: pos, Diff: diff})
}

func (r *run) errorf(pos dsl.Pos, format string, args ...any) {
	r.error(pos, fmt.Errorf(format, args...))
}

// error fails the scenario with err at pos, unless it is the error the
// scenario expects.
func (r *run) error(pos dsl.Pos, err error) {
	r.lastErr = err
	msg := err.Error()
	if r.wantErr != nil && r.errRE.MatchString(msg) {
		r.gotErr = true // the refusal the scenario expected
		return
	}
	f := Failure{Round: r.round, Field: "error", Pos: pos, Diff: msg}
	if re, ok := err.(*runtime.RoundError); ok && re.Round == r.round {
		f.detail = re.Detail()
	}
	if r.wantErr != nil {
		const another = "expected an error matching %q, but the round failed with another: %s"
		f.Diff = fmt.Sprintf(another, r.errRE, msg)
		if f.detail != "" {
			f.detail = fmt.Sprintf(another, r.errRE, strings.TrimPrefix(strings.TrimPrefix(f.detail, ", "), ": "))
		}
		r.gotErr = true // an error came, if the wrong one: said once, here
	}
	r.res.Failures = append(r.res.Failures, f)
}

// playErr reports an error from play at pos, or, for a scripted result the
// dice could not use, at the script that wrote it.
func (r *run) playErr(pos dsl.Pos, err error) {
	err = r.scriptedBelow(err)
	if se, ok := errors.AsType[*runtime.ScriptError](err); ok {
		who, at := se.Who, r.scripted
		switch {
		case se.Pick:
			who = ""
		case se.Answer:
			at = r.chosen
		}
		if ps := at[who]; se.Index < len(ps) {
			pos = ps[se.Index]
		}
	}
	r.error(pos, err)
}

// scriptedBelow returns err with a hint when it is a roll, pick or
// decision nobody scripted that a line below the statement being run
// scripts: an author who writes `expect holder Jay` above `Jay chooses
// Jay` has scripted the choice, too late, and is told where.
func (r *run) scriptedBelow(err error) error {
	ue, ok := errors.AsType[*runtime.UnscriptedError](err)
	re, isRound := errors.AsType[*runtime.RoundError](err)
	if !ok || !isRound || re.Err != error(ue) {
		return err
	}
	for _, st := range r.below {
		var what string
		var at dsl.Pos
		switch s := st.(type) {
		case *dsl.RollScript:
			if ue.Roll == nil {
				continue
			}
			for _, ni := range s.Rolls {
				if slices.Contains(ue.Missing, string(ni.Name)) {
					what, at = "a roll for "+quotedOne(string(ni.Name)), s.Pos()
					break
				}
			}
		case *dsl.DrawScript:
			if ue.Roll == nil {
				continue
			}
			for _, ni := range s.Draws {
				if slices.Contains(ue.Missing, string(ni.Name)) {
					what, at = "a draw for "+quotedOne(string(ni.Name)), s.Pos()
					break
				}
			}
		case *dsl.RandomScript:
			if ue.Pick != nil {
				what, at = "a random pick", s.Pos()
			}
		case *dsl.ChooseScript:
			if ue.Decision != nil && string(s.Who) == ue.Decision.By {
				what, at = "`"+quotedOne(string(s.Who))+" chooses`", s.Pos()
			}
		}
		if what != "" {
			hinted := *re
			hinted.Err = fmt.Errorf("%w; %s is written below, at line %d: the round is played up to this line with the rolls and choices written above it", ue, what, at.Line)
			return &hinted
		}
	}
	return err
}

func (r *run) play(ctx context.Context, f *dsl.File, sc *dsl.Scenario) {
	s := prepare(f, sc, r.opts)
	if len(s.mistakes) > 0 {
		r.res.Failures = s.mistakes
		return
	}
	r.dice = runtime.NewScriptedDice()
	r.scripted, r.chosen = map[string][]dsl.Pos{}, map[string][]dsl.Pos{}
	if s.seed != nil {
		r.dice.Fallback = runtime.NewSeededDice(uint64(*s.seed))
	}
	r.decider = runtime.NewScriptedDecider()
	if s.policy {
		r.decider.Fallback = runtime.Policy{}
	}
	var err error
	r.b, err = s.prog.NewBattle(s.sides, runtime.WithDice(r.dice), runtime.WithDecider(r.decider))
	if err != nil {
		r.playErr(sc.Pos(), err)
		return
	}
	for _, st := range sc.Body {
		rb, ok := st.(*dsl.RoundBlock)
		if !ok {
			continue
		}
		r.round = rb.Number
		played := r.playRound(ctx, rb)
		switch {
		case r.wantErr != nil && !r.gotErr:
			r.fail(r.round, "error", r.wantErr.Pos(), fmt.Sprintf("expected an error matching %q, but the round went on without one", r.errRE))
			return
		case r.wantErr != nil:
			return // the round failed as expected: the scenario ends there
		case !played:
			return
		}
	}
}

func (r *run) start(ctx context.Context, pos dsl.Pos) bool {
	if r.started {
		return true
	}
	r.started = true
	if err := r.b.StartRound(ctx); err != nil {
		r.playErr(pos, err)
		return false
	}
	return true
}

// finish plays the round's remaining activations.
func (r *run) finish(ctx context.Context, pos dsl.Pos) bool {
	if !r.start(ctx, pos) {
		return false
	}
	for {
		done, err := r.b.Step(ctx)
		if err != nil {
			r.playErr(pos, err)
			return false
		}
		if done {
			return true
		}
	}
}

// closingBrace is the position of a block's "}", given the block's
// EndPos, which participle puts just past it.
func closingBrace(end dsl.Pos) dsl.Pos {
	if end.Column > 1 && end.Offset > 0 {
		end.Column--
		end.Offset--
	}
	return end
}

func (r *run) playRound(ctx context.Context, rb *dsl.RoundBlock) bool {
	r.started = false
	for i, st := range rb.Body {
		r.below = rb.Body[i+1:]
		if !r.stmt(ctx, st) {
			return false
		}
	}
	r.below = nil
	end := closingBrace(rb.End())
	if !r.finish(ctx, end) {
		return false
	}
	res, err := r.b.EndRound(ctx)
	if err != nil {
		r.playErr(end, err)
		return false
	}
	r.res.Rounds = append(r.res.Rounds, PlayedRound{RoundResult: res, Standings: standings(r.b)})
	unused := append(r.dice.Unused(), r.decider.Unused()...)
	if len(unused) > 0 {
		hint := ""
		if p := r.b.Program(); p != nil && p.DrawsFromBag() && slices.ContainsFunc(unused, func(u string) bool { return strings.HasPrefix(u, "random ") }) {
			hint = " (in activation draw, the dice of the last side left in the bag come out without a draw: script only the draws made among two colours or more)"
		}
		r.errorf(r.firstUnused(rb.Pos()), "scripted but never used: %s%s", strings.Join(unused, "; "), hint)
		return false
	}
	return true
}

// firstUnused returns where the first script statement that was not used
// up is written (or, if none is known, at): the unused results of a
// subject are the last ones scripted for it.
func (r *run) firstUnused(at dsl.Pos) dsl.Pos {
	var first *dsl.Pos
	consider := func(ps []dsl.Pos, pending int) {
		if pending == 0 || pending > len(ps) {
			return
		}
		if p := ps[len(ps)-pending]; first == nil || p.Offset < first.Offset {
			first = &p
		}
	}
	for who, ps := range r.scripted {
		consider(ps, r.dice.Pending(who))
	}
	for who, ps := range r.chosen {
		consider(ps, r.decider.Pending(who))
	}
	if first == nil {
		return at
	}
	return *first
}

func (r *run) stmt(ctx context.Context, st dsl.RoundStmt) bool {
	switch s := st.(type) {
	case *dsl.RollScript:
		for _, ni := range s.Rolls {
			if ni.Face != nil {
				r.dice.AddFace(string(ni.Name), string(*ni.Face), false)
			} else {
				r.dice.AddRoll(string(ni.Name), ni.Value)
			}
			r.scripted[string(ni.Name)] = append(r.scripted[string(ni.Name)], ni.Pos())
		}
	case *dsl.DrawScript:
		for _, ni := range s.Draws {
			r.dice.AddFace(string(ni.Name), ni.Label(), true)
			r.scripted[string(ni.Name)] = append(r.scripted[string(ni.Name)], ni.Pos())
		}
	case *dsl.RandomScript:
		for _, p := range s.Picks {
			r.dice.AddPick(string(p))
			r.scripted[""] = append(r.scripted[""], s.Pos())
		}
	case *dsl.ChooseScript:
		r.decider.Add(string(s.Who), names(s.Options)...)
		r.chosen[string(s.Who)] = append(r.chosen[string(s.Who)], s.Pos())
	case *dsl.SetScript:
		if on, ok := statusValue(s); ok && slices.Contains(r.b.Program().Statuses(), string(s.Attr)) {
			if err := r.b.SetStatus(ctx, string(s.Target), string(s.Attr), on); err != nil {
				r.playErr(s.Pos(), err)
				return false
			}
			break
		}
		if err := r.b.SetAttr(ctx, string(s.Target), string(s.Attr), s.Value); err != nil {
			r.playErr(setPos(r.b, s), err)
			return false
		}
	case *dsl.StatusScript:
		if err := r.b.SetStatus(ctx, string(s.Unit), string(s.Status), !s.Not); err != nil {
			r.playErr(s.Pos(), err)
			return false
		}
	case *dsl.RemoveScript:
		if err := r.b.RemoveUnit(ctx, string(s.Unit)); err != nil {
			r.playErr(s.Pos(), err)
			return false
		}
	case *dsl.AddScript:
		if err := r.b.AddUnit(ctx, s.Side.String(), runtime.UnitFromDSL(s)); err != nil {
			r.playErr(s.Pos(), err)
			return false
		}
	case *dsl.ReadyScript:
		if err := r.b.MakeReady(string(s.Unit)); err != nil {
			r.playErr(s.Pos(), err)
			return false
		}
	case *dsl.ActivateScript:
		if !r.start(ctx, s.Pos()) {
			return false
		}
		n := 1
		if s.Count != nil {
			n = *s.Count
		}
		for range n {
			done, err := r.b.Step(ctx)
			if err != nil {
				r.playErr(s.Pos(), err)
				return false
			}
			if done {
				r.errorf(s.Pos(), "activate: the round's activations are already over")
				return false
			}
		}
	case *dsl.Expect:
		return r.expect(ctx, s)
	}
	return true
}

func names(ns []dsl.Name) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return out
}
