package runtime

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// A randomizer is a declared die, deck or bag. Its contents are slots, one
// per face or card (a face listed `* 3` has three), in the order declared:
// a die rolls one of them with replacement; a deck or bag draws one of
// those left, without replacement, so that what is left is battle state
// (Battle.decks).
type randomizer struct {
	name      string
	kind      dsl.RandomizerKind
	perSide   bool
	reshuffle dsl.ReshuffleMode
	labels    []string // by slot
	values    []int    // by slot
	distinct  int      // how many different values the slots have
	pos       dsl.Pos
}

// maxSlots bounds a randomizer's faces or cards.
const maxSlots = 10_000

// noTies reports whether draws from the randomizer never tie: one deck
// shared by all, of cards of different values, that no draw finds empty
// and reshuffles (between two draws of one group, which could then draw
// the same card).
func (rz *randomizer) noTies() bool {
	return rz.drawn() && !rz.perSide && !rz.refills() && rz.distinct == len(rz.labels)
}

// refills reports whether a draw that finds the deck empty reshuffles it:
// one reshuffled when empty, and one reshuffled each round, which is a
// whole deck in every round and so in the middle of one too (a tie drawn
// again until the cards run out goes on from a whole deck).
func (rz *randomizer) refills() bool {
	return rz.reshuffle == dsl.ReshuffleWhenEmpty || rz.reshuffle == dsl.ReshuffleEachRound
}

// drawn reports whether the randomizer is drawn without replacement.
func (rz *randomizer) drawn() bool { return rz.kind != dsl.KindDie }

// valueOf returns the value of the card or face named label.
func (rz *randomizer) valueOf(label string) (int, bool) {
	if i := slices.Index(rz.labels, label); i >= 0 {
		return rz.values[i], true
	}
	return 0, false
}

// contents lists the distinct cards or faces, each with its count: "1,
// 2, joker (2)".
func contents(labels []string) string {
	var names []string
	var counts []int
	for _, l := range labels {
		if i := slices.Index(names, l); i >= 0 {
			counts[i]++
		} else {
			names, counts = append(names, l), append(counts, 1)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n
		if counts[i] > 1 {
			parts[i] += fmt.Sprintf(" (%d)", counts[i])
		}
	}
	return strings.Join(parts, ", ")
}

// randomizer compiles a die, deck or bag declaration.
func (c *compiler) randomizer(s *dsl.RandomizerDecl) {
	p := c.p
	name := string(s.Name.Name)
	if prev := p.randomizers[name]; prev != nil {
		c.errorf(s.Name.Pos(), "%s %s is declared twice (first at line %d)", s.Kind, name, prev.pos.Line)
		return
	}
	rz := &randomizer{name: name, kind: s.Kind, perSide: s.PerSide, reshuffle: s.Reshuffle, pos: s.Pos()}
	if s.Kind == dsl.KindDie && (s.PerSide || s.Reshuffle != "") {
		c.errorf(s.Pos(), "die %s: a die is rolled with replacement, so it is neither per side nor reshuffled (declare a deck to draw without replacement)", name)
	}
	ok := true
	for _, f := range s.Faces {
		count := 1
		if f.Count != nil {
			count = *f.Count
		}
		if count < 1 {
			c.errorf(f.Pos(), "%s: a count must be at least 1", f)
			ok = false
			continue
		}
		var labels []string
		var values []int
		from, to, numbered := f.Numbers()
		switch {
		case !numbered:
			labels, values = []string{string(*f.Name)}, []int{0}
		case to < from:
			c.errorf(f.Pos(), "%d..%d is empty: the last number is below the first", from, to)
			ok = false
			continue
		case to-from >= maxSlots:
			c.errorf(f.Pos(), "%d..%d has too many numbers (at most %d)", from, to, maxSlots)
			ok = false
			continue
		default:
			for n := from; n <= to; n++ {
				labels, values = append(labels, strconv.Itoa(n)), append(values, n)
			}
		}
		if f.Value != nil {
			if f.To != nil {
				c.errorf(f.Pos(), "%s: a range of numbers has their own values; give a value to a named face or card", f)
				ok = false
				continue
			}
			values[0] = *f.Value
			if f.Neg {
				values[0] = -values[0]
			}
		}
		for i, l := range labels {
			if v, seen := rz.valueOf(l); seen && v != values[i] {
				c.errorf(f.Pos(), "%s is listed twice with different values (%d and %d): a face or card's name says its value", l, v, values[i])
				ok = false
				continue
			}
			if len(rz.labels)+count > maxSlots {
				c.errorf(f.Pos(), "%s %s has too many faces or cards (at most %d)", s.Kind, name, maxSlots)
				return
			}
			for range count {
				rz.labels, rz.values = append(rz.labels, l), append(rz.values, values[i])
			}
		}
	}
	if !ok {
		return
	}
	seen := map[int]bool{}
	for _, v := range rz.values {
		seen[v] = true
	}
	rz.distinct = len(seen)
	if p.randomizers == nil {
		p.randomizers = map[string]*randomizer{}
	}
	p.randomizers[name] = rz
	p.randomizerList = append(p.randomizerList, rz)
}

// dieRoll compiles `highest roll NAME` of a declared die, or returns nil
// when NAME is not one (the roll is then of NdS dice).
func (c *compiler) dieRoll(s *dsl.RollCrit) *rollLink {
	rz := c.p.randomizers[s.Dice]
	if rz == nil {
		return nil
	}
	if rz.drawn() {
		c.errorf(s.Pos(), "%s is a %s: draw from it with `%s draw %s`", rz.name, rz.kind, s.Dir, rz.name)
	}
	if rz.distinct < 2 && s.Modifier == nil {
		c.warnf(s.Pos(), "every face of die %s has the same value: it breaks no tie, and a reroll of it never ends", rz.name)
	}
	return &rollLink{dir: dirOf(s.Dir), count: 1, faces: len(rz.labels), dice: rz.name, rz: rz}
}

// draw compiles `highest draw NAME`. A draw from what is no deck is an
// error, but still a roll for the rest of the chain (a reroll after it),
// which then says nothing more about it.
func (c *compiler) draw(s *dsl.DrawCrit) link {
	name := string(s.Deck.Name)
	rz := c.p.randomizers[name]
	switch {
	case rz == nil:
		c.errorf(s.Deck.Pos(), "draw %s: no deck or bag is called %s (%s)", name, name, c.randomizerNames(true))
		return done(&rollLink{dir: dirOf(s.Dir), count: 1, faces: 2, dice: name}, s.Pos())
	case !rz.drawn():
		c.errorf(s.Deck.Pos(), "%s is a die: roll it with `%s roll %s`", rz.name, s.Dir, rz.name)
	}
	return done(&rollLink{dir: dirOf(s.Dir), count: 1, faces: len(rz.labels), dice: rz.name, rz: rz}, s.Pos())
}

// drawWithoutDeck reports `highest draw` with no deck named, which parses
// as a value called draw, and returns a draw for the rest of the chain to
// follow (a reroll after it) with nothing more to say; nil for any other
// value.
func (c *compiler) drawWithoutDeck(s *dsl.ValueCrit) link {
	if strings.TrimSpace(s.Expr.Source) != "draw" || c.isAttr("draw") {
		return nil
	}
	c.errorf(s.Expr.Pos(), "%s draw needs the deck or bag to draw from: `%s draw NAME` (%s)", s.Dir, s.Dir, c.randomizerNames(true))
	return done(&rollLink{dir: dirOf(s.Dir), count: 1, faces: 2, dice: "draw"}, s.Pos())
}

// reshuffleAction compiles a handler's `reshuffle NAME`.
func (c *compiler) reshuffleAction(x *dsl.ReshuffleAction) action {
	rz := c.p.randomizers[string(x.Deck.Name)]
	switch {
	case rz == nil:
		c.errorf(x.Deck.Pos(), "reshuffle %s: no deck or bag is called %s (%s)", x.Deck.Name, x.Deck.Name, c.randomizerNames(true))
		return nil
	case !rz.drawn():
		c.errorf(x.Deck.Pos(), "reshuffle %s: %s is a die, which has nothing to reshuffle", rz.name, rz.name)
		return nil
	}
	return &reshuffleAction{rz: rz, pos: x.Pos()}
}

func (c *compiler) randomizerNames(drawn bool) string {
	var names []string
	for _, rz := range c.p.randomizerList {
		if rz.drawn() == drawn {
			names = append(names, rz.name)
		}
	}
	if len(names) == 0 {
		if drawn {
			return "the ruleset declares none: declare one with `deck NAME { ... }`"
		}
		return "the ruleset declares none"
	}
	return "declared: " + strings.Join(names, ", ")
}

// reshuffleAction is a handler's `reshuffle NAME`.
// warnNeverReshuffled warns of a deck or bag that an order of every round
// draws from and nothing makes whole again: its cards run out, and the
// draw after the last is an error of play.
func (c *compiler) warnNeverReshuffled() {
	p := c.p
	reshuffled := map[*randomizer]bool{}
	for _, h := range p.handlers {
		for _, a := range h.body {
			if x, ok := a.(*reshuffleAction); ok {
				reshuffled[x.rz] = true
			}
		}
	}
	var draws func(chain []link) []*randomizer
	draws = func(chain []link) []*randomizer {
		var out []*randomizer
		for _, l := range chain {
			switch x := l.(type) {
			case *rollLink:
				if x.rz != nil && x.rz.kind != dsl.KindDie {
					out = append(out, x.rz)
				}
			case *tieSet:
				for _, r := range x.rules {
					out = append(out, draws(r.chain)...)
				}
			}
		}
		return out
	}
	warned := map[*randomizer]bool{}
	for _, o := range p.orderList {
		if o.scope.kind == dsl.Once {
			continue
		}
		for _, rz := range draws(o.chain) {
			if rz.reshuffle != "" || reshuffled[rz] || warned[rz] {
				continue
			}
			warned[rz] = true
			c.warnf(rz.pos, "%s %s is never reshuffled, and order %s draws from it every round: its %d %s run out, and a draw after the last is an error (add `reshuffle each round` or `reshuffle when empty`, or a rule's `reshuffle %s`)",
				rz.kind, rz.name, o.name, len(rz.labels), map[bool]string{true: "tokens", false: "cards"}[rz.kind == dsl.KindBag], rz.name)
		}
	}
}

type reshuffleAction struct {
	rz  *randomizer
	pos dsl.Pos
}

func (*reshuffleAction) action() {}

// deckKey names one deck's contents: a shared deck's (side ""), or one
// side's own deck of a deck per side.
type deckKey struct{ deck, side string }

// DeckState is what is left of a deck or bag that has been drawn from, as
// a snapshot saves it: a deck not listed is whole.
type DeckState struct {
	Deck string   `json:"deck"`
	Side string   `json:"side,omitempty"` // for a deck per side, whose it is
	Left []string `json:"left"`           // the cards left, in the order declared
}

// deckLeft returns the cards left in the deck rz of side ("" for a shared
// deck). The slice is the battle's: do not change it.
func (b *Battle) deckLeft(rz *randomizer, side string) []string {
	if left, ok := b.decks[deckKey{rz.name, side}]; ok {
		return left
	}
	return rz.labels
}

// setDeck makes left what is left of the deck. The map is replaced, not
// changed: copies of the battle share it (see copyState).
func (b *Battle) setDeck(rz *randomizer, side string, left []string) {
	m := maps.Clone(b.decks)
	if m == nil {
		m = map[deckKey][]string{}
	}
	m[deckKey{rz.name, side}] = left
	b.decks = m
}

// reshuffle makes the deck rz whole again, every side's for a deck per
// side (or only side's, if side is not nil), saying so for each that was
// not.
func (b *Battle) reshuffle(rz *randomizer, side *string, why string) {
	var m map[deckKey][]string
	for _, k := range slices.SortedFunc(maps.Keys(b.decks), compareDeckKeys) {
		if k.deck != rz.name || side != nil && k.side != *side {
			continue
		}
		if m == nil {
			m = maps.Clone(b.decks)
		}
		delete(m, k)
		if b.transcript {
			b.emit(Event{Kind: EvReshuffle, Subject: k.side, From: rz.name, Value: b.intp(len(rz.labels)), Detail: why, Rule: string(rz.kind) + " " + rz.name})
		}
	}
	if m != nil {
		if len(m) == 0 {
			m = nil
		}
		b.decks = m
	}
}

func compareDeckKeys(x, y deckKey) int {
	if c := strings.Compare(x.deck, y.deck); c != 0 {
		return c
	}
	return strings.Compare(x.side, y.side)
}

// reshuffleEachRound makes whole, at the start of a round, the decks that
// are reshuffled each round.
func (b *Battle) reshuffleEachRound() {
	for _, rz := range b.prog.randomizerList {
		if rz.reshuffle == dsl.ReshuffleEachRound {
			b.reshuffle(rz, nil, "each round")
		}
	}
}

// Decks returns what is left of each deck and bag drawn from since it was
// last whole, sorted by deck and side; a deck not listed is whole. The
// lists are the caller's.
func (b *Battle) Decks() []DeckState { return b.deckStates() }

// deckStates returns the decks drawn from, sorted, for a snapshot.
func (b *Battle) deckStates() []DeckState {
	if len(b.decks) == 0 {
		return nil
	}
	out := make([]DeckState, 0, len(b.decks))
	for _, k := range slices.SortedFunc(maps.Keys(b.decks), compareDeckKeys) {
		out = append(out, DeckState{Deck: k.deck, Side: k.side, Left: slices.Clone(b.decks[k])})
	}
	return out
}

// restoreDecks checks a snapshot's decks and makes them the battle's: each
// a deck or bag of the ruleset, a deck per side's a side's, and every card
// left one the deck holds, no more times than it holds it.
func (b *Battle) restoreDecks(decks []DeckState) error {
	if len(decks) == 0 {
		b.decks = nil
		return nil
	}
	if b.round == 0 {
		return errors.New("decks: a deck has been drawn from, but round is 0 (no round has started)")
	}
	m := make(map[deckKey][]string, len(decks))
	for i, d := range decks {
		at := fmt.Sprintf("decks[%d]", i)
		rz := b.prog.randomizers[d.Deck]
		switch {
		case rz == nil:
			return fmt.Errorf("%s.deck: ruleset %s has no deck or bag %q", at, b.prog.name, d.Deck)
		case !rz.drawn():
			return fmt.Errorf("%s.deck: %s is a die, which is rolled, not drawn from", at, d.Deck)
		case rz.perSide && b.sideByNm[d.Side] == nil:
			return fmt.Errorf("%s.side: %s is a deck per side, and %q is no side of the battle", at, d.Deck, d.Side)
		case !rz.perSide && d.Side != "":
			return fmt.Errorf("%s.side: %s is one deck shared by every side, not %s's", at, d.Deck, d.Side)
		case d.Left == nil:
			return fmt.Errorf("%s.left: missing (an empty deck has an empty list)", at)
		}
		k := deckKey{d.Deck, d.Side}
		if _, dup := m[k]; dup {
			return fmt.Errorf("%s: the deck %s is listed twice", at, deckName(rz, d.Side))
		}
		for j, card := range d.Left {
			whole := count(rz.labels, card)
			switch {
			case whole == 0:
				return fmt.Errorf("%s.left[%d]: %q is not a card of %s (%s)", at, j, card, d.Deck, contents(rz.labels))
			case count(d.Left, card) > whole:
				return fmt.Errorf("%s.left[%d]: %s is left %d times, but %s holds %d", at, j, card, count(d.Left, card), d.Deck, whole)
			}
		}
		m[k] = slices.Clone(d.Left)
	}
	b.decks = m
	return nil
}

// deckName names a deck for a message: "cards", or "Jay's cards".
func deckName(rz *randomizer, side string) string {
	if side == "" {
		return rz.name
	}
	return side + "'s " + rz.name
}

// deckSide is whose deck a subject draws from: "" from a shared deck, or
// its side (a unit's side) from a deck per side.
func (r *orderRun) deckSide(rz *randomizer, subject int) string {
	if !rz.perSide {
		return ""
	}
	if r.o.units {
		return r.b.units[subject].Side.Name
	}
	return r.b.sides[subject].Name
}

// byDraw is byRoll for a deck or bag: each subject in turn draws one card
// of those left, without replacement, and is ranked by its value.
func (r *orderRun) byDraw(l *rollLink, s, e, attempt int) error {
	b := r.b
	rz := l.rz
	r.rerolled = r.rerolled[:0] // a draw changes the deck: never a loop
	if d, ok := b.dice.(*enumDice); ok {
		if err := r.drawLoop(d, l, s, e); err != nil {
			return err
		}
	}
	for k := s; k < e; k++ {
		subject := r.perm[k]
		side := r.deckSide(rz, subject)
		left := b.deckLeft(rz, side)
		if len(left) == 0 {
			if !rz.refills() {
				return ruleErrorf(l.pos, "%s draws from %s, which is empty: declare it `reshuffle when empty` or `reshuffle each round`, or reshuffle it in a rule (`reshuffle %s`)",
					r.names[subject], deckName(rz, side), rz.name)
			}
			b.reshuffle(rz, &side, "when empty")
			left = b.deckLeft(rz, side)
		}
		nat := []int{0}
		if sd := b.seeded; sd != nil && !(b.noAsk && b.replayed == len(b.journal)) {
			if err := b.seededRoll(sd, nat, 1, len(left)); err != nil {
				return err
			}
		} else {
			req := RollRequest{Round: b.now(), Standing: r.o.name, Subjects: []string{r.names[subject]}, Count: 1, Faces: len(left),
				Attempt: attempt, Pos: l.pos, Randomizer: rz.name, Kind: string(rz.kind), Side: side, Labels: slices.Clone(left)}
			req.Values = make([]int, len(left))
			for i, c := range left {
				req.Values[i], _ = rz.valueOf(c)
			}
			got, err := b.rollInput(r.ctx, req)
			if err != nil {
				return err
			}
			nat[0] = got[0]
		}
		card := left[nat[0]-1]
		rest := make([]string, 0, len(left)-1)
		rest = append(append(rest, left[:nat[0]-1]...), left[nat[0]:]...)
		b.setDeck(rz, side, rest)
		v, _ := rz.valueOf(card)
		r.keys[k] = float64(v)
		if b.transcript {
			b.emit(Event{Kind: EvDraw, Standing: r.o.name, Subject: r.names[subject], Face: card, From: rz.name, Value: b.intp(v),
				Rule: l.desc, Pos: l.at})
		}
	}
	r.split(s, e, l.dir, l)
	r.announceTies(s, e, &l.meta)
	return nil
}

// Randomizer describes a declared die, deck or bag.
type Randomizer struct {
	Name      string
	Kind      string // "die", "deck" or "bag"
	PerSide   bool   // a deck per side
	Reshuffle string // "each round", "when empty", or "" (only by a rule)
	// Faces are its faces or cards, one for each copy, in the order
	// declared, and Values their values.
	Faces  []string
	Values []int
}

// Randomizers returns the dice, decks and bags the ruleset declares, in
// the order declared.
func (p *Program) Randomizers() []Randomizer {
	out := make([]Randomizer, len(p.randomizerList))
	for i, rz := range p.randomizerList {
		out[i] = Randomizer{Name: rz.name, Kind: string(rz.kind), PerSide: rz.perSide, Reshuffle: string(rz.reshuffle),
			Faces: slices.Clone(rz.labels), Values: slices.Clone(rz.values)}
	}
	return out
}

// drawLoop returns errLoop when the exact odds' replay draws for the block
// s..e-1 with link l from decks as they were when it drew for it before,
// in this computation: a tie drawn again and again until the decks ran out
// and were reshuffled. What follows is then what followed then, so the
// branch point where it was is where the loop is conditioned away, as a
// roll that ties again is (see errLoop). A deck that is empty and
// reshuffled when empty counts as whole: the next draw makes it so.
//
// When the analysis forks (see fork.go), a loop back to the computation's
// first draw, made before any branch point of the whole order's fork, is
// the same state on every path of the computation: it is errLoopStart,
// a result the fork conditions away when it has them all. A loop back to
// any other draw depends on the path that reached it: errNoFork.
func (r *orderRun) drawLoop(d *enumDice, l *rollLink, s, e int) error {
	key := r.drawKey(l, s, e)
	f := d.top()
	for _, m := range r.drawSeen {
		if m.key != key {
			continue
		}
		if len(d.frames) == 1 {
			return errLoop{pos: l.pos, back: m.at + 1}
		}
		if m.frame.whole && m.at == 0 {
			return errLoopStart{pos: l.pos}
		}
		return errNoFork
	}
	r.drawSeen = append(r.drawSeen, drawMark{key: key, frame: f, at: f.at})
	return nil
}

// drawMark is a draw of the exact odds' path (see drawLoop): the decks
// it drew from, and where on the path, in which frame.
type drawMark struct {
	key   string
	frame *frame
	at    int
}

// drawKey names the draw of link l for the block s..e-1 from the decks
// as they are.
func (r *orderRun) drawKey(l *rollLink, s, e int) string {
	b := r.b
	var k strings.Builder
	fmt.Fprintf(&k, "%p", l)
	for _, i := range r.perm[s:e] {
		k.WriteString("|" + r.names[i])
	}
	for _, dk := range slices.SortedFunc(maps.Keys(b.decks), compareDeckKeys) {
		left := b.decks[dk]
		if rz := b.prog.randomizers[dk.deck]; len(left) == 0 && rz != nil && rz.refills() {
			continue
		}
		k.WriteString("\x00" + dk.deck + "\x00" + dk.side + "\x00" + strings.Join(left, "\x00"))
	}
	return k.String()
}

// errLoopStart is a forked computation's draw back where its first draw
// was (see drawLoop).
type errLoopStart struct{ pos dsl.Pos }

func (errLoopStart) Error() string { return "loop to the first draw" }

// deadDecks returns the decks whose contents after order o has been
// computed no longer matter: made whole before they are drawn from again.
// Such a deck is drawn from by o alone, which is computed once in a
// round at most (not until changed), and is made whole at the start of
// the next round (reshuffle each round) or at the end of this one (an
// unguarded `on end of round` rule that reshuffles it). The exact odds
// then need not tell apart the results of o that leave it otherwise:
// three cards dealt of thirteen would be 1,716 results, not one.
func (p *Program) deadDecks(o *order) map[string]bool {
	if o.scope.kind == dsl.UntilChanged {
		return nil
	}
	var dead map[string]bool
	for _, rz := range p.randomizerList {
		if !rz.drawn() {
			continue
		}
		whole := rz.reshuffle == dsl.ReshuffleEachRound
		for _, h := range p.handlers {
			if h.point == hpRoundEnd && h.when == nil {
				for _, a := range h.body {
					if ra, ok := a.(*reshuffleAction); ok && ra.rz == rz {
						whole = true
					}
				}
			}
		}
		if !whole {
			continue
		}
		only := true
		for _, other := range p.orderList {
			if other != o && drawsFrom(other.chain, rz) {
				only = false
			}
		}
		if only {
			if dead == nil {
				dead = map[string]bool{}
			}
			dead[rz.name] = true
		}
	}
	return dead
}

// drawsFrom reports whether a link of chain, or of its tie rules, draws
// from rz.
func drawsFrom(chain []link, rz *randomizer) bool {
	for _, l := range chain {
		switch x := l.(type) {
		case *rollLink:
			if x.rz == rz {
				return true
			}
		case *tieSet:
			for _, rule := range x.rules {
				if drawsFrom(rule.chain, rz) {
					return true
				}
			}
		}
	}
	return false
}
