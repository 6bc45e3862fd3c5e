package runtime

import (
	"fmt"

	"github.com/turnorder/turnorder/dsl"
)

// Attribute ranges: `side attribute pips int 1..6`. A value out of the
// range is refused wherever it enters: a setup, a rule's `set`, SetAttr,
// a restored save.

// attrRange reads the range of s into a, and gives a ranged attribute
// with no default of its own the default 0, or its least value when 0 is
// out of the range.
func (c *compiler) attrRange(s *dsl.AttrDecl, a *Attr) {
	if s.Range == nil {
		return
	}
	if a.Type != IntAttr {
		c.errorf(s.Range.Pos(), "attribute %s: only an int attribute has a range, and %s is %s", s.Name, s.Name, a.Type.article())
		return
	}
	lo, hi := s.Range.Bounds()
	switch {
	case lo > hi:
		c.errorf(s.Range.Pos(), "attribute %s: %s is not a valid range: the most is below the least", s.Name, s.Range)
		return
	case lo < -maxExact || hi > maxExact:
		c.errorf(s.Range.Pos(), "attribute %s: %s goes beyond -2^53 to 2^53, the whole numbers an int attribute holds", s.Name, s.Range)
		return
	}
	a.Min, a.Max = &lo, &hi
	if 0 < lo || 0 > hi {
		a.Default = lo
	}
}

// inRange refuses v, a value of a's type, where a has a range that does
// not hold it.
func (a Attr) inRange(v any) (any, error) {
	n, ok := v.(int)
	if !ok || a.Min == nil || a.Max == nil || n >= *a.Min && n <= *a.Max {
		return v, nil
	}
	return nil, fmt.Errorf("%d is out of the range of %s, %d..%d", n, a.Name, *a.Min, *a.Max)
}

// convert converts v to a's type, as convertAttr does, and checks it is
// in a's range.
func (a Attr) convert(v any) (any, error) {
	out, err := convertAttr(v, a.Type)
	if err != nil {
		return nil, err
	}
	return a.inRange(out)
}
