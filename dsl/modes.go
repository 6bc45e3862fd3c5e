package dsl

// The types below are the closed sets of words a statement chooses
// between: the parser captures the word as written, and code that acts on
// it compares it with these constants, so that a misspelt mode does not
// compile. Each type's zero value, "", is the word left out, where the
// grammar lets it be.

// Owner is what an attribute belongs to: `side attribute` or `unit
// attribute`.
type Owner string

const (
	OwnerSide Owner = "side"
	OwnerUnit Owner = "unit"
)

// Subjects is what an order ranks: `order sides` or `order units`.
type Subjects string

const (
	OrderSides Subjects = "sides"
	OrderUnits Subjects = "units"
)

// ReadyMode is how `ready units` takes its condition: `unless` leaves the
// marker off the units for which it holds, `where` puts it only on them.
// Without a condition, every unit is readied.
type ReadyMode string

const (
	ReadyUnless ReadyMode = "unless"
	ReadyWhere  ReadyMode = "where"
)

// Direction is which end of a criterion's values comes first.
type Direction string

const (
	Highest Direction = "highest"
	Lowest  Direction = "lowest"
)

// Opposite returns the other direction.
func (d Direction) Opposite() Direction {
	if d == Highest {
		return Lowest
	}
	return Highest
}

// ChoiceKind is what a choice decides: who of the tied goes first (`first`),
// whether the chooser goes before or after the rest (`before_after`), or
// the whole order (`order`). A choice that names none decides the order.
type ChoiceKind string

const (
	ChoiceFirst       ChoiceKind = "first"
	ChoiceBeforeAfter ChoiceKind = "before_after"
	ChoiceOrder       ChoiceKind = "order"
)

// ActivationMode is how the sides take their activations.
type ActivationMode string

const (
	// Alternate: the sides take turns, a unit each, in standing order.
	Alternate ActivationMode = "alternate"
	// Sequential: each side activates all its units before the next.
	Sequential ActivationMode = "sequential"
	// UnitOrder: units activate one by one in an order of units.
	UnitOrder ActivationMode = "unit_order"
	// Draw: each turn goes to a side drawn from a bag of its dice.
	Draw ActivationMode = "draw"
)

// Edge is the start or the end of a round, phase or step: when an `on`
// rule runs.
type Edge string

const (
	EdgeStart Edge = "start"
	EdgeEnd   Edge = "end"
)

// Point is what an `on` rule is at: the round, a phase or a step, at one
// of its edges, or a named `hook` statement (the Point of `on hook NAME`,
// which HandlerStmt.At returns).
type Point string

const (
	PointRound Point = "round"
	PointPhase Point = "phase"
	PointStep  Point = "step"
	PointHook  Point = "hook"
)

// At returns the point the handler is at: HandlerStmt.Point, or PointHook
// for `on hook NAME`.
func (s *HandlerStmt) At() Point {
	if s.Hook != nil {
		return PointHook
	}
	return s.Point
}

// ScopeKind is when a phase, step or order is computed again: each round,
// once in the battle, or when an attribute it watches changes.
type ScopeKind string

const (
	EachRound    ScopeKind = "each"
	Once         ScopeKind = "once"
	UntilChanged ScopeKind = "changed"
)

// Kind returns which of its forms the scope takes, or "" for a nil Scope,
// which leaves the choice to the enclosing block.
func (s *Scope) Kind() ScopeKind {
	switch {
	case s == nil:
		return ""
	case s.Once:
		return Once
	case len(s.Changed) > 0:
		return UntilChanged
	}
	return EachRound
}

// Policy is how a decision is answered when nobody is asked: the word
// after `default` in a choice or an activation statement. Which policies a
// decision takes depends on its kind; the runtime checks the word.
type Policy string

const (
	PolicySelf    Policy = "self"    // a choice of first: the chooser
	PolicyOther   Policy = "other"   // a choice of first: another
	PolicyKeep    Policy = "keep"    // the order as it stands
	PolicyBefore  Policy = "before"  // a choice of before_after: before
	PolicyAfter   Policy = "after"   // a choice of before_after: after
	PolicyReverse Policy = "reverse" // a choice of order: the order reversed
	PolicyFirst   Policy = "first"   // an activation: the first ready unit
	PolicyLast    Policy = "last"    // an activation: the last ready unit
)

// The roles a choice's `by` names, besides a side by name and an order's
// first or last (`priority.first`): the Role's String.
const (
	RoleWinner          = "winner"
	RoleLoser           = "loser"
	RoleTeam            = "team"
	RoleHolder          = "holder"
	RoleChooser         = "chooser"
	RolePreviousHolder  = "previous.holder"
	RolePreviousChooser = "previous.chooser"

	// RoleFirst and RoleLast end a role that names an order's first or
	// last subject.
	RoleFirst = "first"
	RoleLast  = "last"
)
