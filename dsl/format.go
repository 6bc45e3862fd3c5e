package dsl

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Format prints f in the canonical layout: two-space indentation, one
// statement per line, `{` at the end of the opening line and `}` on a line
// of its own, single spaces between tokens, at most one blank line where the
// source had blank lines between statements, and exactly one blank line
// between top-level declarations.
//
// Expressions are printed exactly as written (their Source), since they are
// expr-lang code that this package does not own. Comments are kept: a
// comment on a line of its own stays on a line of its own before whatever
// followed it, and a comment at the end of a line stays at the end of the
// line that now holds the statement it followed.
//
// Format uses f.Source and the nodes' positions to place comments and blank
// lines; for a File built in code without them it still prints every node.
func Format(f *File) []byte {
	if f == nil {
		return nil
	}
	p := newPrinter(f)
	for i, d := range f.Decls {
		pos, ok := posOf(d)
		if !ok {
			continue
		}
		_, side := d.(*SideSetup)
		prevSide := false
		if i > 0 {
			_, prevSide = f.Decls[i-1].(*SideSetup)
		}
		// Declarations stand apart, but the sides of a setup file are a
		// list (a blank line between them is kept if it was there).
		if i > 0 && !(side && prevSide) {
			p.forceBlank = true
		}
		p.startLine(pos.Offset, true)
		p.decl(d)
	}
	p.flush(math.MaxInt)
	if p.lineOpen {
		p.buf.WriteByte('\n')
	}
	return p.buf.Bytes()
}

// FormatSource parses src and formats it. A file with syntax errors is not
// formatted, because the parser drops the declarations it could not read:
// the result is nil and the diagnostics say why.
func FormatSource(filename string, src []byte) ([]byte, Diagnostics) {
	f, diags := Parse(filename, src)
	if f == nil || diags.HasErrors() {
		return nil, diags
	}
	return Format(f), diags
}

type printer struct {
	buf      bytes.Buffer
	src      string
	comments []Comment // still to print, in source order
	indent   int

	lineOpen   bool // the current output line has text; its '\n' is pending
	blockStart bool // nothing printed yet since the last '{'
	forceBlank bool // the next line starts after exactly one blank line
}

func newPrinter(f *File) *printer {
	return &printer{src: f.Source, comments: commentsOutsideExprs(f)}
}

// commentsOutsideExprs drops the comments that sit inside a bracketed,
// multi-line expression: they are part of its Source and print with it.
func commentsOutsideExprs(f *File) []Comment {
	type span struct{ from, to int }
	var spans []span
	Walk(f, func(n Node) {
		if e, ok := n.(*Expr); ok && e.Source != "" {
			spans = append(spans, span{e.Pos().Offset, e.Pos().Offset + len(e.Source)})
		}
	})
	// Walk visits in source order and expressions do not nest, so a single
	// merge pass over both sorted lists is enough.
	var out []Comment
	i := 0
	for _, c := range f.Comments {
		for i < len(spans) && spans[i].to <= c.Pos().Offset {
			i++
		}
		if i < len(spans) && spans[i].from <= c.Pos().Offset {
			continue
		}
		out = append(out, c)
	}
	return out
}

func (p *printer) put(s ...string) {
	for _, x := range s {
		p.buf.WriteString(x)
	}
}

// startLine begins the output line for the node at source offset off,
// first printing the comments that come before it.
func (p *printer) startLine(off int, blankOK bool) {
	p.flush(off)
	p.newLine(off, blankOK)
}

// flush prints the comments before source offset off. One that followed
// code on its source line goes at the end of the current output line, which
// holds that code; any other gets a line of its own.
func (p *printer) flush(off int) {
	for len(p.comments) > 0 && p.comments[0].Pos().Offset < off {
		c := p.comments[0]
		p.comments = p.comments[1:]
		if p.lineOpen && p.followsCode(c.Pos().Offset) {
			p.put(" ", c.Text)
			continue
		}
		p.newLine(c.Pos().Offset, true)
		p.put(c.Text)
	}
}

func (p *printer) newLine(off int, blankOK bool) {
	blank := p.forceBlank || (blankOK && !p.blockStart && p.blankBefore(off))
	if p.lineOpen {
		p.buf.WriteByte('\n')
	}
	if blank && p.buf.Len() > 0 {
		p.buf.WriteByte('\n')
	}
	p.forceBlank, p.blockStart = false, false
	p.put(strings.Repeat("  ", p.indent))
	p.lineOpen = true
}

// lineStart returns the offset where the source line holding off begins,
// or -1 if off is not in the source.
func (p *printer) lineStart(off int) int {
	if off < 0 || off > len(p.src) {
		return -1
	}
	return strings.LastIndexByte(p.src[:off], '\n') + 1
}

// followsCode reports whether something other than blanks and `;` comes
// before off on its source line.
func (p *printer) followsCode(off int) bool {
	ls := p.lineStart(off)
	return ls >= 0 && strings.TrimLeft(p.src[ls:off], " \t\r;") != ""
}

// blankBefore reports whether the node at off starts its source line and
// the line above it is blank.
func (p *printer) blankBefore(off int) bool {
	ls := p.lineStart(off)
	if ls <= 0 || strings.TrimSpace(p.src[ls:off]) != "" {
		return false
	}
	prev := p.src[:ls-1]
	return strings.TrimSpace(prev[strings.LastIndexByte(prev, '\n')+1:]) == ""
}

// endsWithBrace reports whether the node ending at end ends with `}`.
func (p *printer) endsWithBrace(end Pos) bool {
	o := end.Offset - 1
	return o >= 0 && o < len(p.src) && p.src[o] == '}'
}

// closeOffset is the source offset of the '}' that ends a block whose node
// ends at end (participle's EndPos is just past the last token).
func (p *printer) closeOffset(end Pos) int {
	if p.endsWithBrace(end) {
		return end.Offset - 1
	}
	if end.Offset > 0 {
		return end.Offset
	}
	return math.MaxInt
}

// block prints ` {`, each item on its own line one level deeper, and `}`.
func block[T Node](p *printer, items []T, end Pos, each func(T)) {
	p.put(" {")
	p.indent++
	p.blockStart = true
	for _, it := range items {
		pos, ok := posOf(it)
		if !ok {
			continue
		}
		p.startLine(pos.Offset, true)
		each(it)
	}
	closeAt := p.closeOffset(end)
	p.flush(closeAt) // comments at the end of the block keep its indentation
	p.indent--
	p.newLine(closeAt, false)
	p.put("}")
}

// posOf returns where statement n starts; ok is false for a nil one,
// which has nothing to print. A statement of a type the printer does not
// know is printed as unknown, so it is not asked for its position: it
// may be a struct that embeds a nil Node, whose methods panic.
func posOf(n Node) (pos Pos, ok bool) {
	switch n := n.(type) {
	case nil:
		return pos, false
	case *Ruleset:
		return at(n)
	case *Scenario:
		return at(n)
	case *SideSetup:
		return at(n)
	case *SourceStmt:
		return at(n)
	case *QuoteStmt:
		return at(n)
	case *SidesStmt:
		return at(n)
	case *AttrDecl:
		return at(n)
	case *StatusDecl:
		return at(n)
	case *RememberStmt:
		return at(n)
	case *PhaseStmt:
		return at(n)
	case *ActivationStmt:
		return at(n)
	case *HandlerStmt:
		return at(n)
	case *ExampleStmt:
		return at(n)
	case *StepStmt:
		return at(n)
	case *OrderStmt:
		return at(n)
	case *ReadyStmt:
		return at(n)
	case *HookStmt:
		return at(n)
	case *DecideStmt:
		return at(n)
	case *TieRule:
		return at(n)
	case *RollCrit:
		return at(n)
	case *DrawCrit:
		return at(n)
	case *RandomizerDecl:
		return at(n)
	case *ReshuffleAction:
		return at(n)
	case *DrawScript:
		return at(n)
	case *ValueCrit:
		return at(n)
	case *RandomCrit:
		return at(n)
	case *RerollCrit:
		return at(n)
	case *AwardCrit:
		return at(n)
	case *ChoiceCrit:
		return at(n)
	case *SetAction:
		return at(n)
	case *ReadyAction:
		return at(n)
	case *HolderAction:
		return at(n)
	case *FirstAction:
		return at(n)
	case *Assign:
		return at(n)
	case *UnitSetup:
		return at(n)
	case *UseRuleset:
		return at(n)
	case *PolicyStmt:
		return at(n)
	case *SeedStmt:
		return at(n)
	case *RoundBlock:
		return at(n)
	case *RollScript:
		return at(n)
	case *RandomScript:
		return at(n)
	case *ChooseScript:
		return at(n)
	case *SetScript:
		return at(n)
	case *StatusScript:
		return at(n)
	case *ReadyScript:
		return at(n)
	case *RemoveScript:
		return at(n)
	case *AddScript:
		return at(n)
	case *EventLine:
		return at(n)
	case *ActivateScript:
		return at(n)
	case *Expect:
		return at(n)
	}
	return pos, true
}

// at is posOf for a node of known type: the nil check is of the pointer,
// which an interface holding a nil pointer would hide.
func at[P interface {
	*N
	Node
}, N any](n P) (Pos, bool) {
	if n == nil {
		return Pos{}, false
	}
	return n.Pos(), true
}

// unknown marks a node this printer does not know, rather than dropping it
// silently or panicking. The parser cannot produce one.
func (p *printer) unknown(n any) {
	p.put(fmt.Sprintf("# dsl.Format: cannot print %T", n))
}

func (p *printer) decl(d Decl) {
	switch d := d.(type) {
	case *Ruleset:
		p.put("ruleset ", name(d.Name))
		if d.Title != nil {
			p.put(" ", text(*d.Title))
		}
		block(p, d.Body, d.End(), p.ruleStmt)
	case *Scenario:
		p.put("scenario ", text(d.Title))
		block(p, d.Body, d.End(), p.scenarioStmt)
	case *SideSetup:
		p.side(d)
	default:
		p.unknown(d)
	}
}

func (p *printer) ruleStmt(s RuleStmt) {
	switch s := s.(type) {
	case *SourceStmt:
		p.put("source ", text(s.Text))
	case *QuoteStmt:
		p.put("quote ", text(s.Text))
	case *SidesStmt:
		p.put("sides ", strconv.Itoa(s.Min))
		if s.Range || s.Max != nil {
			p.put("..")
		}
		if s.Max != nil {
			p.put(strconv.Itoa(*s.Max))
		}
	case *AttrDecl:
		p.put(string(s.Of), " attribute ", ident(s.Name), " ", string(s.Type.Name))
		if s.Range != nil {
			p.put(" ", s.Range.String())
		}
		if s.Default != nil {
			p.put(" = ", literal(s.Default))
		}
	case *StatusDecl:
		p.put("unit status ", idents(s.Names))
	case *RandomizerDecl:
		p.put(randomizer(s))
	case *RememberStmt:
		p.put("remember ", ident(s.Name), " = ")
		p.expr(s.Expr)
	case *PhaseStmt:
		p.put("phase ", name(s.Name), scope(s.Scope))
		block(p, s.Body, s.End(), p.phaseItem)
	case *ActivationStmt:
		p.activation(s)
	case *HandlerStmt:
		p.put("on ")
		if s.Hook != nil {
			p.put("hook ", ident(s.Hook.Name))
		} else {
			p.put(string(s.Edge), " of ", string(s.Point))
			if s.Target != nil {
				p.put(" ", name(s.Target.Name))
			}
		}
		p.when(s.When)
		block(p, s.Body, s.End(), p.action)
	case *ExampleStmt:
		p.put("example")
		block(p, s.Setup, s.End(), p.setupStmt)
	default:
		p.unknown(s)
	}
}

func (p *printer) phaseItem(s PhaseItem) {
	switch s := s.(type) {
	case *StepStmt:
		p.put("step ", name(s.Name), scope(s.Scope))
		block(p, s.Body, s.End(), p.phaseItem)
	case *OrderStmt:
		p.put("order ", string(s.Subjects), " as ", ident(s.Name), scope(s.Scope))
		block(p, s.Chain, s.End(), p.criterion)
	case *ReadyStmt:
		p.put("ready units")
		if s.Mode != "" {
			p.put(" ", string(s.Mode), " ")
			p.expr(s.Cond)
		}
	case *HookStmt:
		p.put("hook ", ident(s.Name))
	case *ActivationStmt:
		p.activation(s)
	case *DecideStmt:
		p.printDecide(s)
	case *QuoteStmt:
		p.put("quote ", text(s.Text))
	default:
		p.unknown(s)
	}
}

// activation prints an activation loop, in a ruleset or in a phase.
func (p *printer) activation(s *ActivationStmt) {
	p.put("activation ", string(s.Mode))
	if s.By != nil {
		p.put(" by ", ident(s.By.Name))
	}
	// A condition on passing runs to the end of the line, so a
	// default after it would be read as part of it.
	first, last := s.DefaultFirst, s.Default
	if s.PassWhen != nil && first == nil {
		first, last = last, nil
	}
	if first != nil {
		p.put(" default ", ident(first.Name))
	}
	if s.PassAllowed || s.PassWhen != nil {
		p.put(" pass allowed")
		p.when(s.PassWhen)
	}
	if last != nil {
		p.put(" default ", ident(last.Name))
	}
}

func (p *printer) criterion(c Criterion) {
	switch c := c.(type) {
	case *TieRule:
		p.put("tie")
		p.when(c.When)
		if c.Action != nil {
			// The one-line form stays one line; its action may itself be a
			// tie rule, which prints the same way.
			p.put(": ")
			p.criterion(c.Action)
			return
		}
		block(p, c.Block, c.End(), p.criterion)
	case *RollCrit:
		p.put(string(c.Dir), " roll ", c.Dice)
		if c.Modifier != nil {
			p.put(" ")
			p.modifier(c.Modifier)
		}
	case *ValueCrit:
		p.put(string(c.Dir), " ")
		p.expr(c.Expr)
	case *RandomCrit:
		p.put("random")
	case *RerollCrit:
		p.put("reroll")
	case *DrawCrit:
		p.put(string(c.Dir), " draw ", ident(c.Deck.Name))
	case *AwardCrit:
		p.put("award ")
		if c.Not {
			p.put("not ")
		}
		p.expr(c.Expr)
	case *ChoiceCrit:
		p.put("choice")
		if c.Kind != "" {
			p.put(" ", string(c.Kind))
		}
		p.put(" by ", role(c.By))
		if c.Default != nil {
			p.put(" default ", ident(c.Default.Name))
		}
	case *QuoteStmt:
		p.put("quote ", text(c.Text))
	default:
		p.unknown(c)
	}
}

func (p *printer) action(a Action) {
	switch a := a.(type) {
	case *SetAction:
		p.put("set ", ident(a.Attr), " of ")
		p.expr(a.Target)
		p.put(" = ")
		p.expr(a.Value)
	case *ReadyAction:
		p.put("ready ")
		p.expr(a.Expr)
	case *HolderAction:
		p.put("holder = ")
		p.expr(a.Expr)
	case *FirstAction:
		p.put("first = ")
		p.expr(a.Expr)
	case *ReshuffleAction:
		p.put("reshuffle ", ident(a.Deck.Name))
	case *QuoteStmt:
		p.put("quote ", text(a.Text))
	default:
		p.unknown(a)
	}
}

func (p *printer) setupStmt(s SetupStmt) {
	switch s := s.(type) {
	case *SideSetup:
		p.side(s)
	default:
		p.unknown(s)
	}
}

func (p *printer) side(s *SideSetup) {
	p.put("side ", name(s.Name))
	if s.Team != nil {
		p.put(" team ", name(*s.Team))
	}
	p.put(assigns(s.Attrs))
	// An empty `{ }` parses to no body; keep the braces when the author
	// wrote them, since comments may live inside.
	if len(s.Body) > 0 || p.endsWithBrace(s.End()) {
		block(p, s.Body, s.End(), p.sideItem)
	}
}

func (p *printer) sideItem(s SideItem) {
	switch s := s.(type) {
	case *UnitSetup:
		p.put("unit ", name(s.Name))
		if s.Count != nil {
			p.put(" * ", strconv.Itoa(*s.Count))
		}
		p.put(assigns(s.Attrs))
		if len(s.Status) > 0 {
			p.put(" status ", idents(identNames(s.Status)))
		}
	case *Assign:
		p.put(assign(s))
	default:
		p.unknown(s)
	}
}

func (p *printer) scenarioStmt(s ScenarioStmt) {
	switch s := s.(type) {
	case *UseRuleset:
		p.put("ruleset ", name(s.Name.Name))
	case *QuoteStmt:
		p.put("quote ", text(s.Text))
	case *PolicyStmt:
		p.put("decide by policy")
	case *SeedStmt:
		p.put("seed ", strconv.Itoa(s.Seed))
	case *SideSetup:
		p.side(s)
	case *RoundBlock:
		p.put("round ", strconv.Itoa(s.Number))
		block(p, s.Body, s.End(), p.roundStmt)
	default:
		p.unknown(s)
	}
}

func (p *printer) roundStmt(s RoundStmt) {
	switch s := s.(type) {
	case *RollScript:
		rolls := make([]string, 0, len(s.Rolls))
		for _, r := range s.Rolls {
			if r != nil {
				rolls = append(rolls, nameInt(r))
			}
		}
		p.put("roll ", strings.Join(rolls, ", "))
	case *DrawScript:
		draws := make([]string, 0, len(s.Draws))
		for _, r := range s.Draws {
			if r != nil {
				draws = append(draws, nameInt(r))
			}
		}
		p.put("draw ", strings.Join(draws, ", "))
	case *RandomScript:
		p.put("random ", names(s.Picks))
	case *ChooseScript:
		opts := make([]string, len(s.Options))
		for i, o := range s.Options {
			opts[i] = word(o)
			if intRE.MatchString(string(o)) {
				opts[i] = string(o) // a number answered, as written
			}
		}
		p.put(name(s.Who), " chooses ", strings.Join(opts, ", "))
	case *SetScript:
		p.put("set ", ident(s.Attr), " of ", name(s.Target), " = ", literal(s.Value))
	case *StatusScript:
		p.put(name(s.Unit), " is ")
		if s.Not {
			p.put("not ")
		}
		p.put(ident(s.Status))
	case *ReadyScript:
		p.put("ready ", name(s.Unit))
	case *RemoveScript:
		p.put("remove ", name(s.Unit))
	case *AddScript:
		p.put("add unit ", name(s.Name), " to ", name(s.Side.Name), assigns(s.Attrs))
		if len(s.Status) > 0 {
			p.put(" status ", idents(identNames(s.Status)))
		}
	case *ActivateScript:
		p.put("activate")
		if s.Count != nil {
			p.put(" ", strconv.Itoa(*s.Count))
		}
	case *Expect:
		p.expect(s)
	case *QuoteStmt:
		p.put("quote ", text(s.Text))
	default:
		p.unknown(s)
	}
}

// FormatExpect returns an expect statement as fmt writes it, on one line
// (`expect order "Malleus Deus", Jay`): a report of an unmet expectation
// says what was expected in the words of the file.
func FormatExpect(e *Expect) string {
	p := &printer{}
	p.expect(e)
	return p.buf.String()
}

// FormatName returns a name as fmt writes it where the grammar takes a
// name: bare where it reads as one, in double quotes where it would not
// (`"Malleus Deus"`, `"d6"`, or a word of the grammar such as `"pass"`).
func FormatName(n Name) string { return name(n) }

func (p *printer) expect(e *Expect) {
	p.put("expect")
	switch {
	case len(e.Order) > 0:
		p.put(" order ", names(Names(e.Order)))
	case e.Holder != nil:
		p.put(" holder ", name(e.Holder.Name))
	case e.Chooser != nil:
		p.put(" chooser ", name(e.Chooser.Name))
	case len(e.Activations) > 0:
		acts := make([]string, 0, len(e.Activations))
		for _, a := range e.Activations {
			switch {
			case a == nil:
			case a.Pass:
				acts = append(acts, "pass "+name(a.Name))
			default:
				acts = append(acts, name(a.Name))
			}
		}
		p.put(" activations ")
		if e.ActivationsIn != nil {
			p.put("in ", name(e.ActivationsIn.Name), ": ")
		}
		p.put(strings.Join(acts, ", "))
	case e.Ready != nil:
		p.put(" ready ", names(Names(e.Ready.Units)))
	case e.Standing != nil:
		p.put(" standing ", ident(e.Standing.Name), ": ", names(Names(e.Standing.Order)))
	case e.Error != nil:
		p.put(" error ", text(*e.Error))
	case e.Events != nil:
		p.put(" events exactly")
		block(p, e.Events.Lines, e.Events.End(), func(l *EventLine) {
			p.put(ident(l.Kind))
			p.eventRest(l.Event())
		})
	case e.Event != nil:
		if e.Event.No {
			p.put(" no")
		}
		p.put(" event ", ident(e.Event.Kind))
		p.eventRest(e.Event)
	}
}

// eventRest prints what follows an event expectation's kind: its
// arguments, its value and its by.
func (p *printer) eventRest(e *EventExpect) {
	for _, a := range e.Args {
		// Event arguments may be numbers, which the grammar takes
		// bare; quoting one would make it a different token. A word
		// of the grammar reads as a name here (`expect event hook
		// start`), except `by`, which ends the arguments.
		switch {
		case numberRE.MatchString(string(a)):
			p.put(" ", string(a))
		case a == "by":
			p.put(" ", strconv.Quote(string(a)))
		default:
			p.put(" ", word(a))
		}
	}
	if e.Value != nil {
		p.put(" = ", e.Value.Number)
	}
	if e.By != nil {
		p.put(" by ", name(e.By.Name))
	}
}

func identNames(ids []Ident) []Name {
	ns := make([]Name, len(ids))
	for i, id := range ids {
		ns[i] = id.Name
	}
	return ns
}

func (p *printer) when(e *Expr) {
	if e != nil {
		p.put(" when ")
		p.expr(e)
	}
}

// expr prints an expression exactly as written. An Expr built in code has
// no Source, so its tokens are joined instead.
func (p *printer) expr(e *Expr) {
	switch {
	case e == nil:
	case e.Source != "":
		p.put(e.Source)
	default:
		var toks []string
		for _, part := range e.Parts {
			toks = appendPart(toks, part)
		}
		p.put(joinTokens(toks))
	}
}

// modifier prints a roll's modifier, whose leading sign reads as the
// operator it is: `d6+agi` is written `d6 + agi`, not `d6 +agi`.
func (p *printer) modifier(e *Expr) {
	mark := p.buf.Len()
	p.expr(e)
	text := p.buf.String()[mark:]
	if len(text) < 2 || text[0] != '+' && text[0] != '-' || text[1] == ' ' || text[1] == text[0] {
		return
	}
	p.buf.Truncate(mark)
	p.put(text[:1], " ", text[1:])
}

func appendPart(toks []string, part *exprPart) []string {
	switch {
	case part == nil:
		return toks
	case part.Group != nil:
		return appendGroup(toks, part.Group)
	default:
		return append(toks, part.Tok)
	}
}

func appendGroup(toks []string, g *exprGroup) []string {
	open, inner, closing := "[", []*exprInner(nil), "]"
	switch {
	case g.Paren != nil:
		open, inner, closing = "(", g.Paren.Inner, ")"
	case g.Brack != nil:
		inner = g.Brack.Inner
	}
	toks = append(toks, open)
	for _, in := range inner {
		switch {
		case in == nil:
		case in.Group != nil:
			toks = appendGroup(toks, in.Group)
		case strings.TrimSpace(in.Tok) != "" && in.Tok != ";":
			toks = append(toks, in.Tok) // newlines inside brackets are layout only
		}
	}
	return append(toks, closing)
}

// joinTokens spaces tokens apart, except where expr-lang code is usually
// written tight: inside brackets, before commas, and around member access.
func joinTokens(toks []string) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			prev := toks[i-1]
			tight := prev == "(" || prev == "[" || prev == "." || prev == "?." ||
				t == ")" || t == "]" || t == "," || t == "." || t == "?." ||
				((t == "(" || t == "[") && identRE.MatchString(prev))
			if !tight {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t)
	}
	return b.String()
}

var (
	identRE  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	diceRE   = regexp.MustCompile(`^[0-9]*d[0-9]+$`)
	numberRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?$`)
	intRE    = regexp.MustCompile(`^[0-9]+$`)
)

// name writes a name where the grammar takes a name or a quoted string:
// bare where it reads as a name, in quotes where it would not (`"Legio
// Mortis"`, `"d6"`, or a word of the grammar, as in `roll "random" 4`).
func name(n Name) string {
	if keywords()[string(n)] {
		return strconv.Quote(string(n))
	}
	return word(n)
}

// word is name for a position where a word of the grammar is what is
// meant, bare, and reads as itself: a role (`by team`) or an answer
// (`chooses first`).
func word(n Name) string {
	s := string(n)
	if identRE.MatchString(s) && !diceRE.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}

// ident writes a name where the grammar takes only a bare name: it was
// written bare, so it reads as one there, keyword or not.
func ident(n Name) string { return string(n) }

func idents(ns []Name) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = ident(n)
	}
	return strings.Join(out, ", ")
}

// keywords are the words of the grammar (ruleset, random, pass, ...).
var keywords = sync.OnceValue(func() map[string]bool {
	words := map[string]bool{}
	for _, m := range regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)"`).FindAllStringSubmatch(parser.String(), -1) {
		words[m[1]] = true
	}
	return words
})

func names(ns []Name) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = name(n)
	}
	return strings.Join(out, ", ")
}

func text(t Text) string { return strconv.Quote(string(t)) }

func role(r *Role) string {
	if r == nil {
		return ""
	}
	parts := make([]string, len(r.Path))
	for i, n := range r.Path {
		parts[i] = ident(n)
		if i == 0 {
			parts[i] = word(n) // the only part that may be quoted
		}
	}
	return strings.Join(parts, ".")
}

func scope(s *Scope) string {
	switch {
	case s == nil:
		return ""
	case s.Each:
		return " each round"
	case s.Once:
		return " once"
	case len(s.Changed) > 0:
		ns := make([]Name, len(s.Changed))
		for i, n := range s.Changed {
			ns[i] = n.Name
		}
		return " until changed " + idents(ns)
	}
	return ""
}

func literal(l *Literal) string {
	if l == nil {
		return ""
	}
	var s string
	switch {
	case l.Int != nil:
		s = strconv.Itoa(*l.Int)
	case l.Str != nil:
		s = text(*l.Str)
	case l.Word != nil:
		s = *l.Word
	}
	if l.Neg {
		return "-" + s
	}
	return s
}

func assign(a *Assign) string {
	if a == nil {
		return ""
	}
	return ident(a.Name) + " = " + literal(a.Value)
}

// assigns prints `NAME = VALUE` pairs, each preceded by a space.
func assigns(as []*Assign) string {
	var b strings.Builder
	for _, a := range as {
		if a != nil {
			b.WriteString(" " + assign(a))
		}
	}
	return b.String()
}

// Keywords returns the words of the grammar, sorted: what an editor
// highlights and completes.
func Keywords() []string {
	return slices.Sorted(maps.Keys(keywords()))
}

// randomizer prints a die, deck or bag declaration on one line: its
// contents are a list, as a scenario's rolls are.
func randomizer(s *RandomizerDecl) string {
	out := string(s.Kind) + " " + ident(s.Name.Name)
	if s.PerSide {
		out += " per side"
	}
	if s.Reshuffle != "" {
		out += " reshuffle " + string(s.Reshuffle)
	}
	faces := make([]string, 0, len(s.Faces))
	for _, f := range s.Faces {
		if f != nil {
			faces = append(faces, f.String())
		}
	}
	return out + " { " + strings.Join(faces, ", ") + " }"
}

// nameInt prints an entry of a scripted roll or draw: `Jay 4`, `Jay crit`.
func nameInt(r *NameInt) string {
	if r.Face != nil {
		return name(r.Name) + " " + name(*r.Face)
	}
	return name(r.Name) + " " + strconv.Itoa(r.Value)
}
