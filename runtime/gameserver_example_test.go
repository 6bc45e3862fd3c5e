package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// The shape of a game server: one Program for every table, each table's
// battle kept in a database as a snapshot, between rounds and while a
// player is asked which fighter activates, and the players' decisions
// arriving over the network while a round is played.

// store stands for the database: a snapshot per table.
type store struct {
	mu   sync.Mutex
	rows map[string][]byte
}

func (s *store) load(table string) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rows[table]
}

func (s *store) save(table string, data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows[table] = data
}

var errHungUp = errors.New("the player hung up")

// netDecider asks the table's players over the network: it sends the
// decision and waits for their answer, which a nil answer says will not
// come. Before asking which fighter activates it saves the battle, which
// is between two turns then: if the player never answers, the table goes
// on from that turn.
type netDecider struct {
	asks    chan<- runtime.Decision
	answers <-chan []string
	save    func() error
}

func (n *netDecider) Decide(ctx context.Context, d runtime.Decision) ([]string, error) {
	if d.Kind == runtime.ChooseActivation {
		if err := n.save(); err != nil {
			return nil, err
		}
	}
	select {
	case n.asks <- d:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case ans := <-n.answers:
		if ans == nil {
			return nil, fmt.Errorf("%s, asked %v: %w", d.By, d, errHungUp)
		}
		return ans, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// playerAnswer is how the players of the example play: the last of their
// ready units goes first, and anything else is the ruleset's default.
func playerAnswer(d runtime.Decision) []string {
	if d.Kind == runtime.ChooseActivation {
		units := slices.DeleteFunc(slices.Clone(d.Options), func(o string) bool { return o == "pass" })
		return units[len(units)-1:]
	}
	return d.Default
}

// players is the far end of a table's connection: it answers every
// decision that arrives until asks is closed, but hangs up instead of
// giving answer number hangUpAt, and names a fighter of the other gang in
// answer number typoAt (counted from 1; 0 for never).
func players(asks <-chan runtime.Decision, answers chan<- []string, hangUpAt, typoAt int) {
	n := 0
	for d := range asks {
		n++
		switch n {
		case hangUpAt:
			answers <- nil
		case typoAt:
			other := "Krug"
			if slices.Contains(d.Options, other) {
				other = "Mira"
			}
			answers <- []string{other}
		default:
			answers <- playerAnswer(d)
		}
	}
}

// describe is one line of a round's result.
func describe(res *runtime.RoundResult) string {
	var acts []string
	for _, a := range res.Activations {
		if a.Pass {
			acts = append(acts, a.Side+" passes")
		} else {
			acts = append(acts, a.Unit)
		}
	}
	return fmt.Sprintf("round %d: %s holds priority; %s", res.Round, res.Holder, strings.Join(acts, ", "))
}

// injure is a move that arrives between rounds: a fighter seriously
// injured, who gets no Ready marker until he recovers. The server applies
// it to the stored battle at once.
func injure(ctx context.Context, p *runtime.Program, db *store, table, unit string) error {
	b, err := p.Restore(db.load(table))
	if err != nil {
		return err
	}
	if err := b.SetStatus(ctx, unit, "seriously_injured", true); err != nil {
		return err // ErrInvalidChange: tell the player, who may try again
	}
	data, err := b.Snapshot()
	if err != nil {
		return err
	}
	db.save(table, data)
	return nil
}

// playRound plays the battle's round to its end: the next one, or the one
// under way in a battle restored in the middle of it. An answer that the
// decision does not offer is the player's mistake, told to them (as
// note) and asked again: the battle waits for it, and Continue (or the
// call that stopped, called again) asks again.
func playRound(ctx context.Context, b *runtime.Battle, note func(error)) (*runtime.RoundResult, error) {
	again := func(err error) error {
		for errors.Is(err, runtime.ErrInvalidAnswer) {
			note(err)
			err = b.Continue(ctx)
		}
		return err
	}
	if b.Pending() != nil {
		if err := again(b.Continue(ctx)); err != nil {
			return nil, err
		}
	}
	if !b.InRound() {
		if err := again(b.StartRound(ctx)); err != nil {
			return nil, err
		}
	}
	for {
		done, err := b.Step(ctx)
		if err = again(err); err != nil {
			return nil, err
		}
		if done {
			return b.EndRound(ctx)
		}
	}
}

// serveTable plays a table's rounds as a server does between the players'
// turns: every round in a Battle restored from the store, saved back once
// the round is over, and before every turn a player is asked about. When
// a player hangs up the Battle is thrown away; the store holds the battle
// as the turn found it, and the round goes on from there when the player
// is back.
func serveTable(ctx context.Context, p *runtime.Program, db *store, table string, rounds int, injured map[int]string,
	asks chan<- runtime.Decision, answers <-chan []string) ([]string, error) {
	var lines []string
	for len(lines) < rounds {
		dec := &netDecider{asks: asks, answers: answers}
		b, err := p.Restore(db.load(table), runtime.WithDecider(dec), runtime.WithTranscript(false))
		if err != nil {
			return nil, err
		}
		dec.save = func() error {
			data, err := b.Snapshot()
			if err != nil {
				return err
			}
			db.save(table, data)
			return nil
		}
		if u := injured[b.Round()]; u != "" && !b.InRound() {
			if err := injure(ctx, p, db, table, u); err != nil {
				return nil, err
			}
			delete(injured, b.Round())
			lines = append(lines, fmt.Sprintf("after round %d: %s is seriously injured", b.Round(), u))
			rounds++
			continue
		}
		res, err := playRound(ctx, b, func(err error) {
			lines = append(lines, "told the players: "+err.Error())
			rounds++
		})
		if errors.Is(err, errHungUp) {
			lines = append(lines, fmt.Sprintf("in round %d, after %d turns: a player hung up; the round goes on from there",
				b.Round(), len(b.Activations())))
			rounds++
			continue
		}
		if err != nil {
			return nil, err
		}
		data, err := b.Snapshot()
		if err != nil {
			return nil, err
		}
		db.save(table, data)
		lines = append(lines, describe(res))
	}
	return lines, nil
}

// tables are the example's tables: each plays with its own seed; the
// players at table 1 name the other gang's fighter in their second
// answer, those at table 2 hang
// up once, at their fourth answer, and at table 3 Krug is seriously
// injured after round 1.
var tables = []struct {
	name     string
	seed     uint64
	hangUpAt int
	typoAt   int
	injured  map[int]string // after round: who
}{
	{"table 1", 1, 0, 2, nil},
	{"table 2", 2, 4, 0, nil},
	{"table 3", 3, 0, 0, map[int]string{1: "Krug"}},
}

// serveAll plays rounds at every table at once, a goroutine for each
// table and one for each table's players, with the one Program.
func serveAll(p *runtime.Program, rounds int) (map[string][]string, error) {
	ctx := context.Background()
	db := &store{rows: map[string][]byte{}}
	for _, t := range tables {
		b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(t.seed)))
		if err != nil {
			return nil, err
		}
		data, err := b.Snapshot()
		if err != nil {
			return nil, err
		}
		db.save(t.name, data)
	}
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		out  = map[string][]string{}
		errs []error
	)
	for _, t := range tables {
		asks, answers := make(chan runtime.Decision), make(chan []string)
		go players(asks, answers, t.hangUpAt, t.typoAt)
		wg.Go(func() {
			defer close(asks)
			lines, err := serveTable(ctx, p, db, t.name, rounds, maps.Clone(t.injured), asks, answers)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", t.name, err))
			}
			out[t.name] = lines
		})
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// Three tables of Necromunda are played at once with one Program. Between
// rounds each battle lives only in the store, as JSON, and moves that
// arrive then (an injury at table 3) are made on it there; during a round
// the players answer which fighter activates over a channel, and the
// battle is saved before each question. At table 1 a player names a
// fighter who is not his: he is told, and asked again. At table 2 a
// player hangs up in round 1: the round goes on from the turn he was
// asked about, as saved, with the same dice, as if nothing had happened.
func Example_gameServer() {
	p := compileBundled("necromunda")
	out, err := serveAll(p, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range tables {
		fmt.Println(t.name)
		for _, l := range out[t.name] {
			fmt.Println("  " + l)
		}
	}
	// Output:
	// table 1
	//   told the players: round 1: Eschers chooses a unit to activate among Mira, Sable, Vex: answer "Krug" is not valid (options: Mira, Sable, Vex): Krug is Goliaths' unit, and Eschers activates one of its own ready units
	//   round 1: Goliaths holds priority; Volk, Vex, Grath, Sable, Krug, Mira
	//   round 2: Goliaths holds priority; Volk, Vex, Grath, Sable, Krug, Mira
	//   round 3: Goliaths holds priority; Volk, Vex, Grath, Sable, Krug, Mira
	// table 2
	//   in round 1, after 3 turns: a player hung up; the round goes on from there
	//   round 1: Eschers holds priority; Vex, Volk, Sable, Grath, Mira, Krug
	//   round 2: Goliaths holds priority; Volk, Vex, Grath, Sable, Krug, Mira
	//   round 3: Eschers holds priority; Vex, Volk, Sable, Grath, Mira, Krug
	// table 3
	//   round 1: Goliaths holds priority; Volk, Vex, Grath, Sable, Krug, Mira
	//   after round 1: Krug is seriously injured
	//   round 2: Eschers holds priority; Vex, Volk, Sable, Grath, Mira
	//   round 3: Eschers holds priority; Vex, Volk, Sable, Grath, Mira
}

// Saving every battle after each round and restoring it for the next,
// among goroutines sharing the Program, plays exactly the rounds that one
// Battle kept in memory plays with the same players (run with -race).
func TestGameServerPlaysAsOneBattle(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "necromunda")
	const rounds = 6
	got, err := serveAll(p, rounds)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tables {
		b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(tt.seed)), runtime.WithTranscript(false),
			runtime.WithDecider(runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				return playerAnswer(d), nil
			})))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for range rounds {
			if u := tt.injured[b.Round()]; u != "" {
				if err := b.SetStatus(ctx, u, "seriously_injured", true); err != nil {
					t.Fatal(err)
				}
			}
			res, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, describe(res))
		}
		played := slices.DeleteFunc(slices.Clone(got[tt.name]), func(l string) bool { return !strings.HasPrefix(l, "round") || strings.Contains(l, "hung up") })
		if diff := cmp.Diff(want, played); diff != "" {
			t.Errorf("%s (-one battle +served):\n%s", tt.name, diff)
		}
	}
}
