package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"testing"
	"time"

	"github.com/turnorder/turnorder/internal/longtest"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// TestRestoreSurvivesEveryEdit changes one value of a saved battle at a
// time, in every place and in every way a hand editing the file might
// (another type, a number out of range, a name that is not there, a list
// emptied or with a member twice, a key deleted), and restores it. Restore
// may refuse; what it accepts must play on and save again exactly. A
// saved battle is a user's file: none of this may panic or hang.
func TestRestoreSurvivesEveryEdit(t *testing.T) {
	names := rulesets.Names()
	if !longtest.Enabled() {
		// The two quickest to try every edit of; the saved battles of the
		// others take seconds each.
		names = []string{"mesbg", "necromunda"}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := mustProgram(t, name)
			for _, at := range savePoints(t, p, !longtest.Enabled()) {
				var doc any
				if err := json.Unmarshal(at.data, &doc); err != nil {
					t.Fatal(err)
				}
				names := namesIn(p)
				edits := 0
				eachEdit(doc, names, func(where string, edited any) {
					edits++
					data, err := json.Marshal(edited)
					if err != nil {
						t.Fatal(err)
					}
					if err := playEdited(p, data, 2); err != nil {
						t.Errorf("%s, %s: %v", at.name, where, err)
					}
				})
				if edits < 100 {
					t.Errorf("%s: only %d edits: the walk is broken", at.name, edits)
				}
			}
		})
	}
}

type savePoint struct {
	name string
	data []byte
}

// savePoints plays p's example battle and saves it between rounds and,
// unless short (the default run's sample), at the first two steps of the
// second round and its last.
func savePoints(t *testing.T, p *runtime.Program, short bool) []savePoint {
	t.Helper()
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(3)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out []savePoint
	save := func(name string) {
		data, err := b.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, savePoint{name, data})
	}
	if err := b.AdvanceRound(ctx); err != nil {
		t.Fatal(err)
	}
	save("after round 1")
	if short {
		return out
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	for step := 0; ; step++ {
		data, err := b.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		done, err := b.Step(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if step < 2 || done {
			out = append(out, savePoint{fmt.Sprintf("round 2, step %d", step), data})
		}
		if done {
			return out
		}
	}
}

// namesIn lists the names of the example's sides and of a unit of each of
// the first two: an edit that puts a real name in the wrong place is the
// hardest to catch.
func namesIn(p *runtime.Program) []any {
	var out []any
	for i, s := range p.Example() {
		out = append(out, s.Name)
		if i < 2 && len(s.Units) > 0 {
			out = append(out, s.Units[0].Name)
		}
	}
	return out
}

// eachEdit calls try with a copy of doc in which one value is changed, for
// every value of doc and every change.
func eachEdit(doc any, names []any, try func(where string, edited any)) {
	var walk func(path string, v any, set func(any) any)
	walk = func(path string, v any, set func(any) any) {
		swaps := []any{nil, -1.0, 0.0, 1.0, 2.0, 1e300, -1e300, 0.5, "", "x", true, []any{}, map[string]any{}}
		swaps = append(swaps, names...)
		for _, w := range swaps {
			try(fmt.Sprintf("%s = %v", path, w), set(w))
		}
		switch x := v.(type) {
		case map[string]any:
			for k, val := range x {
				walk(path+"."+k, val, func(w any) any {
					c := cloneMap(x)
					c[k] = w
					return set(c)
				})
				c := cloneMap(x)
				delete(c, k)
				try(path+"."+k+" deleted", set(c))
			}
		case []any:
			for i, val := range x {
				if i > 1 && i < len(x)-1 {
					continue // the members of a list are alike: the first two and the last will do
				}
				walk(fmt.Sprintf("%s[%d]", path, i), val, func(w any) any {
					c := append([]any(nil), x...)
					c[i] = w
					return set(c)
				})
			}
			if len(x) > 0 {
				try(path+" with its first twice", set(append([]any{x[0]}, x...)))
				try(path+" without its last", set(append([]any(nil), x[:len(x)-1]...)))
			}
		}
	}
	walk("snapshot", doc, func(w any) any { return w })
}

func cloneMap(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// playEdited restores data and, if Restore accepts it, saves and restores
// it again, plays rounds (the rest of a round under way counts as one) and
// saves again. Errors from play are fine; a panic, a hang or a changed
// save are not.
func playEdited(p *runtime.Program, data []byte, rounds int, opts ...runtime.BattleOption) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	b, rerr := p.Restore(data, opts...)
	if rerr != nil {
		return nil
	}
	if b, err = snapRestore(p, b); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range rounds {
		var perr error
		if b.InRound() {
			for done := false; !done && perr == nil; {
				done, perr = b.Step(ctx)
			}
			if perr == nil {
				_, perr = b.EndRound(ctx)
			}
		} else {
			perr = b.AdvanceRound(ctx)
		}
		if errors.Is(perr, context.DeadlineExceeded) {
			return fmt.Errorf("a round took more than 10s: %v", perr)
		}
		if perr != nil {
			return nil
		}
	}
	_, err = snapRestore(p, b)
	return err
}
