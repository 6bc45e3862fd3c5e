package runtime

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrLimit is wrapped by errors from going over a Limits bound.
var ErrLimit = errors.New("limit reached")

// orderRun is one computation of an order procedure. Subjects are indices
// into the battle's sides or units; a block is a group still tied.
type orderRun struct {
	b       *Battle
	o       *order
	live    bool // ctx can be cancelled (asked once: the chain checks at every link)
	names   []string
	reason  []why // by subject
	chooser string
	choseIn int // the round chooser chose in
	rerolls int
	groups  []TieGroup
	// For an until-changed recomputation: the previous standing, and which
	// subjects' watched values changed since it was made.
	prev    *Standing
	changed []bool
}

// why is what placed a subject, noted cheaply during a computation and
// made into a Place at its end.
type why struct {
	m    *meta  // the link that placed it; nil if none did
	by   string // who chose, for a choice
	kept *Place // for a kept tie, the earlier placement
}

// fill writes the placement of subject into p, field by field (building
// a Place and copying it in costs more).
func (w *why) fill(p *Place, subject string) {
	switch {
	case w.kept != nil:
		*p = *w.kept
	case w.m == nil:
		p.Criterion, p.By, p.Pos = "setup order (still tied)", "", ""
	default:
		p.Criterion, p.By, p.Pos = w.m.desc, w.by, w.m.at
	}
	p.Subject = subject
}

// subjectNames returns the names of the sides or of the units, in setup
// order. The slice is shared: do not change it.
func (b *Battle) subjectNames(units bool) []string {
	if b.names[0] == nil {
		for _, s := range b.sides {
			b.names[0] = append(b.names[0], s.Name)
		}
		for _, u := range b.units {
			b.names[1] = append(b.names[1], u.Name)
		}
		if b.names[1] == nil {
			b.names[1] = []string{}
		}
	}
	if units {
		return b.names[1]
	}
	return b.names[0]
}

// computeOrder runs o and stores the standing.
func (b *Battle) computeOrder(ctx context.Context, o *order) error {
	defer b.scr.begin()()
	r := &orderRun{b: b, o: o, names: b.subjectNames(o.units), live: ctx.Done() != nil}
	r.reason = take(&b.scr.whys, len(r.names))
	clear(r.reason)
	if o.scope.kind == "changed" {
		if prev := b.standings[o.id]; prev != nil {
			r.prev = prev
			r.changed = make([]bool, len(r.names))
			for i, n := range r.names {
				r.changed[i] = !slices.Equal(prev.Watched[n], b.watchedValues(o, i))
			}
		}
	}
	all := take(&b.scr.ints, len(r.names))
	for i := range all {
		all[i] = i
	}
	blocks, err := r.run(ctx, o.chain, all, nil, nil, 0)
	if err != nil {
		return err
	}
	// A standing is never changed once made (the round's checkpoint may
	// hold it): fill the spare, unless an aborted round put it back.
	if b.spare == nil {
		b.spare = make([]*Standing, len(b.standings))
	}
	st := b.spare[o.id]
	if st == nil || st == b.standings[o.id] || o.scope.kind == "changed" || b.check.holds(o.id, st) {
		st = &Standing{}
	}
	st.Name, st.Units, st.Round, st.Chooser, st.ChoiceRound = o.name, o.units, b.now(), r.chooser, r.choseIn
	st.Places = slices.Grow(st.Places[:0], len(r.names))[:len(r.names)]
	perm := take(&b.scr.ints, len(r.names))[:0]
	place := 0
	for _, bl := range blocks {
		if len(bl) > 1 && b.transcript {
			b.emit(Event{Kind: EvTie, Standing: o.name, Subjects: r.namesOf(bl), Rule: "the end of the order",
				Detail: "still tied; they keep their setup order", Pos: posString(o.pos)})
		}
		for _, i := range bl {
			place++
			pl := &st.Places[len(perm)]
			perm = append(perm, i)
			r.reason[i].fill(pl, r.names[i])
			if b.transcript {
				b.emit(Event{Kind: EvPlacement, Standing: o.name, Subject: pl.Subject, Place: place, Rule: pl.Criterion, By: pl.By, Pos: pl.Pos})
			}
		}
	}
	st.Order = b.internOrder(o.units, r.names, perm)
	if o.scope.kind == "changed" {
		st.Watched = map[string][]any{}
		for i, n := range r.names {
			st.Watched[n] = b.watchedValues(o, i)
		}
		st.Groups = r.groups
	}
	b.check.replacing(b, o.id)
	if o.scope.kind != "changed" {
		b.spare[o.id] = b.standings[o.id]
	}
	b.standings[o.id] = st
	b.changed()
	return nil
}

func (b *Battle) watchedValues(o *order, i int) []any {
	out := make([]any, len(o.scope.watched))
	for k, w := range o.scope.watched {
		if o.units {
			u := b.units[i]
			if v, ok := u.Attrs[w]; ok {
				out[k] = v
			} else if v, ok := u.Side.Attrs[w]; ok {
				out[k] = v
			} else {
				out[k] = u.Status[w]
			}
		} else {
			out[k] = b.sides[i].Attrs[w]
		}
	}
	return out
}

// namesOf returns the names of bl's subjects in a new slice, for what
// outlives the computation.
func (r *orderRun) namesOf(bl []int) []string {
	out := make([]string, len(bl))
	for i, j := range bl {
		out[i] = r.names[j]
	}
	return out
}

// scratchNames is namesOf in scratch memory, for the battle's own use.
func (r *orderRun) scratchNames(bl []int) []string {
	out := take(&r.b.scr.names, len(bl))
	for i, j := range bl {
		out[i] = r.names[j]
	}
	return out
}

func (r *orderRun) place(bl []int, l link) {
	m := l.info()
	for _, i := range bl {
		r.reason[i] = why{m: m}
	}
}

// run applies a chain to one group and returns the group's blocks in order.
// roll is the latest roll (for reroll), ties the tie rules a reroll
// re-applies, attempt the reroll count of this group.
func (r *orderRun) run(ctx context.Context, chain []link, group []int, roll *rollLink, ties *tieSet, attempt int) ([][]int, error) {
	blocks := append(r.b.scr.list(len(group)), group)
	for _, l := range chain {
		if r.live {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if c, ok := l.(*choiceLink); ok {
			var err error
			if blocks, err = r.choice(ctx, c, blocks); err != nil {
				return nil, err
			}
			continue
		}
		if x, ok := l.(*rollLink); ok {
			roll = x
		}
		if !anyTied(blocks) {
			continue
		}
		out := r.b.scr.list(len(group))
		for _, bl := range blocks {
			if len(bl) < 2 {
				out = append(out, bl)
				continue
			}
			got, err := r.apply(ctx, l, bl, roll, ties, attempt)
			if err != nil {
				return nil, err
			}
			out = append(out, got...)
		}
		blocks = out
	}
	return blocks, nil
}

func anyTied(blocks [][]int) bool {
	for _, bl := range blocks {
		if len(bl) > 1 {
			return true
		}
	}
	return false
}

// apply resolves one tied block with one link.
func (r *orderRun) apply(ctx context.Context, l link, bl []int, roll *rollLink, ties *tieSet, attempt int) ([][]int, error) {
	switch x := l.(type) {
	case *valueLink:
		return r.byValue(x, bl)
	case *rollLink:
		return r.byRoll(ctx, x, bl, 0)
	case *randomLink:
		return r.random(ctx, x, bl)
	case *tieSet:
		return r.tie(ctx, x, bl, roll, 0)
	case *rerollLink:
		return r.reroll(ctx, x, bl, roll, ties, attempt)
	case *awardLink:
		return r.award(x, bl)
	}
	return append(r.b.scr.list(1), bl), nil
}

// split orders a block by key (descending when dir > 0), grouping equal
// keys into new blocks, and notes l as the reason for every subject it
// separated.
func (r *orderRun) split(bl []int, keys []float64, dir int, l link) [][]int {
	before := func(a, c int) bool { // a strictly before c
		if dir > 0 {
			return keys[a] > keys[c]
		}
		return keys[a] < keys[c]
	}
	if len(bl) == 2 && keys[0] != keys[1] { // the common case: two, not tied
		first, second := bl[0], bl[1]
		if before(1, 0) {
			first, second = second, first
		}
		out := append(r.b.scr.list(2), r.b.scr.one(first), r.b.scr.one(second))
		r.place(out[0], l)
		r.place(out[1], l)
		return out
	}
	idx := take(&r.b.scr.ints, len(bl))
	for i := range idx {
		idx[i] = i
	}
	// Insertion sort: stable, and groups are small.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && before(idx[j], idx[j-1]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	out := r.b.scr.list(len(bl))
	for k := 0; k < len(idx); {
		j := k
		for j < len(idx) && keys[idx[j]] == keys[idx[k]] {
			j++
		}
		nb := take(&r.b.scr.ints, j-k)[:0]
		for _, x := range idx[k:j] {
			nb = append(nb, bl[x])
		}
		if len(nb) == 1 {
			r.place(nb, l)
		}
		out = append(out, nb)
		k = j
	}
	return out
}

func (r *orderRun) number(c *compiled, i int) (float64, error) {
	if c.fast != nil && c.fast.i != nil {
		return float64(c.fast.i(fenv{b: r.b, subj: i})), nil
	}
	out, err := r.b.evalSubject(c, r.o.units, i)
	if err != nil {
		return 0, fmt.Errorf("%s: %s for %s: %v", posString(c.pos), quoteSrc(c.src), r.names[i], err)
	}
	f, ok := toFloat(out)
	if !ok {
		return 0, fmt.Errorf("%s: %s for %s is %v, not a number", posString(c.pos), quoteSrc(c.src), r.names[i], out)
	}
	return f, nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case int32:
		return float64(x), true
	case float32:
		return float64(x), true
	case uint:
		return float64(x), true
	}
	return 0, false
}

func (r *orderRun) byValue(l *valueLink, bl []int) ([][]int, error) {
	keys := take(&r.b.scr.keys, len(bl))
	for k, i := range bl {
		v, err := r.number(l.e, i)
		if err != nil {
			return nil, err
		}
		keys[k] = v
	}
	return r.split(bl, keys, l.dir, l), nil
}

func (r *orderRun) byRoll(ctx context.Context, l *rollLink, bl []int, attempt int) ([][]int, error) {
	b := r.b
	var mods []int
	if l.mod != nil {
		mods = take(&b.scr.ints, len(bl))
		for k, i := range bl {
			m, err := r.number(l.mod, i)
			if err != nil {
				return nil, err
			}
			mods[k] = int(m)
		}
	}
	var nat []int
	if sd := b.seeded; sd != nil {
		// Our own dice keep nothing they are given: roll into scratch.
		nat = take(&b.scr.ints, len(bl))
		sd.RollInto(nat, l.count, l.faces)
	} else {
		req := RollRequest{Round: b.now(), Standing: r.o.name, Subjects: r.namesOf(bl), Count: l.count, Faces: l.faces,
			Attempt: attempt, Modifiers: slices.Clone(mods), Pos: l.pos}
		var err error
		if nat, err = b.dice.Roll(ctx, req); err != nil {
			return nil, err
		}
		if len(nat) != len(bl) {
			return nil, fmt.Errorf("dice returned %d results for %d subjects", len(nat), len(bl))
		}
	}
	keys := take(&b.scr.keys, len(bl))
	for k := range bl {
		total := nat[k]
		if mods != nil {
			total += mods[k]
		}
		keys[k] = float64(total)
		if b.transcript {
			b.emit(Event{Kind: EvRoll, Standing: r.o.name, Subject: r.names[bl[k]], Value: b.intp(nat[k]), Total: b.intp(total),
				Rule: l.desc, Pos: l.at})
		}
	}
	out := r.split(bl, keys, l.dir, l)
	if b.transcript {
		for _, nb := range out {
			if len(nb) > 1 {
				b.emit(Event{Kind: EvTie, Standing: r.o.name, Subjects: r.namesOf(nb), Rule: l.desc, Pos: l.at})
			}
		}
	}
	return out, nil
}

func (r *orderRun) random(ctx context.Context, l *randomLink, bl []int) ([][]int, error) {
	b := r.b
	rest := b.scr.copyOf(bl)
	out := b.scr.list(len(bl))
	for len(rest) > 1 {
		req := PickRequest{Round: b.now(), Standing: r.o.name, Pos: l.pos}
		if b.seeded != nil {
			req.Options = r.scratchNames(rest)
		} else {
			req.Options = r.namesOf(rest)
		}
		k, err := b.dice.Pick(ctx, req)
		if err != nil {
			return nil, err
		}
		if k < 0 || k >= len(rest) {
			return nil, fmt.Errorf("random pick %d is out of range", k)
		}
		if b.transcript {
			b.emit(Event{Kind: EvRandom, Standing: r.o.name, Subject: r.names[rest[k]], Subjects: r.namesOf(rest), Rule: "random", Pos: l.at})
		}
		out = append(out, b.scr.one(rest[k]))
		rest = slices.Delete(rest, k, k+1)
	}
	out = append(out, rest)
	for _, nb := range out {
		r.place(nb, l)
	}
	return out, nil
}

// tie resolves a tied block with the first tie rule whose guard holds.
func (r *orderRun) tie(ctx context.Context, ts *tieSet, bl []int, roll *rollLink, attempt int) ([][]int, error) {
	if r.prev != nil {
		if kept := r.keep(bl); kept != nil {
			return kept, nil
		}
	}
	for _, rule := range ts.rules {
		if rule.when != nil {
			ok, err := r.guard(rule.when, bl)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		outer, outerRound := r.chooser, r.choseIn
		r.chooser, r.choseIn = "", 0
		out, err := r.run(ctx, rule.chain, bl, roll, ts, attempt)
		if err != nil {
			return nil, err
		}
		if r.o.scope.kind == "changed" {
			r.groups = append(r.groups, TieGroup{Members: r.namesOf(bl), Chooser: r.chooser, ChoiceRound: r.choseIn})
		}
		if outer != "" {
			r.chooser, r.choseIn = outer, outerRound
		}
		return out, nil
	}
	return append(r.b.scr.list(1), bl), nil
}

// keep implements "until changed": a tie among subjects whose watched
// values have not changed since it was resolved keeps its old order; only
// a new tie is resolved again.
func (r *orderRun) keep(bl []int) [][]int {
	if r.prev == nil {
		return nil
	}
	for _, i := range bl {
		if r.changed[i] {
			return nil
		}
	}
	names := r.namesOf(bl)
	for _, g := range r.prev.Groups {
		if !isSubset(names, g.Members) {
			continue
		}
		slices.SortFunc(bl, func(a, c int) int {
			return slices.Index(r.prev.Order, r.names[a]) - slices.Index(r.prev.Order, r.names[c])
		})
		out := r.b.scr.list(len(bl))
		for _, i := range bl {
			out = append(out, r.b.scr.one(i))
			r.reason[i] = why{kept: &r.prev.Places[slices.Index(r.prev.Order, r.names[i])]}
		}
		r.groups = append(r.groups, TieGroup{Members: r.namesOf(bl), Chooser: g.Chooser, ChoiceRound: g.ChoiceRound})
		if r.chooser == "" {
			r.chooser, r.choseIn = g.Chooser, g.ChoiceRound
		}
		r.b.emit(Event{Kind: EvKept, Standing: r.o.name, Subjects: r.namesOf(bl),
			Detail: "their values have not changed since the tie was resolved"})
		return out
	}
	return nil
}

func isSubset(xs, of []string) bool {
	for _, x := range xs {
		if !slices.Contains(of, x) {
			return false
		}
	}
	return true
}

func (r *orderRun) guard(c *compiled, bl []int) (bool, error) {
	if c.fast != nil && c.fast.b != nil {
		return c.fast.b(fenv{b: r.b, tied: bl}), nil
	}
	out, err := r.b.evalGroup(c, r.o.units, bl)
	if err != nil {
		return false, fmt.Errorf("%s: %s: %v", posString(c.pos), quoteSrc(c.src), err)
	}
	v, ok := out.(bool)
	if !ok {
		return false, fmt.Errorf("%s: %s is %v, not true or false", posString(c.pos), quoteSrc(c.src), out)
	}
	return v, nil
}

func (r *orderRun) reroll(ctx context.Context, l *rerollLink, bl []int, roll *rollLink, ties *tieSet, attempt int) ([][]int, error) {
	r.rerolls++
	if r.rerolls > r.b.prog.limits.MaxRerolls {
		return nil, fmt.Errorf("%s: order %s: still tied after %d rerolls (%s): %w",
			posString(l.pos), r.o.name, r.b.prog.limits.MaxRerolls, strings.Join(r.namesOf(bl), ", "), ErrLimit)
	}
	if r.b.transcript {
		r.b.emit(Event{Kind: EvReroll, Standing: r.o.name, Subjects: r.namesOf(bl), Rule: roll.desc, Pos: l.at})
	}
	parts, err := r.byRoll(ctx, roll, bl, attempt+1)
	if err != nil {
		return nil, err
	}
	out := r.b.scr.list(len(bl))
	for _, nb := range parts {
		if len(nb) > 1 && ties != nil {
			got, err := r.tie(ctx, ties, nb, roll, attempt+1)
			if err != nil {
				return nil, err
			}
			out = append(out, got...)
			continue
		}
		out = append(out, nb)
	}
	return out, nil
}

func (r *orderRun) award(l *awardLink, bl []int) ([][]int, error) {
	name, err := r.b.groupString(l.e, r.o.units, bl)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", posString(l.pos), quoteSrc(l.describe()), err)
	}
	k := slices.IndexFunc(bl, func(i int) bool { return r.names[i] == name })
	if k < 0 {
		what := fmt.Sprintf("%q", name)
		if name == "" {
			what = "nobody"
		}
		return nil, fmt.Errorf("%s: %s names %s, who is not among the tied (%s)",
			posString(l.pos), quoteSrc(l.describe()), what, strings.Join(r.namesOf(bl), ", "))
	}
	who := r.b.scr.one(bl[k])
	rest := slices.Delete(r.b.scr.copyOf(bl), k, k+1)
	r.place(who, l)
	if len(rest) == 1 {
		r.place(rest, l)
	}
	out := r.b.scr.list(2)
	if l.not {
		if r.b.transcript {
			r.b.emit(Event{Kind: EvAward, Standing: r.o.name, Subject: r.names[rest[0]], Subjects: r.namesOf(bl), Rule: l.desc,
				Detail: "the others go before " + name, Pos: l.at})
		}
		return append(out, rest, who), nil
	}
	if r.b.transcript {
		r.b.emit(Event{Kind: EvAward, Standing: r.o.name, Subject: name, Subjects: r.namesOf(bl), Rule: l.desc,
			Detail: name + " goes first", Pos: l.at})
	}
	return append(out, who, rest), nil
}

// choice lets a participant arrange the whole group.
func (r *orderRun) choice(ctx context.Context, l *choiceLink, blocks [][]int) ([][]int, error) {
	b := r.b
	n := 0
	for _, bl := range blocks {
		n += len(bl)
	}
	if n < 2 {
		return blocks, nil
	}
	group := take(&b.scr.ints, n)[:0]
	for _, bl := range blocks {
		group = append(group, bl...)
	}
	by, self, err := r.who(l, blocks)
	if err != nil {
		return nil, err
	}
	me := slices.IndexFunc(group, func(i int) bool { return r.names[i] == self })
	if me < 0 {
		// The role speaks for someone outside this group (a side, when
		// units are arranged, or another order's first).
		if l.kind == "before_after" {
			return nil, fmt.Errorf("%s: %s: %s is not among %s, so it cannot go before or after them",
				l.at, quoteSrc(l.desc), orNobody(self), strings.Join(r.namesOf(group), ", "))
		}
		self = ""
	}
	// The ruleset's policy, as the answer and the order it makes
	// (positions in group).
	order := take(&b.scr.ints, n)[:0]
	var answer string
	switch l.kind {
	case "first":
		first := 0
		switch {
		case l.policy == "self" && me >= 0:
			first = me
		case l.policy == "other" && me == 0:
			first = 1 // the first of the others
		}
		answer = r.names[group[first]]
		order = putFirst(order, n, first, true)
	case "before_after":
		answer = l.policy
		order = putFirst(order, n, me, answer == "before")
	default:
		for k := range n {
			order = append(order, k)
		}
		if l.policy == "reverse" {
			slices.Reverse(order)
		}
	}
	if !b.policyDecides() || b.transcript {
		ans, err := r.ask(ctx, l, by, self, group, answer, order)
		if err != nil {
			return nil, err
		}
		if ans != nil {
			order = order[:0]
			switch l.kind {
			case "first":
				order = putFirst(order, n, slices.IndexFunc(group, func(i int) bool { return r.names[i] == ans[0] }), true)
			case "before_after":
				order = putFirst(order, n, me, ans[0] == "before")
			default:
				for _, name := range ans {
					order = append(order, slices.IndexFunc(group, func(i int) bool { return r.names[i] == name }))
				}
			}
		}
	}
	if r.chooser == "" {
		r.chooser, r.choseIn = by, b.now()
	}
	out := b.scr.list(n)
	for _, k := range order {
		i := group[k]
		out = append(out, b.scr.one(i))
		r.reason[i] = why{m: &l.meta, by: by}
	}
	return out, nil
}

// putFirst appends positions 0..n-1 to order with k first (or, if !first,
// last), the others keeping their order.
func putFirst(order []int, n, k int, first bool) []int {
	if first {
		order = append(order, k)
	}
	for j := range n {
		if j != k {
			order = append(order, j)
		}
	}
	if !first {
		order = append(order, k)
	}
	return order
}

// ask puts a choice to the decider, whose default is the policy's answer
// (or, for an arrangement, order), notes it in the transcript, and returns
// the answer, or nil when it is the default.
func (r *orderRun) ask(ctx context.Context, l *choiceLink, by, self string, group []int, answer string, order []int) ([]string, error) {
	b := r.b
	names := r.namesOf(group)
	d := Decision{By: by, Self: self, Round: b.now(), Standing: r.o.name, Pos: l.pos, Options: names}
	switch l.kind {
	case "first":
		d.Kind, d.Default = ChooseFirst, []string{answer}
	case "before_after":
		d.Kind, d.Options, d.Default = ChooseBeforeAfter, []string{"before", "after"}, []string{answer}
	default:
		d.Kind = ChooseOrder
		for _, k := range order {
			d.Default = append(d.Default, names[k])
		}
	}
	ans, err := b.decide(ctx, d)
	if err != nil {
		return nil, err
	}
	if b.transcript {
		b.emit(Event{Kind: EvDecision, Standing: r.o.name, By: by, Choice: slices.Clone(ans), Subjects: slices.Clone(names),
			Rule: l.desc, Detail: string(d.Kind), Pos: l.at})
	}
	if slices.Equal(ans, d.Default) {
		return nil, nil
	}
	return ans, nil
}

func orNobody(s string) string {
	if s == "" {
		return "nobody"
	}
	return s
}

// who resolves a choice's role to the deciding participant (a side or a
// team) and the subject it speaks for, if any.
func (r *orderRun) who(l *choiceLink, blocks [][]int) (by, self string, err error) {
	b := r.b
	first, last := blocks[0], blocks[len(blocks)-1]
	sideOf := func(i int) string {
		if r.o.units {
			return b.units[i].Side.Name
		}
		return b.sides[i].Name
	}
	unresolved := func(bl []int) error {
		return fmt.Errorf("%s: %s: the %s is not decided yet: %s are still tied (add a tie rule before the choice)",
			posString(l.pos), quoteSrc(l.describe()), l.role, strings.Join(r.namesOf(bl), ", "))
	}
	switch l.role {
	case "winner":
		if len(first) > 1 {
			return "", "", unresolved(first)
		}
		return sideOf(first[0]), r.names[first[0]], nil
	case "loser":
		if len(last) > 1 {
			return "", "", unresolved(last)
		}
		return sideOf(last[0]), r.names[last[0]], nil
	case "team":
		team := ""
		for _, bl := range blocks {
			for _, i := range bl {
				t := b.sides[0].Team
				if r.o.units {
					t = b.units[i].Side.Team
				} else {
					t = b.sides[i].Team
				}
				if team != "" && t != team || t == "" {
					return "", "", fmt.Errorf("%s: %s: the tied subjects are not all on one team", posString(l.pos), quoteSrc(l.describe()))
				}
				team = t
			}
		}
		return team, "", nil
	case "holder", "previous.holder", "chooser", "previous.chooser":
		var who string
		switch l.role {
		case "holder":
			who = b.cur.Holder
		case "chooser":
			who = b.cur.Chooser
		case "previous.holder":
			who = b.memory.Holder
		default:
			who = b.memory.Chooser
		}
		if who == "" {
			return "", "", fmt.Errorf("%s: %s: there is no %s yet", posString(l.pos), quoteSrc(l.describe()), l.role)
		}
		return b.sideOfName(who), who, nil
	}
	// ORDER.first / ORDER.last
	name, end, _ := strings.Cut(l.role, ".")
	st := b.standingOf(name)
	if st == nil || len(st.Order) == 0 {
		return "", "", fmt.Errorf("%s: %s: order %s has not been made yet", posString(l.pos), quoteSrc(l.describe()), name)
	}
	who := st.Order[0]
	if end == "last" {
		who = st.Order[len(st.Order)-1]
	}
	return b.sideOfName(who), who, nil
}

// sideOfName maps a unit to its side; a side maps to itself.
func (b *Battle) sideOfName(n string) string {
	if u := b.unitByNm[n]; u != nil {
		return u.Side.Name
	}
	return n
}
