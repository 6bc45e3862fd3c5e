package runtime

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// SimOptions configures Simulate.
type SimOptions struct {
	// Runs is how many battles to play, and Rounds how many rounds each,
	// both at least 1 (there is no default: 0 is an error).
	Runs   int
	Rounds int
	// Seed seeds the dice: the same seed gives the same report.
	Seed uint64
	// Workers defaults to the number of CPUs. The result does not depend
	// on it: run i always uses the dice seeded from (Seed, i).
	Workers int
	// Decider must be safe for concurrent use (default: the policies).
	Decider Decider
	// Progress, if set, is called now and then with the runs done so far:
	// one call at a time, with ever larger counts, from any goroutine.
	Progress func(done int)
}

// SimReport counts, per round, how often each side held priority.
type SimReport struct {
	Runs   int              `json:"runs"`
	Holder []map[string]int `json:"holder"` // per round
}

// Estimate returns the estimated probability that who holds priority in
// round r (from 1), and how far from it its 95% interval (see Interval)
// reaches on its wider side.
func (s *SimReport) Estimate(round int, who string) (p, halfWidth float64) {
	p, lo, hi := s.interval(round, who)
	return p, max(p-lo, hi-p)
}

// Interval returns the 95% interval of Estimate's probability: Wilson's
// score interval, which unlike p ± 1.96·sqrt(p(1-p)/n) keeps a width when
// no battle, or every battle, saw who hold priority.
func (s *SimReport) Interval(round int, who string) (lo, hi float64) {
	_, lo, hi = s.interval(round, who)
	return lo, hi
}

func (s *SimReport) interval(round int, who string) (p, lo, hi float64) {
	if round < 1 || round > len(s.Holder) || s.Runs < 1 {
		return 0, 0, 0 // a round that was not simulated
	}
	const z = 1.96
	n := float64(s.Runs)
	p = float64(s.Holder[round-1][who]) / n
	d := 1 + z*z/n
	center := (p + z*z/(2*n)) / d
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / d
	return p, max(center-half, 0), min(center+half, 1)
}

// Simulate plays opt.Runs battles of opt.Rounds rounds with seeded dice,
// spread over all cores: a Monte Carlo check of Odds, and an answer where
// exact enumeration is too large.
func (p *Program) Simulate(ctx context.Context, sides []SideSpec, opt SimOptions) (*SimReport, error) {
	if p.compiled() == nil && !p.HasHolder() {
		return nil, noHolderError("Simulate", p)
	}
	if opt.Runs < 1 {
		return nil, fmt.Errorf("Simulate: Runs is %d: simulate 1 battle or more", opt.Runs)
	}
	if opt.Rounds < 1 {
		return nil, fmt.Errorf("Simulate: Rounds is %d: simulate 1 round or more", opt.Rounds)
	}
	if opt.Workers < 1 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Decider == nil {
		opt.Decider = Policy{}
	}
	template, err := p.NewBattle(sides, WithTranscript(false), WithDecider(opt.Decider))
	if err != nil {
		return nil, err
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error // of the lowest-numbered battle that failed
		done     atomic.Int64
		next     atomic.Int64
		// stop is the number of the lowest battle that failed: battles
		// after it are not played, those before it are, so the error
		// reported is the same whatever the scheduling.
		stop atomic.Int64
		// Progress hears of one count at a time, each larger than the last.
		progressMu sync.Mutex
		reported   int
	)
	stop.Store(int64(opt.Runs))
	total := make([]map[string]int, opt.Rounds)
	for r := range total {
		total[r] = map[string]int{}
	}
	const chunk = 256
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := make([]map[string]int, opt.Rounds)
			for r := range local {
				local[r] = map[string]int{}
			}
			dice := NewSeededDice(0)
			err := func() error {
				for {
					start := int(next.Add(chunk)) - chunk
					if start >= int(stop.Load()) {
						return nil
					}
					for i := start; i < min(start+chunk, opt.Runs); i++ {
						if err := ctxErr(ctx); err != nil {
							return err
						}
						if i >= int(stop.Load()) {
							return nil
						}
						dice.Reseed(opt.Seed, uint64(i))
						b := template.Clone(WithDice(dice))
						for r := range opt.Rounds {
							if err := b.AdvanceRound(ctx); err != nil {
								mu.Lock()
								if int64(i) < stop.Load() {
									stop.Store(int64(i))
									firstErr = fmt.Errorf("simulated battle %d, round %d: %w", i+1, roundOf(b.Round(), err), err)
								}
								mu.Unlock()
								return nil
							}
							local[r][b.HolderSide()]++
						}
					}
					n := int(done.Add(int64(min(chunk, opt.Runs-start))))
					if opt.Progress != nil {
						progressMu.Lock()
						if n > reported {
							reported = n
							opt.Progress(n)
						}
						progressMu.Unlock()
					}
				}
			}()
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil { // the context's
				firstErr = err
			}
			for r := range local {
				for k, v := range local[r] {
					total[r][k] += v
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return &SimReport{Runs: opt.Runs, Holder: total}, nil
}
