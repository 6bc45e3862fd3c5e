package runtime

import (
	"bytes"
	"encoding/json"
	"slices"
)

// unitJSON is a Unit as JSON (see Unit).
type unitJSON struct {
	Name     string         `json:"name"`
	Side     string         `json:"side,omitempty"`
	Attrs    map[string]any `json:"attrs,omitempty"`
	Statuses []string       `json:"statuses,omitempty"`
	Ready    bool           `json:"ready,omitempty"`
}

// MarshalJSON encodes the unit with its side's name in place of the side,
// which holds the unit itself.
func (u Unit) MarshalJSON() ([]byte, error) {
	j := unitJSON{Name: u.Name, Attrs: u.Attrs, Ready: u.Ready}
	if u.Side != nil {
		j.Side = u.Side.Name
	}
	for st, on := range u.Status {
		if on {
			j.Statuses = append(j.Statuses, st)
		}
	}
	slices.Sort(j.Statuses)
	return json.Marshal(j)
}

// UnmarshalJSON decodes what MarshalJSON encodes. A unit decoded alone
// gets a Side that has only the side's name (and the unit): a Side
// decoded with its units points them to itself instead.
func (u *Unit) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil // as encoding/json leaves a struct
	}
	var j unitJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*u = Unit{Name: j.Name, Attrs: j.Attrs, Ready: j.Ready}
	if j.Side != "" {
		u.Side = &Side{Name: j.Side, Units: []*Unit{u}}
	}
	if len(j.Statuses) > 0 {
		u.Status = make(map[string]bool, len(j.Statuses))
		for _, st := range j.Statuses {
			u.Status[st] = true
		}
	}
	return nil
}

// UnmarshalJSON decodes a side with its units, which point to it. Decode
// a list of sides into a []*Side, as Battle.Sides gives them: into a
// []Side, encoding/json moves the sides decoded so far when it grows the
// slice, and their units point to where they were.
func (s *Side) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil // as encoding/json leaves a struct
	}
	type plain Side // without this method
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*s = Side(p)
	for _, u := range s.Units {
		if u != nil {
			u.Side = s
		}
	}
	return nil
}

// isNull reports whether data is JSON's null, which an UnmarshalJSON
// takes as a no-op, as encoding/json does for a value without one.
func isNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }
