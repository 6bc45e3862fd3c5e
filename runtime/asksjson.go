package runtime

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
)

// What a battle asks of its dice and deciders (RollRequest, PickRequest,
// Decision), and a declared attribute (Attr), is encoded with its position as "file:line:col", as an
// Event's pos, not as the lexer's position struct: the outer Pos string
// below hides the embedded type's own.

// MarshalJSON encodes the request with pos as "file:line:col".
func (r RollRequest) MarshalJSON() ([]byte, error) {
	type plain RollRequest
	return json.Marshal(struct {
		plain
		Pos string `json:"pos,omitempty"`
	}{plain(r), posString(r.Pos)})
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (r *RollRequest) UnmarshalJSON(data []byte) error {
	type plain RollRequest
	var j struct {
		plain
		Pos string `json:"pos,omitempty"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	pos, err := parsePos(j.Pos)
	*r = RollRequest(j.plain)
	r.Pos = pos
	return err
}

// MarshalJSON encodes the request with pos as "file:line:col".
func (r PickRequest) MarshalJSON() ([]byte, error) {
	type plain PickRequest
	return json.Marshal(struct {
		plain
		Pos string `json:"pos,omitempty"`
	}{plain(r), posString(r.Pos)})
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (r *PickRequest) UnmarshalJSON(data []byte) error {
	type plain PickRequest
	var j struct {
		plain
		Pos string `json:"pos,omitempty"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	pos, err := parsePos(j.Pos)
	*r = PickRequest(j.plain)
	r.Pos = pos
	return err
}

// MarshalJSON encodes the decision with pos as "file:line:col".
func (d Decision) MarshalJSON() ([]byte, error) {
	type plain Decision
	return json.Marshal(struct {
		plain
		Pos string `json:"pos,omitempty"`
	}{plain(d), posString(d.Pos)})
}

// UnmarshalJSON decodes what MarshalJSON encodes.
func (d *Decision) UnmarshalJSON(data []byte) error {
	type plain Decision
	var j struct {
		plain
		Pos string `json:"pos,omitempty"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	pos, err := parsePos(j.Pos)
	*d = Decision(j.plain)
	d.Pos = pos
	return err
}

// MarshalJSON encodes the attribute with pos as "file:line:col".
func (a Attr) MarshalJSON() ([]byte, error) {
	type plain Attr
	return json.Marshal(struct {
		plain
		Pos string `json:"pos,omitempty"`
	}{plain(a), posString(a.Pos)})
}

// UnmarshalJSON decodes what MarshalJSON encodes. A whole-number default
// decodes as a float64, as any number in an interface does.
func (a *Attr) UnmarshalJSON(data []byte) error {
	type plain Attr
	var j struct {
		plain
		Pos string `json:"pos,omitempty"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	pos, err := parsePos(j.Pos)
	*a = Attr(j.plain)
	a.Pos = pos
	return err
}

// parsePos reads "file:line:col" (the file may hold colons itself), or
// "" for no position.
func parsePos(s string) (dsl.Pos, error) {
	if s == "" {
		return dsl.Pos{}, nil
	}
	rest, col, ok1 := cutLast(s)
	file, line, ok2 := cutLast(rest)
	l, err1 := strconv.Atoi(line)
	c, err2 := strconv.Atoi(col)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || l < 1 || c < 1 {
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
