package dsl

import "strconv"

// Randomizers beyond numbered dice: custom dice with named faces, and decks
// and bags drawn without replacement. They are declared at the ruleset's
// level and read by the criteria `highest roll NAME` (a die) and `highest
// draw NAME` (a deck or a bag).

// RandomizerKind is what a randomizer declaration declares.
type RandomizerKind string

const (
	// KindDie is a die of named faces, rolled with replacement.
	KindDie RandomizerKind = "die"
	// KindDeck is a deck of cards, drawn without replacement.
	KindDeck RandomizerKind = "deck"
	// KindBag is a bag of tokens, drawn as a deck is.
	KindBag RandomizerKind = "bag"
)

// ReshuffleMode is when a deck or bag is made whole again: at the start of
// each round, when a draw finds it empty, or (the zero value) only by a
// handler's `reshuffle NAME`.
type ReshuffleMode string

const (
	ReshuffleEachRound ReshuffleMode = "each round"
	ReshuffleWhenEmpty ReshuffleMode = "when empty"
)

// Capture joins the two words of a mode.
func (m *ReshuffleMode) Capture(values []string) error {
	if len(values) == 2 {
		*m = ReshuffleMode(values[0] + " " + values[1])
	} else {
		*m = ReshuffleMode(values[0])
	}
	return nil
}

// RandomizerDecl is `die NAME { FACES }`, or `deck NAME [per side]
// [reshuffle each round | reshuffle when empty] { CARDS }`, or the same
// with `bag`.
type RandomizerDecl struct {
	Span
	Kind      RandomizerKind `parser:"@('die' | 'deck' | 'bag')"`
	Name      Ident          `parser:"@@"`
	PerSide   bool           `parser:"@('per' 'side')?"`
	Reshuffle ReshuffleMode  `parser:"('reshuffle' @(('each' 'round') | ('when' 'empty')))?"`
	Faces     []*FaceSpec    `parser:"'{' EOL* @@ (',' EOL* @@)* ','? EOL* '}'"`
}

// FaceSpec is one entry of a randomizer's contents: `NAME [= VALUE] [*
// COUNT]`, a number `N [* COUNT]`, or numbers `FROM..TO [* COUNT]`. A
// number may be negative (`-1`, `-2..2`): FromNeg and ToNeg are its signs.
type FaceSpec struct {
	Span
	FromNeg bool  `parser:"(  @'-'?"`
	From    *int  `parser:"   @Int"`
	ToNeg   bool  `parser:"   ('..' @'-'?"`
	To      *int  `parser:"    @Int)?"`
	Name    *Name `parser:" | @(Ident | String) )"`
	Neg     bool  `parser:"('=' @'-'?"`
	Value   *int  `parser:"     ( @Int"`
	// BadValue is a value that is not a whole number, parsed so that
	// checkFaceValues can say so where it is.
	BadValue *string `parser:"   | @(String | Float | Ident) ) )?"`
	Count    *int    `parser:"('*' @Int)?"`
}

// DrawCrit is `highest draw NAME` or `lowest draw NAME`: each subject
// draws a card from the deck or bag NAME, ranked by the card's value.
type DrawCrit struct {
	Span
	Dir  Direction `parser:"@('highest' | 'lowest') 'draw'"`
	Deck Ident     `parser:"@@"`
}

// ReshuffleAction is `reshuffle NAME`: every card of the deck or bag NAME
// goes back in (every side's, for a deck per side).
type ReshuffleAction struct {
	Span
	Deck Ident `parser:"'reshuffle' @@"`
}

// DrawScript is `draw NAME CARD, NAME CARD...`: scripted draws, each the
// card NAME draws next.
type DrawScript struct {
	Span
	Draws []*NameInt `parser:"'draw' @@ (',' @@)*"`
}

func (r *RandomizerDecl) Pos() Pos  { return r.Span.Pos }
func (r *RandomizerDecl) End() Pos  { return r.Span.EndPos }
func (f *FaceSpec) Pos() Pos        { return f.Span.Pos }
func (f *FaceSpec) End() Pos        { return f.Span.EndPos }
func (d *DrawCrit) Pos() Pos        { return d.Span.Pos }
func (d *DrawCrit) End() Pos        { return d.Span.EndPos }
func (r *ReshuffleAction) Pos() Pos { return r.Span.Pos }
func (r *ReshuffleAction) End() Pos { return r.Span.EndPos }
func (d *DrawScript) Pos() Pos      { return d.Span.Pos }
func (d *DrawScript) End() Pos      { return d.Span.EndPos }

func (*RandomizerDecl) ruleStmt() {}
func (*DrawCrit) criterion()      {}
func (*ReshuffleAction) action()  {}
func (*DrawScript) roundStmt()    {}

// Label returns the name of the face or card an entry of a scripted roll
// or draw names: its word, or its number as written.
func (n *NameInt) Label() string {
	if n.Face != nil {
		return string(*n.Face)
	}
	return strconv.Itoa(n.Value)
}

// String returns the entry as written: `crit`, `7`, `crit = 3 * 2`,
// `1..13`.
func (f *FaceSpec) String() string {
	var s string
	switch {
	case f.Name != nil:
		s = name(*f.Name)
	case f.To != nil:
		s = signed(f.FromNeg, *f.From) + ".." + signed(f.ToNeg, *f.To)
	case f.From != nil:
		s = signed(f.FromNeg, *f.From)
	}
	if f.Value != nil {
		s += " = " + signed(f.Neg, *f.Value)
	}
	if f.Count != nil {
		s += " * " + strconv.Itoa(*f.Count)
	}
	return s
}

// declaredDice returns the names of the dice, decks and bags the file's
// rulesets declare: `highest roll NAME` of one of them is not of NdS dice,
// and the compiler says what it is (a deck is drawn from, not rolled).
func declaredDice(f *File) map[string]bool {
	out := map[string]bool{}
	for _, r := range f.Rulesets() {
		for _, st := range r.Body {
			if d, ok := st.(*RandomizerDecl); ok {
				out[string(d.Name.Name)] = true
			}
		}
	}
	return out
}

// checkFaceValues reports a face's or card's value that is not a whole
// number: criteria compare values as numbers.
func checkFaceValues(f *File) Diagnostics {
	var out Diagnostics
	Walk(f, func(n Node) {
		if fs, ok := n.(*FaceSpec); ok && fs.BadValue != nil {
			out = append(out, errorAt(fs.Pos(), "the value of %s is %s, not a whole number: a face or card's value is one, as in crown = 3", fs.label(), *fs.BadValue))
		}
	})
	return out
}

func (f *FaceSpec) label() string {
	g := *f
	g.Value, g.BadValue, g.Neg, g.Count = nil, nil, false, nil
	return g.String()
}

// signed writes a number with its sign as written: -0 stays -0, which
// parses back the same.
func signed(neg bool, n int) string {
	if neg {
		return "-" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// Numbers returns the first and last numbers of a numbered entry, signs
// applied (the same for one number), and false for a named one.
func (f *FaceSpec) Numbers() (from, to int, ok bool) {
	if f.From == nil {
		return 0, 0, false
	}
	from = *f.From
	if f.FromNeg {
		from = -from
	}
	to = from
	if f.To != nil {
		to = *f.To
		if f.ToNeg {
			to = -to
		}
	}
	return from, to, true
}
