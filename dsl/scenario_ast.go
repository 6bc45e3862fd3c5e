package dsl

import "github.com/alecthomas/participle/v2/lexer"

// The scenario statements of issue 24: a unit that joins the battle, and
// a round's events matched as a whole list.

// AddScript is `add unit NAME to SIDE [ATTR = VALUE]... [status S, ...]`:
// a unit joins the battle at that point, written as a setup's unit is.
type AddScript struct {
	Span
	Name   Name      `parser:"'add' 'unit' @(Ident | String)"`
	Side   NameAt    `parser:"'to' @@"`
	Attrs  []*Assign `parser:"@@*"`
	Status []Ident   `parser:"('status' @@ (',' @@)*)?"`
}

// EventsExpect is `expect events exactly { ... }`: the round's events so
// far, every one, in order, each line one event.
type EventsExpect struct {
	Span
	Lines []*EventLine `parser:"'events' 'exactly' '{' EOL* (@@ EOL*)* '}'"`
}

// EventLine is one line of `expect events exactly`: `KIND [NAME...] [=
// NUMBER] [by NAME]`, as `expect event` writes an event after `event`.
type EventLine struct {
	Span
	Tokens []lexer.Token // dropped by Parse, once ArgPos is filled in

	Kind  Name        `parser:"@Ident"`
	Args  []Name      `parser:"((?! 'by') @(Ident | String | Int))*"`
	Value *EventValue `parser:"@@?"`
	By    *NameAt     `parser:"('by' @@)?"`

	// KindPos is where Kind is written, and ArgPos where each of Args
	// is. Parse fills them in.
	KindPos Pos   `parser:""`
	ArgPos  []Pos `parser:""`
}

// Event returns the line as the `expect event` it would be on a line of
// its own, positions and all: an exact list checks each line as that
// expectation checks its event, but for the names, which must be the
// event's very own.
func (l *EventLine) Event() *EventExpect {
	return &EventExpect{Span: l.Span, Kind: l.Kind, Args: l.Args, Value: l.Value, By: l.By, KindPos: l.KindPos, ArgPos: l.ArgPos, InList: true}
}

func (a *AddScript) Pos() Pos    { return a.Span.Pos }
func (a *AddScript) End() Pos    { return a.Span.EndPos }
func (e *EventsExpect) Pos() Pos { return e.Span.Pos }
func (e *EventsExpect) End() Pos { return e.Span.EndPos }
func (l *EventLine) Pos() Pos    { return l.Span.Pos }
func (l *EventLine) End() Pos    { return l.Span.EndPos }

func (*AddScript) roundStmt() {}

var (
	_ Node = (*AddScript)(nil)
	_ Node = (*EventsExpect)(nil)
	_ Node = (*EventLine)(nil)
)
