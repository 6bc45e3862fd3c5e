package runtime

import "regexp"

// expr-lang gives the position of an error in an expression as data
// (*file.Error's From and To), but what went wrong only in words. The
// patterns below are every reading of those words the compiler does to
// say them in a rule author's terms, kept together so that
// exprwording_test.go can hold each to what expr-lang says today: an
// upgrade that words a message otherwise fails that test by name,
// instead of quietly leaving rule authors with expr-lang's own words.
//
// unknownName and noField read a message after envTypes.friendly has
// named the environments' types (unit, side, previous).
var (
	// exprTooLong is the refusal of an expression of more nodes than
	// expr.MaxNodes allows.
	exprTooLong = regexp.MustCompile(`exceeds maximum allowed nodes`)
	// exprListIndex is `units.agi`: a field of a list.
	exprListIndex = regexp.MustCompile(`^array elements can only be selected using an integer \(got string\)$`)
	// coalesceMix is `previous.holder ?? "" == "Jay"`; it names the
	// operator.
	coalesceMix = regexp.MustCompile(`^Operator \((.+)\) and coalesce expressions \(\?\?\) cannot be mixed`)
	// mismatch is a comparison or a logical operator between values of
	// two types; it names the operator and the types.
	mismatch = regexp.MustCompile(`^invalid operation: (\S+) \(mismatched types (\w+) and (\w+)\)$`)
	// unknownName is a name the environment does not have.
	unknownName = regexp.MustCompile(`^unknown name (\w+)$`)
	// noField is a field a unit, side or previous does not have.
	noField = regexp.MustCompile(`^type (unit|side|previous|order) has no field (\w+)$`)
	// exprNilFetch is a field read of nil: of an order that is not made
	// yet, `setup.first` (see Battle.unmadeRead).
	exprNilFetch = regexp.MustCompile(`^cannot get \w+ from (\w+)$`)
	// unexpectedToken is a syntax error, which names the token as
	// expr-lang's lexer does: `unexpected token Identifier("agi")`.
	unexpectedToken = regexp.MustCompile(`^unexpected token (\w+)(?:\((".*")\))?$`)
	// exprNil is a value that is nil where an operator needs one, as
	// previous.NAME is before round 1 ends.
	exprNil = regexp.MustCompile(`<nil>`)
	// exprEmpty is what an empty value does when run: an empty list
	// indexed, or nil where a value was wanted.
	exprEmpty = regexp.MustCompile(`out of range|nil`)
)
