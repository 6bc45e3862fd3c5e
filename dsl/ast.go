package dsl

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Pos is a position in a .rules file: filename, byte offset, line and column
// (both from 1).
type Pos = lexer.Position

// File is one parsed .rules file: any number of rulesets and scenarios.
type File struct {
	Span

	Decls []Decl `parser:"EOL* (@@ EOL*)*"`

	// Comments holds every comment in the file, in order. The parser fills
	// it in from the token stream so that the formatter can keep them.
	Comments []Comment `parser:""`
	// Source is the text the file was parsed from.
	Source string `parser:""`
}

// Rulesets returns the file's rulesets, in the order they are declared.
func (f *File) Rulesets() []*Ruleset {
	var out []*Ruleset
	for _, d := range f.Decls {
		if r, ok := d.(*Ruleset); ok {
			out = append(out, r)
		}
	}
	return out
}

// Comment is one "# ..." comment.
type Comment struct {
	Span
	Text string // including the leading '#'
}

// Decl is a top-level declaration: *Ruleset, *Scenario, or *SideSetup (a
// setup file lists the sides of a battle, for `turnorder run --setup`).
type Decl interface {
	Node
	declNode()
}

// Name is an identifier or a quoted string. Either way it holds the plain
// text, so `Jay` and `"Jay"` name the same thing.
type Name string

// Capture unquotes a quoted name.
func (n *Name) Capture(values []string) error {
	v := values[0]
	if strings.HasPrefix(v, `"`) {
		u, err := unquote(v)
		if err != nil {
			return err
		}
		v = u
	}
	*n = Name(v)
	return nil
}

// Ident is an identifier with a position of its own, for a diagnostic
// that points at it rather than at the start of its statement.
type Ident struct {
	Span
	Name Name `parser:"@Ident"`
}

// String returns the identifier.
func (i Ident) String() string { return string(i.Name) }

// NameAt is a Name with a position of its own, as Ident is.
type NameAt struct {
	Span
	Name Name `parser:"@(Ident | String)"`
}

// String returns the name, unquoted.
func (n NameAt) String() string { return string(n.Name) }

// Names returns the names of ns without their positions, for comparing
// and printing them.
func Names(ns []NameAt) []Name {
	out := make([]Name, len(ns))
	for i, n := range ns {
		out[i] = n.Name
	}
	return out
}

// Text is a quoted string literal, unquoted.
type Text string

// Capture unquotes the literal.
func (t *Text) Capture(values []string) error {
	u, err := unquote(values[0])
	if err != nil {
		return err
	}
	*t = Text(u)
	return nil
}

// unquote unquotes a double-quoted string as Go does, saying which escape
// is wrong when one is: strconv's "invalid syntax" leaves a rule author
// who copied a rulebook's \' with nothing to go on.
func unquote(v string) (string, error) {
	u, err := strconv.Unquote(v)
	if err == nil {
		return u, nil
	}
	if i := badEscape(v); i >= 0 {
		_, size := utf8.DecodeRuneInString(v[i+1:])
		esc := v[i : i+1+size]
		return "", &escapeError{esc: esc}
	}
	return "", err
}

// badEscapeMsg starts the message of a string with a bad escape, which the
// parser moves to the escape itself.
const badEscapeMsg = "bad escape"

// badEscape returns the offset in a double-quoted string v of its first
// escape that Go does not have, or -1.
func badEscape(v string) int {
	for i := 1; i < len(v)-1; {
		if v[i] != '\\' {
			i++
			continue
		}
		_, _, tail, err := strconv.UnquoteChar(v[i:], '"')
		if err != nil {
			return i
		}
		i = len(v) - len(tail)
	}
	return -1
}

func escapeHint(esc string) string {
	if esc == `\'` {
		return "write ' as it is (only \\\" and \\\\ need a backslash)"
	}
	return "a backslash starts an escape such as \\\" or \\n; write \\\\ for a backslash itself"
}

// Expr is an expr-lang expression embedded in a rule. The parser only finds
// where it starts and ends; the runtime compiles Source, and reports errors
// at Pos plus the offset inside Source.
type Expr struct {
	Span
	Tokens []lexer.Token

	Parts []*exprPart `parser:"( @@"`
	// Bad is a bracket that is not closed, or closed by the wrong one,
	// parsed by the grammar only so that the error is the grammar's: a
	// parsed file never has one.
	Bad []*badGroup `parser:"| @@ )+"`

	// Source is the exact text of the expression in the file.
	Source string `parser:""`
}

// exprPart is one token of an expression at bracket depth zero, or a
// bracketed group. Expressions end at a newline, ';', ':', ',', '=', '{' or
// '}' that is not inside brackets.
//
// It parses itself (see Parse) rather than through participle, which
// spent some 20 microseconds and several kilobytes on each token of an
// expression, trying the alternatives of exprPart one by one: an
// expression of a few hundred kilobytes took seconds. What it accepts is
// exactly what the grammar in its tags accepts, which the tests check.
type exprPart struct {
	Group *exprGroup `parser:"  @@"`
	Tok   string     `parser:"| @(Ident | Int | Float | String | RawString | Dice | '==' | '!=' | '<=' | '>=' | '&&' | '||' | '??' | '?.' | '**' | '..' | '.' | '+' | '-' | '*' | '/' | '%' | '<' | '>' | '!' | '?' | '|' | '&' | '^')"`
}

// exprGroup is a bracketed group, ( ... ) or [ ... ], whose brackets all
// match. It parses itself too; a group whose brackets do not match is left
// to badGroup.
type exprGroup struct {
	Paren *bracketed `parser:"  @@"`
	Brack *squared   `parser:"| @@"`
}

// badGroup is exprGroup's grammar, for a group that exprGroup refuses:
// parsing it fails, where and as the grammar says.
type badGroup struct {
	Paren *bracketed `parser:"  @@"`
	Brack *squared   `parser:"| @@"`
}

// bracketed and squared are ( ... ) and [ ... ]: a closing bracket must
// match its opening one.
type bracketed struct {
	Open  string       `parser:"@'('"`
	Inner []*exprInner `parser:"@@*"`
	Close string       `parser:"@')'"`
}

type squared struct {
	Open  string       `parser:"@'['"`
	Inner []*exprInner `parser:"@@*"`
	Close string       `parser:"@']'"`
}

// exprInner is anything inside brackets, where newlines, commas and colons
// are allowed.
type exprInner struct {
	Group *exprGroup `parser:"  @@"`
	Bad   *badGroup  `parser:"| @@"`
	Tok   string     `parser:"| @(~(')' | ']' | '(' | '['))"`
}

// Ruleset is `ruleset NAME ["Title"] { ... }`.
type Ruleset struct {
	Span

	Name  Name       `parser:"'ruleset' @(Ident | String)"`
	Title *Text      `parser:"@String?"`
	Body  []RuleStmt `parser:"'{' EOL* (@@ EOL*)* '}'"`
}

func (*Ruleset) declNode() {}

// RuleStmt is a statement directly inside a ruleset.
type RuleStmt interface {
	Node
	ruleStmt()
}

// SourceStmt is `source "..."`: where the rules come from.
type SourceStmt struct {
	Span
	Text Text `parser:"'source' @String"`
}

// QuoteStmt is `quote "..."`: the rulebook sentence the next rule
// implements. It has no effect on play; tools show it.
type QuoteStmt struct {
	Span
	Text Text `parser:"'quote' @String"`
}

// SidesStmt is `sides 2`, `sides 2..4` or `sides 2..`.
type SidesStmt struct {
	Span
	Min   int  `parser:"'sides' @Int"`
	Range bool `parser:"( @'..'"`
	Max   *int `parser:"  @Int? )?"`
}

// AttrDecl is `side attribute NAME TYPE [MIN..MAX] [= VALUE]` or the unit
// form.
type AttrDecl struct {
	Span
	Of      Owner     `parser:"@('side' | 'unit') 'attribute'"`
	Name    Name      `parser:"@Ident"`
	Type    Ident     `parser:"@@"`
	Range   *IntRange `parser:"@@?"`
	Default *Literal  `parser:"('=' @@)?"`
}

// StatusDecl is `unit status NAME, NAME...`.
type StatusDecl struct {
	Span
	Names []Name `parser:"'unit' 'status' @Ident (',' @Ident)*"`
}

// RememberStmt is `remember NAME = EXPR`: a value computed at the end of
// each round and readable as previous.NAME in the next.
type RememberStmt struct {
	Span
	Name Name  `parser:"'remember' @Ident '='"`
	Expr *Expr `parser:"@@"`
}

// PhaseStmt is `phase NAME [SCOPE] { ... }`.
type PhaseStmt struct {
	Span
	Name  Name        `parser:"'phase' @(Ident | String)"`
	Scope *Scope      `parser:"@@?"`
	Body  []PhaseItem `parser:"'{' EOL* (@@ EOL*)* '}'"`
}

// Scope says when a phase, step or order is (re)computed.
type Scope struct {
	Span
	Each    bool    `parser:"(  @('each' 'round')"`
	Once    bool    `parser:" | @'once'"`
	Changed []Ident `parser:" | 'until' 'changed' @@ (',' @@)* )"`
}

// PhaseItem is a statement inside a phase or step.
type PhaseItem interface {
	Node
	phaseItem()
}

// StepStmt is `step "Name" [SCOPE] { ... }`.
type StepStmt struct {
	Span
	Name  Name        `parser:"'step' @(String | Ident)"`
	Scope *Scope      `parser:"@@?"`
	Body  []PhaseItem `parser:"'{' EOL* (@@ EOL*)* '}'"`
}

// OrderStmt is `order sides|units as NAME [SCOPE] { criteria }`: an order
// procedure producing a standing.
type OrderStmt struct {
	Span
	Subjects Subjects    `parser:"'order' @('sides' | 'units')"`
	Name     Name        `parser:"'as' @Ident"`
	Scope    *Scope      `parser:"@@?"`
	Chain    []Criterion `parser:"'{' EOL* (@@ EOL*)* '}'"`
}

// ReadyStmt is `ready units [unless|where EXPR]`: place Ready markers.
type ReadyStmt struct {
	Span
	Mode ReadyMode `parser:"'ready' 'units' ( @('unless' | 'where')"`
	Cond *Expr     `parser:"  @@ )?"`
}

// HookStmt is `hook NAME`: a named point where special rules plug in.
type HookStmt struct {
	Span
	Name Name `parser:"'hook' @Ident"`
}

// Criterion is one link of an order procedure's chain.
type Criterion interface {
	Node
	criterion()
}

// RollCrit is `highest roll 2d6` or `lowest roll d20 + dex`.
type RollCrit struct {
	Span
	Dir      Direction `parser:"@('highest' | 'lowest') 'roll'"`
	Dice     string    `parser:"@(Dice | Int | Float | Ident)?"`
	Modifier *Expr     `parser:"@@?"`
}

// ValueCrit is `lowest EXPR` or `highest EXPR`.
type ValueCrit struct {
	Span
	Dir  Direction `parser:"@('highest' | 'lowest')"`
	Expr *Expr     `parser:"@@"`
}

// RandomCrit is `random`: a uniformly random order of the tied group.
type RandomCrit struct {
	Span
	Random bool `parser:"@'random'"`
}

// RerollCrit is `reroll`: the still-tied subjects roll again.
type RerollCrit struct {
	Span
	Reroll bool `parser:"@'reroll'"`
}

// AwardCrit is `award [not] EXPR`: the named subject comes first (with
// `not`, every other tied subject comes before it).
type AwardCrit struct {
	Span
	Not  bool  `parser:"'award' @'not'?"`
	Expr *Expr `parser:"@@"`
}

// ChoiceCrit is `choice [order|first|before_after] by ROLE [default POLICY]`.
type ChoiceCrit struct {
	Span
	Kind    ChoiceKind `parser:"'choice' @('order' | 'first' | 'before_after')?"`
	By      *Role      `parser:"'by' @@"`
	Default *Ident     `parser:"('default' @@)?"`
}

// Role names a participant: winner, loser, team, previous.holder,
// STANDING.first, or a side by name.
type Role struct {
	Span
	Path []Name `parser:"@(Ident | String) ('.' @Ident)*"`
}

// String returns the role as written.
func (r *Role) String() string {
	parts := make([]string, len(r.Path))
	for i, p := range r.Path {
		parts[i] = string(p)
	}
	return strings.Join(parts, ".")
}

// TieRule is `tie [when EXPR]: CRITERION` or `tie [when EXPR] { ... }`:
// how a group that the criterion above left tied is resolved.
type TieRule struct {
	Span
	When   *Expr       `parser:"'tie' ('when' @@)?"`
	Action Criterion   `parser:"( ':' @@"`
	Block  []Criterion `parser:"| '{' EOL* (@@ EOL*)* '}' )"`
}

// ActivationStmt is `activation MODE [by STANDING] [pass allowed [when
// EXPR]] [default POLICY]`. Written in a ruleset, the loop runs after the
// phases; written in a phase or step (a PhaseItem), it runs at that point
// of the round. Without `by`, sides take turns in setup order. A condition runs to the end of the line, as every
// expression does, so `default POLICY` may also come before `pass allowed`
// (and must, after a condition): `activation alternate by initiative
// default last pass allowed when ...`. Parse moves a default written there
// into Default, so that the statement has one meaning whichever way it is
// written; DefaultFirst is then nil.
type ActivationStmt struct {
	Span
	Mode         ActivationMode `parser:"'activation' @('alternate' | 'sequential' | 'unit_order' | 'draw')"`
	By           *Ident         `parser:"('by' @@)?"`
	DefaultFirst *Ident         `parser:"('default' @@)?"`
	PassAllowed  bool           `parser:"( @('pass' 'allowed')"`
	PassWhen     *Expr          `parser:"  ('when' @@)? )?"`
	Default      *Ident         `parser:"('default' @@)?"`
}

// HandlerStmt is `on start|end of round|phase NAME|step NAME [when EXPR] {}`
// or `on hook NAME [when EXPR] {}`: a special rule.
type HandlerStmt struct {
	Span
	Edge   Edge     `parser:"'on' ( @('start' | 'end') 'of'"`
	Point  Point    `parser:"       @('round' | 'phase' | 'step')"`
	Target *NameAt  `parser:"       ((?! 'when') @@)?"`
	Hook   *Ident   `parser:"     | 'hook' @@ )"`
	When   *Expr    `parser:"('when' @@)?"`
	Body   []Action `parser:"'{' EOL* (@@ EOL*)* '}'"`
}

// Action is a statement inside a handler.
type Action interface {
	Node
	action()
}

// SetAction is `set ATTR of EXPR = EXPR`.
type SetAction struct {
	Span
	Attr   Name  `parser:"'set' @Ident 'of'"`
	Target *Expr `parser:"@@ '='"`
	Value  *Expr `parser:"@@"`
}

// ReadyAction is `ready EXPR`: put a Ready marker on the named unit(s).
type ReadyAction struct {
	Span
	Expr *Expr `parser:"'ready' @@"`
}

// HolderAction is `holder = EXPR`: the named side holds priority.
type HolderAction struct {
	Span
	Expr *Expr `parser:"'holder' '=' @@"`
}

// FirstAction is `first = EXPR`: the named side goes first in the
// activation loops of the phase under way, and in no other.
type FirstAction struct {
	Span
	Expr *Expr `parser:"'first' '=' @@"`
}

// ExampleStmt is `example { setup }`: the sides `turnorder run` uses when
// none are given.
type ExampleStmt struct {
	Span
	Setup []SetupStmt `parser:"'example' '{' EOL* (@@ EOL*)* '}'"`
}

// SetupStmt describes the battle's participants.
type SetupStmt interface {
	Node
	setupStmt()
}

// SideSetup is `side NAME [team NAME] [{ attributes and units }]`.
type SideSetup struct {
	Span
	Name  Name       `parser:"'side' @(Ident | String)"`
	Team  *Name      `parser:"('team' @(Ident | String))?"`
	Attrs []*Assign  `parser:"@@*"`
	Body  []SideItem `parser:"('{' EOL* (@@ EOL*)* '}')?"`
}

// SideItem is an attribute assignment or a unit inside a side.
type SideItem interface {
	Node
	sideItem()
}

// Assign is `NAME = VALUE`.
type Assign struct {
	Span
	Name  Name     `parser:"@Ident '='"`
	Value *Literal `parser:"@@"`
}

// UnitSetup is `unit NAME [* N] [ATTR = VALUE]... [status S, ...]`.
type UnitSetup struct {
	Span
	Name   Name      `parser:"'unit' @(Ident | String)"`
	Count  *int      `parser:"('*' @Int)?"`
	Attrs  []*Assign `parser:"@@*"`
	Status []Ident   `parser:"('status' @@ (',' @@)*)?"`
}

// Literal is a value in a setup or scenario: a number, a string, true or
// false, or a bare word (taken as a string).
type Literal struct {
	Span
	Neg  bool    `parser:"@'-'?"`
	Int  *int    `parser:"(  @Int"`
	Str  *Text   `parser:" | @String"`
	Word *string `parser:" | @Ident )"`
}

// Scenario is a worked example: `scenario "Title" { ... }`.
type Scenario struct {
	Span
	Title Text           `parser:"'scenario' @String"`
	Body  []ScenarioStmt `parser:"'{' EOL* (@@ EOL*)* '}'"`
}

func (*Scenario) declNode() {}

// ScenarioStmt is a statement inside a scenario.
type ScenarioStmt interface {
	Node
	scenarioStmt()
}

// UseRuleset is `ruleset NAME` or `ruleset "path.rules"` inside a scenario.
type UseRuleset struct {
	Span
	Name NameAt `parser:"'ruleset' @@"`
}

// PolicyStmt is `decide by policy`: decisions the scenario does not script
// follow the ruleset's declared defaults instead of failing.
type PolicyStmt struct {
	Span
	Policy bool `parser:"@('decide' 'by' 'policy')"`
}

// SeedStmt is `seed N`: unscripted dice and random picks use seeded dice.
type SeedStmt struct {
	Span
	Seed int `parser:"'seed' @Int"`
}

// RoundBlock is `round N { ... }`.
type RoundBlock struct {
	Span
	Number int         `parser:"'round' @Int"`
	Body   []RoundStmt `parser:"'{' EOL* (@@ EOL*)* '}'"`
}

// RoundStmt is a statement inside a scenario round, run in order.
type RoundStmt interface {
	Node
	roundStmt()
}

// RollScript is `roll NAME N, NAME N...`: scripted natural dice totals.
type RollScript struct {
	Span
	Rolls []*NameInt `parser:"'roll' @@ (',' @@)*"`
}

// NameInt is `NAME N`, or `NAME FACE` for a named face or card of a
// declared die, deck or bag (Face is then set, and Value 0).
type NameInt struct {
	Span
	Name  Name  `parser:"@(Ident | String)"`
	Value int   `parser:"( @Int"`
	Face  *Name `parser:"| @(Ident | String)"`
	// Neg is the number of a negative face or card (`-1`, a chaos bag's),
	// which Parse moves into Value as -Neg.
	Neg *int `parser:"| '-' @Int )"`
}

// RandomScript is `random NAME, ...`: the random picks, in order.
type RandomScript struct {
	Span
	Picks []Name `parser:"'random' @(Ident | String) (',' @(Ident | String))*"`
}

// ChooseScript is `NAME chooses OPTION, ...`: the answer to the next
// decision asked of NAME. An answer may be a number, for a decision of a
// number (`Jay chooses 5`).
type ChooseScript struct {
	Span
	Who     Name   `parser:"@(Ident | String) 'chooses'"`
	Options []Name `parser:"@(Ident | String | Int) (',' @(Ident | String | Int))*"`
}

// SetScript is `set ATTR of NAME = VALUE`, applied at that point.
type SetScript struct {
	Span
	Attr   Name     `parser:"'set' @Ident 'of'"`
	Target Name     `parser:"@(Ident | String) '='"`
	Value  *Literal `parser:"@@"`
}

// StatusScript is `NAME is [not] STATUS`.
type StatusScript struct {
	Span
	Unit   Name `parser:"@(Ident | String) 'is'"`
	Not    bool `parser:"@'not'?"`
	Status Name `parser:"@Ident"`
}

// RemoveScript is `remove NAME`: the unit leaves the battle (a casualty).
type RemoveScript struct {
	Span
	Unit Name `parser:"'remove' @(Ident | String)"`
}

// ReadyScript is `ready NAME`: a skill readies the unit again.
type ReadyScript struct {
	Span
	Unit Name `parser:"'ready' @(Ident | String)"`
}

// ActivateScript is `activate [N]`: play N activations (default 1).
type ActivateScript struct {
	Span
	Count *int `parser:"'activate' @Int?"`
}

// Expect is `expect WHAT ...`. `expect error "regexp"` says the round
// must go on to fail with an error matching the regexp: a move the rules
// refuse.
//
// The names an expectation lists carry positions of their own, so that a
// name no side or unit has is reported where it is written, not at
// `expect`. ActivationsIn, when set, names the phase or step whose
// activation loop Activations lists (`expect activations in NAME: ...`);
// without it they are the whole round's.
type Expect struct {
	Span
	Order         []NameAt        `parser:"'expect' ( 'order' @@ (',' @@)*"`
	Holder        *NameAt         `parser:"        | 'holder' @@"`
	Chooser       *NameAt         `parser:"        | 'chooser' @@"`
	ActivationsIn *NameAt         `parser:"        | 'activations' ('in' @@ ':')?"`
	Activations   []*Activation   `parser:"          @@ (',' @@)*"`
	Ready         *ReadyExpect    `parser:"        | @@"`
	Standing      *StandingExpect `parser:"        | @@"`
	Error         *Text           `parser:"        | 'error' @String"`
	Events        *EventsExpect   `parser:"        | @@"`
	Event         *EventExpect    `parser:"        | @@ )"`
}

// Activation is one expected activation: a unit name, or `pass SIDE`.
type Activation struct {
	Span
	Pass bool `parser:"@'pass'?"`
	Name Name `parser:"@(Ident | String)"`
}

// StandingExpect is `expect standing ORDER: NAME, ...`: the order of a
// standing other than the main one (`expect order` checks that).
type StandingExpect struct {
	Span
	Name  Name     `parser:"'standing' @Ident ':'"`
	Order []NameAt `parser:"@@ (',' @@)*"`
}

// ReadyExpect is `expect ready NAME, ...` or `expect ready none`.
type ReadyExpect struct {
	Span
	Units []NameAt `parser:"'ready' @@ (',' @@)*"`
}

// EventExpect is `expect [no] event KIND [NAME...] [= NUMBER] [by NAME]`:
// an event of KIND that mentions every NAME (as its subject, one of its
// subjects or choices, its value or total, its standing or who decided
// it), with `= NUMBER`, a placement placed by that value, and, with `by`,
// whose decider or actor is exactly that one.
type EventExpect struct {
	Span
	Tokens []lexer.Token // dropped by Parse, once ArgPos is filled in

	No    bool        `parser:"@'no'?"`
	Kind  Name        `parser:"'event' @Ident"`
	Args  []Name      `parser:"((?! 'by') @(Ident | String | Int))*"`
	Value *EventValue `parser:"@@?"`
	By    *NameAt     `parser:"('by' @@)?"`

	// KindPos is where Kind is written, and ArgPos where each of Args
	// is, in order, for a message about one of them. Parse fills them in.
	KindPos Pos   `parser:""`
	ArgPos  []Pos `parser:""`

	// InList says that it is a line of `expect events exactly`, as
	// EventLine.Event makes it, for a message to say so.
	InList bool `parser:""`
}

// EventValue is the `= NUMBER` of an expect event: the value a placement
// was placed by, as the transcript writes it after its criterion
// (`priority #1: Jay, by lowest count(units) = 6`). It is apart from the
// arguments, where a placement's number is its place.
type EventValue struct {
	Span
	Number string `parser:"'=' @('-'? (Int | Float))"`
}

// KindAt returns where Kind is written, or, if that is not known (an
// EventExpect not made by Parse), where the expectation is.
func (e *EventExpect) KindAt() Pos {
	if e.KindPos.Line > 0 {
		return e.KindPos
	}
	return e.Pos()
}

// ArgAt returns where Args[i] is written, or, if that is not known (an
// EventExpect not made by Parse), where the expectation is.
func (e *EventExpect) ArgAt(i int) Pos {
	if i >= 0 && i < len(e.ArgPos) {
		return e.ArgPos[i]
	}
	return e.Pos()
}

func (*SourceStmt) ruleStmt()     {}
func (*QuoteStmt) ruleStmt()      {}
func (*SidesStmt) ruleStmt()      {}
func (*AttrDecl) ruleStmt()       {}
func (*StatusDecl) ruleStmt()     {}
func (*RememberStmt) ruleStmt()   {}
func (*PhaseStmt) ruleStmt()      {}
func (*ActivationStmt) ruleStmt() {}
func (*HandlerStmt) ruleStmt()    {}
func (*ExampleStmt) ruleStmt()    {}

func (*StepStmt) phaseItem()       {}
func (*OrderStmt) phaseItem()      {}
func (*ReadyStmt) phaseItem()      {}
func (*HookStmt) phaseItem()       {}
func (*QuoteStmt) phaseItem()      {}
func (*ActivationStmt) phaseItem() {}

func (*RollCrit) criterion()   {}
func (*ValueCrit) criterion()  {}
func (*RandomCrit) criterion() {}
func (*RerollCrit) criterion() {}
func (*AwardCrit) criterion()  {}
func (*ChoiceCrit) criterion() {}
func (*TieRule) criterion()    {}
func (*QuoteStmt) criterion()  {}

func (*SetAction) action()    {}
func (*ReadyAction) action()  {}
func (*HolderAction) action() {}
func (*FirstAction) action()  {}
func (*QuoteStmt) action()    {}

func (*SideSetup) setupStmt() {}
func (*SideSetup) declNode()  {}
func (*Assign) sideItem()     {}
func (*UnitSetup) sideItem()  {}

func (*UseRuleset) scenarioStmt() {}
func (*QuoteStmt) scenarioStmt()  {}
func (*PolicyStmt) scenarioStmt() {}
func (*SeedStmt) scenarioStmt()   {}
func (*SideSetup) scenarioStmt()  {}
func (*RoundBlock) scenarioStmt() {}

func (*RollScript) roundStmt()     {}
func (*RandomScript) roundStmt()   {}
func (*ChooseScript) roundStmt()   {}
func (*SetScript) roundStmt()      {}
func (*StatusScript) roundStmt()   {}
func (*ReadyScript) roundStmt()    {}
func (*RemoveScript) roundStmt()   {}
func (*ActivateScript) roundStmt() {}
func (*Expect) roundStmt()         {}
func (*QuoteStmt) roundStmt()      {}

// String returns the literal as written.
func (l *Literal) String() string {
	sign := ""
	if l.Neg {
		sign = "-"
	}
	switch {
	case l.Int != nil:
		return sign + strconv.Itoa(*l.Int)
	case l.Str != nil:
		return sign + strconv.Quote(string(*l.Str))
	case l.Word != nil:
		return sign + *l.Word
	}
	return sign
}
