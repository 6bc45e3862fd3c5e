package runtime

import (
	"bytes"
	"context"
)

// OddsByReplay is Odds without forking: every path a replay of the round,
// as before forking. Tests compare the two.
func (p *Program) OddsByReplay(ctx context.Context, sides []SideSpec, opt OddsOptions) (*OddsReport, error) {
	opt.replay = true
	return p.Odds(ctx, sides, opt)
}

// OddsByPairs is Odds following every (state, holder sequence) pair as a
// state of its own, as before the sequences were carried by arithmetic.
// Tests compare the two.
func (p *Program) OddsByPairs(ctx context.Context, sides []SideSpec, opt OddsOptions) (*OddsReport, error) {
	return p.oddsByPairs(ctx, sides, opt)
}

// OddsByClones is Odds (or, with replay, OddsByReplay) playing every
// replay of a round on a clone of its own, as before they were played on
// one battle, the round undone between them. Tests compare the two.
func (p *Program) OddsByClones(ctx context.Context, sides []SideSpec, opt OddsOptions, replay bool) (*OddsReport, error) {
	opt.replay, opt.clones = replay, true
	return p.Odds(ctx, sides, opt)
}

// OddsPlayingOn is Odds playing forks that are sure to go over MaxPaths on
// until they do, as before they were given up at once. Tests compare the
// two.
func (p *Program) OddsPlayingOn(ctx context.Context, sides []SideSpec, opt OddsOptions) (*OddsReport, error) {
	opt.playOn = true
	return p.Odds(ctx, sides, opt)
}

// StateKeys returns the battle's state key as written without encoding/json
// (and whether it was), and as encoding/json writes it. Tests compare the
// two.
func (b *Battle) StateKeys() (fast string, ok bool, slow string, err error) {
	k, ok := b.appendStateKey(nil)
	var buf bytes.Buffer
	slow, err = b.stateKeyJSON(&buf)
	return string(k), ok, slow, err
}

// OddsStateKeys plays rounds of odds' enumeration from a new battle, and
// returns, for every state it reaches (from up to 20 a round), the key odds
// merges it by and the key as encoding/json writes it, and how many of
// the first were written without encoding/json.
func (p *Program) OddsStateKeys(ctx context.Context, sides []SideSpec, rounds int) (got, want []string, written int, err error) {
	b, err := p.NewBattle(sides, WithTranscript(false), WithDecider(Policy{}))
	if err != nil {
		return nil, nil, 0, err
	}
	states := []*Battle{b}
	for range rounds {
		var next []*Battle
		for _, st := range states {
			outs, _, err := enumerateRound(ctx, st, 2_000, true, map[string]*forkMemo{}, newRollCache(), roundMode{doom: true})
			if err != nil {
				return got, want, written, err
			}
			for _, o := range outs {
				var buf bytes.Buffer
				k, err := o.b.stateKeyJSON(&buf)
				if err != nil {
					return got, want, written, err
				}
				if _, ok := o.b.appendStateKey(nil); ok {
					written++
				}
				got, want = append(got, o.key), append(want, k)
				next = append(next, o.b)
			}
		}
		states = next[:min(len(next), 20)]
	}
	return got, want, written, nil
}
