package dsl

import (
	"strconv"
	"strings"
)

// DecideStmt is `decide NAME TYPE by WHO [secretly] [default VALUE|random]`:
// a decision a side makes, or each side makes, at that point of the round.
// Its value is readable in expressions once it is made, for the rest of
// the round.
type DecideStmt struct {
	Span
	Name     Ident     `parser:"'decide' @@"`
	Type     *TypeSpec `parser:"@@"`
	Each     bool      `parser:"'by' ( @('each' 'side')"`
	By       *Role     `parser:"     | @@ )"`
	Secretly bool      `parser:"@'secretly'?"`
	Random   bool      `parser:"( 'default' ( @'random'"`
	Default  *Literal  `parser:"            | @@ ) )?"`
}

// TypeSpec is the type of a decision: `bool`, `int MIN..MAX` (or any
// other type word, which the compiler refuses), or `one of NAME, ...`.
type TypeSpec struct {
	Span
	Options []NameAt  `parser:"(  'one' 'of' (?! 'by') @@ (',' @@)*"`
	Name    *Ident    `parser:" | (?! 'by') @@"`
	Range   *IntRange `parser:"   @@? )"`
}

// IntRange is `MIN..MAX`, both included: the values an int attribute or
// decision may take.
type IntRange struct {
	Span
	MinNeg bool `parser:"@'-'?"`
	Min    int  `parser:"@Int '..'"`
	MaxNeg bool `parser:"@'-'?"`
	Max    int  `parser:"@Int"`
}

// Bounds returns the range's least and most values.
func (r *IntRange) Bounds() (lo, hi int) {
	lo, hi = r.Min, r.Max
	if r.MinNeg {
		lo = -lo
	}
	if r.MaxNeg {
		hi = -hi
	}
	return lo, hi
}

// String writes the range as the language does: "1..6".
func (r *IntRange) String() string {
	lo, hi := r.Bounds()
	return strconv.Itoa(lo) + ".." + strconv.Itoa(hi)
}

// String writes the type as the language does.
func (t *TypeSpec) String() string {
	if t == nil {
		return ""
	}
	if len(t.Options) > 0 {
		parts := make([]string, len(t.Options))
		for i, o := range t.Options {
			parts[i] = name(o.Name)
		}
		return "one of " + strings.Join(parts, ", ")
	}
	s := ""
	if t.Name != nil {
		s = string(t.Name.Name)
	}
	if t.Range != nil {
		s += " " + t.Range.String()
	}
	return s
}

func (d *DecideStmt) Pos() Pos { return d.Span.Pos }
func (d *DecideStmt) End() Pos { return d.Span.EndPos }
func (t *TypeSpec) Pos() Pos   { return t.Span.Pos }
func (t *TypeSpec) End() Pos   { return t.Span.EndPos }
func (r *IntRange) Pos() Pos   { return r.Span.Pos }
func (r *IntRange) End() Pos   { return r.Span.EndPos }

func (*DecideStmt) phaseItem() {}

var (
	_ Node      = (*DecideStmt)(nil)
	_ Node      = (*TypeSpec)(nil)
	_ Node      = (*IntRange)(nil)
	_ PhaseItem = (*DecideStmt)(nil)
)

// String writes the statement as the formatter does.
func (s *DecideStmt) String() string {
	var b strings.Builder
	b.WriteString("decide " + ident(s.Name.Name) + " " + s.Type.String() + " by ")
	if s.Each {
		b.WriteString("each side")
	} else if s.By != nil {
		b.WriteString(s.By.String())
	}
	if s.Secretly {
		b.WriteString(" secretly")
	}
	switch {
	case s.Random:
		b.WriteString(" default random")
	case s.Default != nil:
		b.WriteString(" default " + literal(s.Default))
	}
	return b.String()
}

// printDecide prints a decide statement as the formatter writes it.
func (p *printer) printDecide(s *DecideStmt) { p.put(s.String()) }

// decideWithoutType explains `decide bid by holder`, a decision with no
// type, and `decide kick one of by holder`, one of no options: the type
// comes before by.
func decideWithoutType(s *hintSite) (Diagnostic, bool) {
	if s.i < 0 || s.word != "by" && s.word != "of" {
		return s.d, false
	}
	w := stmtWords(s.tokens, s.i)
	if len(w) < 2 || w[0] != "decide" || len(w) > 3 {
		return s.d, false
	}
	return s.unexpected("a decision has a type before `by`: `decide %s bool by ...` (yes or no), `decide %s int 1..6 by ...` (a number in a range) or `decide %s one of NAME, NAME by ...` (one of named options)", w[1], w[1], w[1]), true
}
