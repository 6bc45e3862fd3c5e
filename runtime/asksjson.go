package runtime

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// What a battle asks of its dice and deciders (RollRequest, PickRequest,
// Decision), and a declared attribute (Attr), is encoded with its position
// as "file:line:col", as an Event's pos, not as the lexer's position
// struct: each type's Pos is left out of its fields' JSON ("-") and put
// back as a string, last, by marshalAt and unmarshalAt.

// MarshalJSON encodes the request with pos as "file:line:col".
func (r RollRequest) MarshalJSON() ([]byte, error) {
	type plain RollRequest
	return marshalAt(plain(r), r.Pos)
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (r *RollRequest) UnmarshalJSON(data []byte) error {
	type plain RollRequest
	return unmarshalAt(data, (*plain)(r), &r.Pos)
}

// MarshalJSON encodes the request with pos as "file:line:col".
func (r PickRequest) MarshalJSON() ([]byte, error) {
	type plain PickRequest
	return marshalAt(plain(r), r.Pos)
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (r *PickRequest) UnmarshalJSON(data []byte) error {
	type plain PickRequest
	return unmarshalAt(data, (*plain)(r), &r.Pos)
}

// MarshalJSON encodes the decision with pos as "file:line:col".
func (d Decision) MarshalJSON() ([]byte, error) {
	type plain Decision
	return marshalAt(plain(d), d.Pos)
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (d *Decision) UnmarshalJSON(data []byte) error {
	type plain Decision
	return unmarshalAt(data, (*plain)(d), &d.Pos)
}

// MarshalJSON encodes the attribute with pos as "file:line:col".
func (a Attr) MarshalJSON() ([]byte, error) {
	type plain Attr
	return marshalAt(plain(a), a.Pos)
}

// UnmarshalJSON decodes what MarshalJSON encodes. The default is
// converted to the attribute's type, as Program.UnitAttrs gives it: an
// int attribute's 3 is an int, not the float64 of any number in an
// interface.
func (a *Attr) UnmarshalJSON(data []byte) error {
	type plain Attr
	if err := unmarshalAt(data, (*plain)(a), &a.Pos); err != nil {
		return err
	}
	if a.Default != nil {
		if v, err := convertAttr(a.Default, a.Type); err == nil {
			a.Default = v
		}
	}
	return nil
}

// marshalAt encodes v, a JSON object without a pos, with "pos" added last
// as "file:line:col" (and left out for no position).
func marshalAt(v any, pos dsl.Pos) ([]byte, error) {
	data, err := json.Marshal(v)
	at := posString(pos) // "" for a position without a line, which names no place
	if err != nil || at == "" {
		return data, err
	}
	quoted, err := json.Marshal(at)
	if err != nil {
		return nil, err
	}
	out := append(data[:len(data)-1:len(data)-1], ","...)
	if len(data) == 2 { // {}
		out = out[:1]
	}
	out = append(out, `"pos":`...)
	out = append(out, quoted...)
	return append(out, '}'), nil
}

// unmarshalAt decodes what marshalAt encodes: v's fields, and the position
// into pos. As encoding/json does with a field, it leaves pos as it was
// when "pos" is not there, and v too for null.
func unmarshalAt(data []byte, v any, pos *dsl.Pos) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	var j struct {
		Pos *string `json:"pos"`
	}
	if err := json.Unmarshal(data, &j); err != nil || j.Pos == nil {
		return err
	}
	p, err := parsePos(*j.Pos)
	if err != nil {
		return err
	}
	*pos = p
	return nil
}

// parsePos reads "file:line:col" (the file may hold colons itself), or
// "" for no position. The column may be 0, as in a position made by hand
// with a line alone, which posString writes as it is.
func parsePos(s string) (dsl.Pos, error) {
	if s == "" {
		return dsl.Pos{}, nil
	}
	rest, col, ok1 := cutLast(s)
	file, line, ok2 := cutLast(rest)
	l, err1 := strconv.Atoi(line)
	c, err2 := strconv.Atoi(col)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || l < 1 || c < 0 {
		return dsl.Pos{}, fmt.Errorf("pos %q: want file:line:col", s)
	}
	return dsl.Pos{Filename: file, Line: l, Column: c}, nil
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
