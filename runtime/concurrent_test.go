package runtime_test

// A compiled Program is immutable and safe for concurrent use: one Program
// plays eight battles at once (run with -race), each with its own Battle
// and seed, and every battle ends as it does when played alone.

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

const (
	concurrentBattles = 8
	concurrentRounds  = 50
)

// playSeed plays concurrentRounds rounds of the ruleset's example with
// seeded dice and the ruleset's policies. For rulesets with attributes it
// also changes one between rounds, so that until-changed standings are
// recomputed and expressions run on every path.
func playSeed(ctx context.Context, p *runtime.Program, seed uint64) ([]*runtime.RoundResult, error) {
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(seed)))
	if err != nil {
		return nil, err
	}
	units := b.Units()
	var out []*runtime.RoundResult
	for round := 1; round <= concurrentRounds; round++ {
		if len(units) > 0 {
			u := units[(int(seed)+round)%len(units)].Name
			var err error
			switch p.Name() {
			case "agi":
				err = b.SetAttr(ctx, u, "agi", 4+(round+int(seed))%3)
			case "morturi":
				err = b.SetAttr(ctx, u, "movement", 1+round%6)
			case "necromunda":
				err = b.SetStatus(ctx, u, "seriously_injured", round%2 == 0)
			}
			if err != nil {
				return nil, fmt.Errorf("before round %d: %w", round, err)
			}
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
		out = append(out, res)
	}
	return out, nil
}

func TestProgramConcurrentUse(t *testing.T) {
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			ctx := context.Background()

			// Sequentially first: the expected results.
			want := make([][]*runtime.RoundResult, concurrentBattles)
			for i := range want {
				res, err := playSeed(ctx, p, uint64(100+i))
				if err != nil {
					t.Fatalf("seed %d: %v", 100+i, err)
				}
				want[i] = res
			}

			// Then all at once, from one Program.
			got := make([][]*runtime.RoundResult, concurrentBattles)
			errs := make([]error, concurrentBattles)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range concurrentBattles {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					got[i], errs[i] = playSeed(ctx, p, uint64(100+i))
				}()
			}
			close(start)
			wg.Wait()

			for i := range concurrentBattles {
				if errs[i] != nil {
					t.Errorf("goroutine %d (seed %d): %v", i, 100+i, errs[i])
					continue
				}
				if diff := cmp.Diff(want[i], got[i]); diff != "" {
					t.Errorf("seed %d: concurrent results differ from sequential (-sequential +concurrent):\n%s", 100+i, diff)
				}
			}
		})
	}
}

// Different rulesets, compiled once, also share nothing mutable: the same
// bundled Programs played from many goroutines at once.
func TestProgramsConcurrentMixed(t *testing.T) {
	names := rulesets.Names()
	progs := make([]*runtime.Program, len(names))
	for i, n := range names {
		progs[i] = mustProgram(t, n)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, concurrentBattles*len(progs))
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := progs[i%len(progs)]
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(uint64(i))))
			if err != nil {
				errs[i] = err
				return
			}
			for range 10 {
				if _, err := b.PlayRound(ctx); err != nil {
					errs[i] = err
					return
				}
				// Snapshots and restores from every goroutine too.
				data, err := b.Snapshot()
				if err != nil {
					errs[i] = err
					return
				}
				if b, err = p.Restore(data); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d (%s): %v", i, names[i%len(names)], err)
		}
	}
}
