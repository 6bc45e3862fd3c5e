package runtime

// scratch is memory that order computations borrow, so that a round in
// steady state allocates nothing: permutations of subject indices, block
// ends, sort keys, names and reasons. A computation takes what it needs
// and never gives it back; the whole arena is reused when the next
// top-level computation starts. Nothing taken from it may outlive the
// computation: standings, events, and whatever is handed to a host's Dice
// or Decider get their own copies.
type scratch struct {
	depth int // computations under way (a decider may change attributes, which recomputes)
	ints  []int
	cuts  []bool
	keys  []float64
	names []string
	whys  []why
}

// begin starts a computation, which must call end when it is over.
func (s *scratch) begin() {
	if s.depth == 0 {
		s.ints, s.cuts, s.keys, s.names, s.whys = s.ints[:0], s.cuts[:0], s.keys[:0], s.names[:0], s.whys[:0]
	}
	s.depth++
}

func (s *scratch) end() { s.depth-- }

// take returns n elements of buf whose capacity is exactly n, so that
// appending to them never writes over another taker's elements. They hold
// whatever an earlier computation left: takers fill them (or clear them).
// When buf is full it is replaced; slices already taken keep the old one.
func take[T any](buf *[]T, n int) []T {
	if cap(*buf)-len(*buf) < n {
		*buf = make([]T, 0, max(2*cap(*buf), n, 32))
	}
	l := len(*buf)
	*buf = (*buf)[:l+n]
	return (*buf)[l : l+n : l+n]
}

// rewound returns s, the scratch as it was when a forked part was saved,
// to run the part again (see orderRun.restore), keeping any larger arrays
// that cur, the scratch since, has taken from: what was taken before the
// save is still where s has it, and what the part's run took since is
// forgotten with it. Putting s back as it was would make every run of the
// part that fills an array allocate a new one again.
func (s scratch) rewound(cur scratch) scratch {
	s.ints = rewind(s.ints, cur.ints)
	s.cuts = rewind(s.cuts, cur.cuts)
	s.keys = rewind(s.keys, cur.keys)
	s.names = rewind(s.names, cur.names)
	s.whys = rewind(s.whys, cur.whys)
	return s
}

// rewind returns saved's length of cur when cur is a larger array take
// has replaced saved's with since: its first elements belong to nobody
// (take starts a new array at its start), and what is taken next comes
// after them.
func rewind[T any](saved, cur []T) []T {
	if cap(cur) > cap(saved) {
		return cur[:len(saved)]
	}
	return saved
}

// interned holds the orders a battle has made, by permKey: the last few
// in a small table that is quicker than the map.
type interned struct {
	hot [8]struct {
		key   uint64
		order []string
	}
	all map[uint64][]string
}

// internOrder returns names[perm[0]], names[perm[1]], ... as a slice that
// is never changed: a standing's order is shared with the memory and the
// round's record, and an order that comes out as an earlier one did reuses
// its slice instead of allocating. names are the subjects the computation
// started with; if they are no longer the battle's (a unit was removed
// meanwhile), the order is not cached.
func (b *Battle) internOrder(units bool, names []string, perm []int) []string {
	key, ok := permKey(perm)
	if cur := b.subjectNames(units); len(cur) != len(names) || len(names) > 0 && &cur[0] != &names[0] {
		ok = false
	}
	t := &b.orders[0]
	if units {
		t = &b.orders[1]
	}
	return t.intern(key, ok, names, perm)
}

// intern is internOrder given perm's key, if ok.
func (t *interned) intern(key uint64, ok bool, names []string, perm []int) []string {
	hot := &t.hot[(key*0x9E3779B97F4A7C15)>>61]
	if ok {
		if hot.key == key && hot.order != nil {
			return hot.order
		}
		if out, hit := t.all[key]; hit {
			hot.key, hot.order = key, out
			return out
		}
	}
	out := make([]string, len(perm))
	for i, j := range perm {
		out[i] = names[j]
	}
	if ok && len(t.all) < maxInterned {
		if t.all == nil {
			t.all = map[uint64][]string{}
		}
		t.all[key] = out
		hot.key, hot.order = key, out
	}
	return out
}

// maxInterned bounds the orders a battle remembers per kind of subject.
const maxInterned = 4096

// permKey packs a permutation of up to 15 subjects into 4 bits each
// (index+1, so that a shorter one never collides with a longer one).
func permKey(perm []int) (uint64, bool) {
	if len(perm) > 15 {
		return 0, false
	}
	var key uint64
	for i, j := range perm {
		if j >= 15 {
			return 0, false
		}
		key |= uint64(j+1) << (4 * i)
	}
	return key, true
}
