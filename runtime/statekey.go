package runtime

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
)

// appendStateKey appends the battle's state key (see stateKey) without
// building a snapshot or encoding it by reflection: the same bytes
// json.Encoder writes for the snapshot, which is too slow for six
// players' later rounds, one key per path. It reports false, with
// dst as it was, for a state whose key it does not write itself: a round
// under way, events pending, values other than nil, booleans, ints and
// strings (JSON writes floats its own way), and places that carry a value
// (the analysis records none).
func (b *Battle) appendStateKey(dst []byte) ([]byte, bool) {
	if b.cur != nil && b.cur.Stage != "ended" || len(b.pending) > 0 {
		return dst, false
	}
	k := dst
	ok := true
	k = append(k, `{"ruleset":`...)
	k = appendKeyString(k, b.prog.name)
	k = append(k, `,"round":`...)
	k = strconv.AppendInt(k, int64(b.round), 10)
	k = append(k, `,"sides":[`...)
	var status []string
	for i, s := range b.sides {
		if i > 0 {
			k = append(k, ',')
		}
		k = append(k, `{"name":`...)
		k = appendKeyString(k, s.Name)
		if s.Team != "" {
			k = append(k, `,"team":`...)
			k = appendKeyString(k, s.Team)
		}
		if len(s.Attrs) > 0 {
			k = append(k, `,"attrs":`...)
			k, ok = appendKeyValues(k, s.Attrs)
			if !ok {
				return dst, false
			}
		}
		if len(s.Units) > 0 {
			k = append(k, `,"units":[`...)
			for j, u := range s.Units {
				if j > 0 {
					k = append(k, ',')
				}
				k = append(k, `{"name":`...)
				k = appendKeyString(k, u.Name)
				if len(u.Attrs) > 0 {
					k = append(k, `,"attrs":`...)
					if k, ok = appendKeyValues(k, u.Attrs); !ok {
						return dst, false
					}
				}
				status = status[:0]
				for st, on := range u.Status {
					if on {
						status = append(status, st)
					}
				}
				if len(status) > 0 {
					slices.Sort(status)
					k = append(k, `,"status":`...)
					k = appendKeyStrings(k, status)
				}
				if u.Ready {
					k = append(k, `,"ready":true`...)
				}
				k = append(k, '}')
			}
			k = append(k, ']')
		}
		k = append(k, '}')
	}
	k = append(k, ']')
	// The standings, by the name of their order, as encoding/json sorts a
	// map's keys.
	var named []int
	for i, st := range b.standings {
		if st != nil {
			named = append(named, i)
		}
	}
	if len(named) > 0 {
		slices.SortFunc(named, func(x, y int) int {
			return compareStrings(b.prog.orderList[x].name, b.prog.orderList[y].name)
		})
		k = append(k, `,"standings":{`...)
		for n, i := range named {
			if n > 0 && b.prog.orderList[i].name == b.prog.orderList[named[n-1]].name {
				return dst, false // one key twice: the map keeps one of them
			}
			if n > 0 {
				k = append(k, ',')
			}
			k = appendKeyString(k, b.prog.orderList[i].name)
			k = append(k, ':')
			if k, ok = appendKeyStanding(k, b.standings[i]); !ok {
				return dst, false
			}
		}
		k = append(k, '}')
	}
	m := b.memory
	k = append(k, `,"memory":{`...)
	comma := false
	field := func(name string) {
		if comma {
			k = append(k, ',')
		}
		comma = true
		k = append(k, '"')
		k = append(k, name...)
		k = append(k, `":`...)
	}
	if m.Holder != "" {
		field("holder")
		k = appendKeyString(k, m.Holder)
	}
	if m.Chooser != "" {
		field("chooser")
		k = appendKeyString(k, m.Chooser)
	}
	if len(m.Order) > 0 {
		field("order")
		k = appendKeyStrings(k, m.Order)
	}
	if len(m.Values) > 0 {
		field("values")
		if k, ok = appendKeyValues(k, m.Values); !ok {
			return dst, false
		}
	}
	k = append(k, '}')
	var done []string
	for i, d := range b.done {
		if d {
			done = append(done, b.prog.phaseKeys[i])
		}
	}
	if len(done) > 0 {
		slices.Sort(done)
		k = append(k, `,"done":`...)
		k = appendKeyStrings(k, done)
	}
	if len(b.removed) > 0 {
		units := slices.Sorted(maps.Keys(b.removed))
		k = append(k, `,"removed":{`...)
		for i, u := range units {
			if i > 0 {
				k = append(k, ',')
			}
			k = appendKeyString(k, u)
			k = append(k, ':')
			k = appendKeyString(k, b.removed[u])
		}
		k = append(k, '}')
	}
	if len(b.decks) > 0 {
		// As DeckState encodes, in the order deckStates sorts them.
		k = append(k, `,"decks":[`...)
		for i, dk := range slices.SortedFunc(maps.Keys(b.decks), compareDeckKeys) {
			if i > 0 {
				k = append(k, ',')
			}
			k = append(k, `{"deck":`...)
			k = appendKeyString(k, dk.deck)
			if dk.side != "" {
				k = append(k, `,"side":`...)
				k = appendKeyString(k, dk.side)
			}
			k = append(k, `,"left":`...)
			if left := b.decks[dk]; len(left) == 0 {
				k = append(k, "[]"...)
			} else {
				k = appendKeyStrings(k, left)
			}
			k = append(k, '}')
		}
		k = append(k, ']')
	}
	return append(k, '}'), true
}

func compareStrings(x, y string) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// appendKeyStanding appends a standing as encoding/json writes it.
func appendKeyStanding(k []byte, st *Standing) ([]byte, bool) {
	k = append(k, `{"name":`...)
	k = appendKeyString(k, st.Name)
	if st.Units {
		k = append(k, `,"units":true`...)
	}
	k = append(k, `,"order":`...)
	k = appendKeyStrings(k, st.Order)
	k = append(k, `,"places":`...)
	if st.Places == nil {
		k = append(k, "null"...)
	} else {
		k = append(k, '[')
		for i, pl := range st.Places {
			if pl.Value != nil {
				return k, false
			}
			if i > 0 {
				k = append(k, ',')
			}
			k = append(k, `{"subject":`...)
			k = appendKeyString(k, pl.Subject)
			k = append(k, `,"criterion":`...)
			k = appendKeyString(k, pl.Criterion)
			if pl.By != "" {
				k = append(k, `,"by":`...)
				k = appendKeyString(k, pl.By)
			}
			if pl.Pos != "" {
				k = append(k, `,"pos":`...)
				k = appendKeyString(k, pl.Pos)
			}
			if pl.Kept {
				k = append(k, `,"kept":true`...)
			}
			k = append(k, '}')
		}
		k = append(k, ']')
	}
	if st.Chooser != "" {
		k = append(k, `,"chooser":`...)
		k = appendKeyString(k, st.Chooser)
	}
	k = append(k, `,"round":`...)
	k = strconv.AppendInt(k, int64(st.Round), 10)
	if st.ChoiceRound != 0 {
		k = append(k, `,"choice_round":`...)
		k = strconv.AppendInt(k, int64(st.ChoiceRound), 10)
	}
	if len(st.Watched) > 0 {
		subjects := slices.Sorted(maps.Keys(st.Watched))
		k = append(k, `,"watched":{`...)
		for i, s := range subjects {
			if i > 0 {
				k = append(k, ',')
			}
			k = appendKeyString(k, s)
			k = append(k, ':')
			vals := st.Watched[s]
			if vals == nil {
				k = append(k, "null"...)
				continue
			}
			k = append(k, '[')
			for j, v := range vals {
				if j > 0 {
					k = append(k, ',')
				}
				var ok bool
				if k, ok = appendKeyValue(k, v); !ok {
					return k, false
				}
			}
			k = append(k, ']')
		}
		k = append(k, '}')
	}
	if len(st.Groups) > 0 {
		k = append(k, `,"groups":[`...)
		for i, g := range st.Groups {
			if i > 0 {
				k = append(k, ',')
			}
			k = append(k, `{"members":`...)
			k = appendKeyStrings(k, g.Members)
			if g.Chooser != "" {
				k = append(k, `,"chooser":`...)
				k = appendKeyString(k, g.Chooser)
			}
			if g.ChoiceRound != 0 {
				k = append(k, `,"choice_round":`...)
				k = strconv.AppendInt(k, int64(g.ChoiceRound), 10)
			}
			k = append(k, '}')
		}
		k = append(k, ']')
	}
	return append(k, '}'), true
}

// appendKeyValues appends a map of attributes or remembered values, its
// keys sorted, as encoding/json writes it. It reports false for a value
// other than nil, a bool, an int or a string.
func appendKeyValues(k []byte, m map[string]any) ([]byte, bool) {
	keys := slices.Sorted(maps.Keys(m))
	k = append(k, '{')
	for i, name := range keys {
		if i > 0 {
			k = append(k, ',')
		}
		k = appendKeyString(k, name)
		k = append(k, ':')
		var ok bool
		if k, ok = appendKeyValue(k, m[name]); !ok {
			return k, false
		}
	}
	return append(k, '}'), true
}

// appendKeyValue appends v as encoding/json writes it, if it is nil, a
// bool, an int or a string.
func appendKeyValue(k []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(k, "null"...), true
	case bool:
		return strconv.AppendBool(k, v), true
	case int:
		return strconv.AppendInt(k, int64(v), 10), true
	case string:
		return appendKeyString(k, v), true
	}
	return k, false
}

// appendKeyStrings appends a list of strings, null for none (nil).
func appendKeyStrings(k []byte, ss []string) []byte {
	if ss == nil {
		return append(k, "null"...)
	}
	k = append(k, '[')
	for i, s := range ss {
		if i > 0 {
			k = append(k, ',')
		}
		k = appendKeyString(k, s)
	}
	return append(k, ']')
}

// appendKeyString appends s quoted as encoding/json quotes it: printable
// ASCII but for the quote, the backslash and the characters it escapes
// for HTML (<, > and &) as it is, and any other string through
// encoding/json.
func appendKeyString(k []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendJSONString(k, s)
		}
	}
	k = append(k, '"')
	k = append(k, s...)
	return append(k, '"')
}

// appendJSONString appends s as encoding/json quotes it.
func appendJSONString(k []byte, s string) []byte {
	q, err := json.Marshal(s) // a string always encodes
	if err != nil {
		panic(err)
	}
	return append(k, q...)
}
