package runtime_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/turnorder/turnorder/runtime"
)

// The benchmarks play the same procedure through the runtime and through
// hand-written Go, so that the interpreter's overhead is a measured ratio,
// reported by each runtime benchmark as x-native (its ns/op over the
// native baseline's, measured in the same process):
//
//	go test ./runtime -run '^$' -bench 'MESBG|Necromunda4|RoundOverhead' -benchmem -count 5
//
// The figures are in docs/benchmarks.md. MESBG's round is a two-sided
// roll-off; the "hooked" variant keeps it to the general engine (a Go hook
// that does nothing), and RoundOverhead is a round whose only phase runs a
// hook point.

// nativeNs caches each native baseline's ns/op, measured once per process,
// so that every benchmark of the runtime reports its ratio to a baseline
// measured on the same machine in the same run (testing.Benchmark cannot
// be called from inside a benchmark).
var nativeNs = struct {
	sync.Mutex
	m map[string]float64
}{m: map[string]float64{}}

// reportVsNative reports b's ns/op as a multiple of the native baseline's,
// as the metric x-native: the number the speed goal (3x) is about. rounds
// plays n native rounds, each as its benchmark plays one.
func reportVsNative(b *testing.B, name string, rounds func(n int)) {
	nativeNs.Lock()
	ns, ok := nativeNs.m[name]
	if !ok {
		for n := 1 << 10; ; n *= 2 {
			start := time.Now()
			rounds(n)
			if d := time.Since(start); d > 200*time.Millisecond || n >= 1<<30 {
				ns = float64(d.Nanoseconds()) / float64(n)
				break
			}
		}
		nativeNs.m[name] = ns
	}
	nativeNs.Unlock()
	if b.N > 0 && ns > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/ns, "x-native")
	}
}

func benchRounds(b *testing.B, name string, sides []runtime.SideSpec, events, record bool, opts ...runtime.BattleOption) {
	p := mustProgram(b, name)
	opts = append([]runtime.BattleOption{runtime.WithDice(runtime.NewSeededDice(1)), runtime.WithTranscript(events)}, opts...)
	battle, err := p.NewBattle(sides, opts...)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if record {
			if _, err := battle.PlayRound(ctx); err != nil {
				b.Fatal(err)
			}
		} else if err := battle.AdvanceRound(ctx); err != nil {
			b.Fatal(err)
		}
	}
	switch name {
	case "mesbg":
		reportVsNative(b, name, func(n int) {
			m := newMESBGNative()
			for range n {
				m.playRound()
			}
		})
	case "necromunda":
		reportVsNative(b, name, func(n int) {
			nn := newNecromundaNative(len(sides))
			for range n {
				nn.playRound()
			}
		})
	}
}

// BenchmarkMESBGRound plays one priority round of rulesets/mesbg.rules:
// seeded dice, the winner takes priority.
func BenchmarkMESBGRound(b *testing.B) {
	sides := runtime.Sides("Jay", "Rob")
	b.Run("events=off", func(b *testing.B) { benchRounds(b, "mesbg", sides, false, false) })
	b.Run("events=on", func(b *testing.B) { benchRounds(b, "mesbg", sides, true, false) })
	b.Run("record", func(b *testing.B) { benchRounds(b, "mesbg", sides, false, true) })
	// The same round played by the general engine, which a Go hook (one
	// that does nothing) keeps it to: what it costs a host that watches
	// the round.
	b.Run("events=off,hooked", func(b *testing.B) {
		benchRounds(b, "mesbg", sides, false, false, runtime.WithHook(func(context.Context, *runtime.Battle, runtime.HookPoint) error { return nil }))
	})
}

// BenchmarkNecromunda4 orders four players by a D6 roll-off in which only
// the still-tied roll again.
func BenchmarkNecromunda4(b *testing.B) {
	sides := runtime.Sides("A", "B", "C", "D")
	b.Run("events=off", func(b *testing.B) { benchRounds(b, "necromunda", sides, false, false) })
	b.Run("events=on", func(b *testing.B) { benchRounds(b, "necromunda", sides, true, false) })
	b.Run("record", func(b *testing.B) { benchRounds(b, "necromunda", sides, false, true) })
}

// BenchmarkRoundOverhead measures what a round costs before any order is
// worth computing: a round whose only phase runs a hook point (its order
// is computed once, in round 1), and a round that orders two sides by a
// constant.
func BenchmarkRoundOverhead(b *testing.B) {
	for _, tt := range []struct{ name, phases string }{
		{"hook only", "phase setup once { order sides as o { highest 1 } }\n phase p each round { hook start }"},
		{"constant order", "phase p each round { order sides as o { highest 1 } }"},
	} {
		b.Run(tt.name, func(b *testing.B) {
			p := compileInline(b, "ruleset x {\n sides 2\n "+tt.phases+"\n}\n")
			battle, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithTranscript(false))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if err := battle.AdvanceRound(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// mesbgNative is MESBG's priority round written directly in Go.
type mesbgNative struct {
	rng            *rand.Rand
	round          int
	holder         int
	chooser        int
	order          [2]int
	prevChooser    int
	prevHolder     int
	prevOrder      [2]int
	rolls          [2]int
	rerolls, limit int
}

func (m *mesbgNative) playRound() {
	m.round++
	m.rerolls = 0
	winner := -1
	for winner < 0 {
		m.rolls[0], m.rolls[1] = m.rng.IntN(6)+1, m.rng.IntN(6)+1
		switch {
		case m.rolls[0] > m.rolls[1]:
			winner = 0
		case m.rolls[1] > m.rolls[0]:
			winner = 1
		case m.round == 1:
			m.rerolls++
			if m.rerolls > m.limit {
				panic("limit")
			}
		default:
			winner = 1 - m.prevChooser // the side that did not choose last turn
		}
	}
	m.chooser = winner
	m.holder = winner // the chooser takes priority
	m.order = [2]int{winner, 1 - winner}
	m.prevChooser, m.prevHolder, m.prevOrder = m.chooser, m.holder, m.order
}

func newMESBGNative() *mesbgNative {
	return &mesbgNative{rng: rand.New(rand.NewPCG(1, 2)), limit: 1000}
}

func BenchmarkMESBGRoundNative(b *testing.B) {
	m := newMESBGNative()
	b.ReportAllocs()
	for b.Loop() {
		m.playRound()
	}
}

// necromundaNative orders n players by D6, rerolling only tied groups.
type necromundaNative struct {
	rng   *rand.Rand
	order []int
	rolls []int
	group []int
}

func newNecromundaNative(players int) *necromundaNative {
	return &necromundaNative{rng: rand.New(rand.NewPCG(1, 2)), rolls: make([]int, players), group: make([]int, players)}
}

// playRound orders every player.
func (n *necromundaNative) playRound() {
	for i := range n.group {
		n.group[i] = i
	}
	n.order = n.orderGroup(n.group, n.order[:0])
}

func (n *necromundaNative) orderGroup(group []int, out []int) []int {
	if len(group) == 1 {
		return append(out, group[0])
	}
	for _, s := range group {
		n.rolls[s] = n.rng.IntN(6) + 1
	}
	slices.SortStableFunc(group, func(a, b int) int { return n.rolls[b] - n.rolls[a] })
	for i := 0; i < len(group); {
		j := i
		for j < len(group) && n.rolls[group[j]] == n.rolls[group[i]] {
			j++
		}
		if j-i == 1 {
			out = append(out, group[i])
		} else {
			out = n.orderGroup(slices.Clone(group[i:j]), out)
		}
		i = j
	}
	return out
}

func BenchmarkNecromunda4Native(b *testing.B) {
	n := newNecromundaNative(4)
	b.ReportAllocs()
	for b.Loop() {
		n.playRound()
	}
}
