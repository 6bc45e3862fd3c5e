package runtime

import "context"

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
