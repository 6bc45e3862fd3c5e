package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
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

// UnmarshalJSON decodes a side as encoding/json would, keys matched
// whatever their case, but reads the numbers of attrs as written: one a
// float64 holds exactly is a float64, as encoding/json makes it, and one
// it would change (9007199254740993, 1e-400, 1e400) stays a json.Number,
// so that NewBattle reports it instead of playing with another number.
func (s *SideSpec) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil // as encoding/json leaves a struct
	}
	type sideSpec SideSpec // without this method
	if err := decodeNumbers(data, (*sideSpec)(s)); err != nil {
		return err
	}
	exactNumbers(s.Attrs)
	return nil
}

// UnmarshalJSON decodes a unit as SideSpec.UnmarshalJSON decodes a side.
func (u *UnitSpec) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	type unitSpec UnitSpec
	if err := decodeNumbers(data, (*unitSpec)(u)); err != nil {
		return err
	}
	exactNumbers(u.Attrs)
	return nil
}

// decodeNumbers decodes data into v with its numbers as json.Numbers. An
// error names the exported type, not the one without the method.
func decodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	err := dec.Decode(v)
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		switch te.Struct {
		case "sideSpec":
			te.Struct = "SideSpec"
		case "unitSpec":
			te.Struct = "UnitSpec"
		}
	}
	return err
}

// exactNumbers turns the json.Numbers in attrs, and in the lists and
// objects they hold, into the float64s encoding/json would have made of
// them, except where the float64 is not the number written: a whole
// number beyond ±2^53, which an attribute cannot hold, or one written
// with a fraction or an exponent that a float64 rounds to 0 or to
// infinity.
func exactNumbers(attrs map[string]any) {
	for k, v := range attrs {
		attrs[k] = exactNumber(v)
	}
}

func exactNumber(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			if i > maxExact || i < -maxExact {
				return x
			}
			return float64(i)
		}
		f, err := x.Float64()
		if err != nil || f == 0 && underflows(x.String()) || f == math.Trunc(f) && math.Abs(f) > maxExact {
			return x
		}
		return f
	case []any:
		for i, e := range x {
			x[i] = exactNumber(e)
		}
	case map[string]any:
		exactNumbers(x)
	}
	return v
}
