package runtime

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// Compile compiles the ruleset in f. A file that holds several is an
// error: compile one of them with CompileRuleset. The error, if any, is a
// dsl.Diagnostics listing every problem found. (rulesets.Compile turns a
// file's text into a Program, compiling its first ruleset.)
func Compile(f *dsl.File, opts ...Option) (*Program, error) {
	if f == nil {
		return nil, dsl.Diagnostics{dsl.Errorf(dsl.Pos{}, "no ruleset: there is no file")}
	}
	rs := f.Rulesets()
	switch {
	case len(rs) == 0:
		return nil, dsl.Diagnostics{dsl.Errorf(f.Pos(), "no ruleset in this file")}
	case len(rs) > 1:
		return nil, dsl.Diagnostics{dsl.Errorf(rs[1].Pos(), "this file has several rulesets; compile one with CompileRuleset")}
	}
	return CompileRuleset(f, rs[0], opts...)
}

// CompileRuleset compiles one ruleset of f.
func CompileRuleset(f *dsl.File, r *dsl.Ruleset, opts ...Option) (*Program, error) {
	if r == nil {
		return nil, dsl.Diagnostics{dsl.Errorf(dsl.Pos{}, "no ruleset: CompileRuleset was given none")}
	}
	p := &Program{
		name:      string(r.Name),
		file:      f,
		orders:    map[string]*order{},
		hookNames: map[string]bool{},
		limits:    DefaultLimits(),
		minSides:  2,
		funcs:     builtins(),
	}
	if r.Title != nil {
		p.title = string(*r.Title)
	}
	for _, o := range opts {
		if o != nil {
			o(p)
		}
	}
	c := &compiler{p: p, names: map[string]declared{}, phaseNames: map[string]bool{}, stepNames: map[string]bool{}}
	c.declarations(r)
	c.collectPhaseNames(r)
	c.hostFunctions(r.Pos())
	if p.limits.MaxRerolls > MaxRerollsAllowed {
		c.errorf(r.Pos(), "WithLimits: MaxRerolls is %d, more than the %d an order can be played with", p.limits.MaxRerolls, MaxRerollsAllowed)
	}
	p.types = buildEnvTypes(p)
	c.rules(r)
	c.checkDecidedFirst()
	p.diags.Sort()
	p.warnings.Sort()
	if p.diags.HasErrors() {
		return nil, append(p.diags, p.warnings...)
	}
	p.fingerprint = fingerprint(r)
	return p, nil
}

// hostFunctions refuses a Go function that expressions could not call by
// its name, or that would silently replace or lose to another name.
func (c *compiler) hostFunctions(pos dsl.Pos) {
	for _, msg := range c.p.badSigs {
		c.errorf(pos, "%s", msg)
	}
	seen := map[string]bool{}
	for _, name := range c.p.hostFuncs {
		_, isBuiltin := builtin.Index[name]
		d, isDeclared := c.names[name]
		switch {
		case !identRE.MatchString(name):
			c.errorf(pos, "WithFunction(%q): an expression cannot call a function by that name", name)
		case isBuiltin || name == sameTeam:
			c.errorf(pos, "WithFunction(%q) would replace the built-in function %s", name, name)
		case reserved[name]:
			c.errorf(pos, "WithFunction(%q): every expression has a value called %s, which would hide the function", name, name)
		case isDeclared:
			c.errorf(pos, "WithFunction(%q): the %s %s declared at line %d would hide the function", name, d.what, name, d.pos.Line)
		case seen[name]:
			c.errorf(pos, "WithFunction(%q) is given twice", name)
		}
		seen[name] = true
	}
}

type compiler struct {
	p          *Program
	names      map[string]declared // attributes, statuses, remembered values
	phaseNames map[string]bool
	stepNames  map[string]bool
	sawSides   bool
	sawLoop    bool         // an activation is written, compiled or not
	tie        *dsl.TieRule // the tie rule whose action is being compiled
	// nextOrder is the id of the next order a round makes after the phase
	// item being compiled (see checkMade).
	nextOrder int
}

func (c *compiler) errorf(pos dsl.Pos, format string, args ...any) {
	c.p.diags = append(c.p.diags, dsl.Errorf(pos, format, args...))
}

func (c *compiler) warnf(pos dsl.Pos, format string, args ...any) {
	c.p.warnings = append(c.p.warnings, dsl.Warnf(pos, format, args...))
}

func (c *compiler) addDiag(d *dsl.Diagnostic) {
	if d != nil {
		c.p.diags = append(c.p.diags, *d)
	}
}

// reserved names are fields every expression environment already has.
var reserved = map[string]bool{
	"name": true, "team": true, "units": true, "side": true, "ready": true, "round": true,
	"previous": true, "sides": true, "tied": true, "holder": true, "chooser": true,
	mySide: true,
}

// exprWords are expr-lang's own words, which no field can be read by.
var exprWords = map[string]bool{
	"true": true, "false": true, "nil": true, "and": true, "or": true, "not": true, "in": true,
	"matches": true, "contains": true, "startsWith": true, "endsWith": true, "let": true, "if": true, "else": true,
}

// orderName refuses an order name that expressions could not read the
// order by: one that is already a name they read (an attribute, a status,
// a remembered value, a reserved name) or a word or function of
// expr-lang's.
func (c *compiler) orderName(s *dsl.OrderStmt) {
	name := string(s.Name)
	switch {
	case reserved[name]:
		c.declareName(name, s.Pos(), "order") // which says so
	case exprWords[name]:
		c.errorf(s.Pos(), "order %s: expressions could not read an order by that name, which is a word of theirs", name)
	case isBuiltinName(name):
		c.errorf(s.Pos(), "order %s: expressions could not read an order by that name, which is a built-in function", name)
	default:
		c.declareName(name, s.Pos(), "order")
	}
}

// isBuiltinName reports whether name is a function every expression has.
func isBuiltinName(name string) bool {
	_, ok := builtin.Index[name]
	return ok || name == sameTeam
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// declared is a name an expression can use, and what declared it.
type declared struct {
	pos  dsl.Pos
	what string
}

func (c *compiler) declareName(name string, pos dsl.Pos, what string) bool {
	if reserved[name] {
		c.errorf(pos, "%s %s: the name is reserved", what, name)
		return false
	}
	if prev, ok := c.names[name]; ok {
		if prev.what == what {
			c.errorf(pos, "%s %s is declared twice (first at line %d)", what, name, prev.pos.Line)
		} else {
			c.errorf(pos, "%s %s: %s is already a %s (line %d)", what, name, name, prev.what, prev.pos.Line)
		}
		return false
	}
	c.names[name] = declared{pos, what}
	return true
}

// declarations collects what expressions can refer to, before any
// expression is compiled.
func (c *compiler) declarations(r *dsl.Ruleset) {
	p := c.p
	for _, st := range r.Body {
		switch s := st.(type) {
		case *dsl.SourceStmt:
			p.source = string(s.Text)
		case *dsl.SidesStmt:
			if c.sawSides {
				c.errorf(s.Pos(), "sides is declared twice")
			}
			c.sawSides = true
			p.minSides, p.maxSides = s.Min, s.Min
			if s.Range {
				p.maxSides = 0
				if s.Max != nil {
					p.maxSides = *s.Max
				}
			}
			switch {
			case p.minSides < 1:
				c.errorf(s.Pos(), "a battle needs at least 1 side (sides %d)", p.minSides)
				p.minSides, p.maxSides = 1, 0 // no follow-on errors about the example's sides
			case p.maxSides != 0 && p.maxSides < p.minSides:
				c.errorf(s.Pos(), "sides %d..%d is not a valid range: the most is below the fewest", p.minSides, p.maxSides)
				p.minSides, p.maxSides = 1, 0
			}
		case *dsl.AttrDecl:
			c.attr(s)
		case *dsl.StatusDecl:
			for _, n := range s.Names {
				if c.declareName(string(n), s.Pos(), "status") {
					p.statuses = append(p.statuses, string(n))
				}
			}
		case *dsl.RememberStmt:
			if c.declareName(string(s.Name), s.Pos(), "remembered value") {
				p.remember = append(p.remember, &rememberDef{name: string(s.Name)})
			}
		case *dsl.PhaseStmt:
			c.declareDecisions(s.Body)
		case *dsl.RandomizerDecl:
			c.randomizer(s)
		}
	}
}

func (c *compiler) attr(s *dsl.AttrDecl) {
	t := AttrType(s.Type.Name)
	switch t {
	case IntAttr, BoolAttr, StringAttr:
	default:
		c.errorf(s.Type.Pos(), "attribute %s has unknown type %q (use int, bool or string)", s.Name, s.Type)
		// Declared all the same, as the type meant, so that what uses it
		// is not reported too: the mistake is this one word.
		t = likelyType(s)
	}
	if !c.declareName(string(s.Name), s.Pos(), string(s.Of)+" attribute") {
		return
	}
	a := Attr{Name: string(s.Name), Type: t, Default: t.zero(), Pos: s.Pos()}
	c.attrRange(s, &a)
	if s.Default != nil {
		v, err := literalValue(s.Default, t)
		if err == nil {
			v, err = a.inRange(v)
		}
		if err != nil {
			c.errorf(s.Default.Pos(), "default of %s: %v", s.Name, err)
		} else {
			a.Default = v
		}
	}
	if s.Of == dsl.OwnerSide {
		c.p.sideAttrs = append(c.p.sideAttrs, a)
	} else {
		c.p.unitAttrs = append(c.p.unitAttrs, a)
	}
}

// likelyType is the type an attribute declared with an unknown one was
// meant to have: the type its name is another word for, or else its
// default's.
func likelyType(s *dsl.AttrDecl) AttrType {
	switch strings.ToLower(string(s.Type.Name)) {
	case "boolean", "flag":
		return BoolAttr
	case "str", "text", "name":
		return StringAttr
	case "float", "number", "integer", "double", "decimal", "num", "uint":
		return IntAttr
	}
	switch l := s.Default; {
	case l == nil || l.Int != nil:
	case l.Word != nil && (*l.Word == "true" || *l.Word == "false"):
		return BoolAttr
	default:
		return StringAttr
	}
	return IntAttr
}

// literalValue converts a setup literal to an attribute's type.
func literalValue(l *dsl.Literal, t AttrType) (any, error) {
	switch t {
	case IntAttr:
		if l.Int == nil {
			return nil, fmt.Errorf("want a whole number, got %s", l)
		}
		if l.Neg {
			return exactInt(-int64(*l.Int))
		}
		return exactInt(int64(*l.Int))
	case BoolAttr:
		if l.Word != nil && (*l.Word == "true" || *l.Word == "false") {
			return *l.Word == "true", nil
		}
		return nil, fmt.Errorf("want true or false, got %s", l)
	default:
		switch {
		case l.Str != nil:
			return string(*l.Str), nil
		case l.Word != nil:
			return *l.Word, nil
		}
		if l.Int != nil {
			// As dsl says it of a number too large for an int.
			return nil, fmt.Errorf("want a string (in quotes, or a word), got %s: a number for a string attribute must be quoted, %q", l, l.String())
		}
		return nil, fmt.Errorf("want a string (in quotes, or a word), got %s", l)
	}
}

// collectPhaseNames registers the phases, and the orders, steps and hooks
// in them, before any rule is compiled: activation and roles can name any
// order, and every expression can read one.
func (c *compiler) collectPhaseNames(r *dsl.Ruleset) {
	for _, st := range r.Body {
		if s, ok := st.(*dsl.PhaseStmt); ok {
			c.collectNames(s.Body, "phase "+nameWords(string(s.Name)))
			if c.phaseNames[string(s.Name)] {
				c.errorf(s.Pos(), "phase %s is declared twice", s.Name)
			}
			c.phaseNames[string(s.Name)] = true
		}
	}
}

// rules compiles phases, activation, handlers and remembered values.
func (c *compiler) rules(r *dsl.Ruleset) {
	p := c.p
	for _, st := range r.Body {
		switch s := st.(type) {
		case *dsl.PhaseStmt:
			ph := c.newPhase(dsl.PointPhase, string(s.Name), c.scope(s.Scope, scope{kind: dsl.EachRound}), s.Pos())
			c.phaseBody(ph, s.Body)
			p.phases = append(p.phases, ph)
		case *dsl.RememberStmt:
			for _, rd := range p.remember {
				if rd.name == string(s.Name) {
					e, d := p.compileExpr(s.Expr, p.types.groupSides, anyValue)
					c.addDiag(d)
					rd.e = e
				}
			}
		case *dsl.ExampleStmt:
			p.example = SetupFromDSL(s.Setup)
		}
	}
	for _, st := range r.Body {
		if s, ok := st.(*dsl.ActivationStmt); ok {
			c.rulesetActivation(s)
		}
	}
	if p.main == nil {
		for _, ph := range p.phases {
			if o := firstOrder(ph); o != nil {
				p.main = o
				break
			}
		}
	}
	p.placeLoops()
	// Handlers last: what holder names depends on the main standing.
	for _, st := range r.Body {
		if s, ok := st.(*dsl.HandlerStmt); ok {
			c.handler(s)
		}
	}
	c.warnReadyOnce(r)
	c.warnHookTypos(r)
	c.warnNeverReshuffled()
	if len(p.phases) == 0 {
		c.errorf(r.Pos(), "ruleset %s has no phase", r.Name)
	}
	if p.main == nil && !c.sawLoop && len(p.phases) > 0 {
		c.errorf(r.Pos(), "ruleset %s has no order procedure and no activation loop (add `order sides as priority { ... }` to a phase)", r.Name)
	}
	if p.example != nil {
		if _, err := p.newBattle(p.example, true); err != nil {
			c.p.diags = append(c.p.diags, asDiagnostics(err, r.Pos())...)
		} else {
			p.resolveExample()
		}
	}
}

// hookWords are the names that hook points are given by convention, after
// the rulebooks' "Start of Priority Phase" and "End of Priority Phase".
var hookWords = []string{"start", "end"}

// warnHookTypos warns about `hook strat`: any name makes a hook point, so
// a misspelt one is no error, but rules written `on hook start` never run
// there, and a scenario's `expect event hook start` never sees it. A name
// one edit from start or end that no `on hook` rule uses is most likely
// such a typo; one that a rule uses is the author's own name.
func (c *compiler) warnHookTypos(r *dsl.Ruleset) {
	used := map[string]bool{}
	var hooks []*dsl.HookStmt
	dsl.Walk(r, func(n dsl.Node) {
		switch n := n.(type) {
		case *dsl.HandlerStmt:
			if n.Hook != nil {
				used[string(n.Hook.Name)] = true
			}
		case *dsl.HookStmt:
			hooks = append(hooks, n)
		}
	})
	for _, h := range hooks {
		name := string(h.Name)
		if used[name] || slices.Contains(hookWords, name) {
			continue
		}
		for _, w := range hookWords {
			if wording.EditDistance(name, w) == 1 {
				c.warnf(hookNamePos(c.p.file, h), "`hook %s` makes a hook point of its own, which no `on hook %s` rule uses: did you mean `hook %s`?", name, name, w)
				break
			}
		}
	}
}

// hookNamePos is where the name of `hook NAME` is written: after the word
// hook and the blanks that follow it. Without the file's source (a File
// not made by dsl.Parse) it is where the statement is.
func hookNamePos(f *dsl.File, h *dsl.HookStmt) dsl.Pos {
	pos := h.Pos()
	if f == nil || pos.Offset < 0 || !strings.HasPrefix(f.Source[min(pos.Offset, len(f.Source)):], "hook") {
		return pos
	}
	off := pos.Offset + len("hook")
	for off < len(f.Source) && (f.Source[off] == ' ' || f.Source[off] == '\t') {
		off++
	}
	pos.Column += off - pos.Offset
	pos.Offset = off
	return pos
}

// warnReadyOnce warns when every `ready units` of a ruleset with an
// activation loop is in a phase or step that runs once: the loop then
// activates in round 1 only, and from round 2 no unit is Ready and the
// rounds pass with nothing said (Necromunda's priority phase changed to
// `once`). A handler's `ready` can ready units later, so then it is quiet.
func (c *compiler) warnReadyOnce(r *dsl.Ruleset) {
	var act *dsl.ActivationStmt
	handlerReady := false
	dsl.Walk(r, func(n dsl.Node) {
		switch n := n.(type) {
		case *dsl.ActivationStmt:
			act = n
		case *dsl.ReadyAction:
			handlerReady = true
		}
	})
	if act == nil || handlerReady {
		return
	}
	type placed struct {
		ready *dsl.ReadyStmt
		what  string     // the phase or step whose scope is once
		once  *dsl.Scope // nil: it runs every round
	}
	var readies []placed
	var visit func(items []dsl.PhaseItem, what string, once *dsl.Scope)
	visit = func(items []dsl.PhaseItem, what string, once *dsl.Scope) {
		for _, it := range items {
			switch s := it.(type) {
			case *dsl.ReadyStmt:
				readies = append(readies, placed{s, what, once})
			case *dsl.StepStmt:
				if once == nil && s.Scope.Kind() == dsl.Once {
					visit(s.Body, "step "+nameWords(string(s.Name)), s.Scope)
				} else {
					visit(s.Body, what, once)
				}
			}
		}
	}
	for _, st := range r.Body {
		if s, ok := st.(*dsl.PhaseStmt); ok {
			var once *dsl.Scope
			if s.Scope.Kind() == dsl.Once {
				once = s.Scope
			}
			visit(s.Body, "phase "+nameWords(string(s.Name)), once)
		}
	}
	if len(readies) == 0 || slices.ContainsFunc(readies, func(p placed) bool { return p.once == nil }) {
		return
	}
	first := readies[0]
	c.warnf(first.once.Pos(), "%s is `once`, so its `ready units` (line %d) gives Ready markers in round 1 only: from round 2 no unit is Ready and `activation %s` activates nobody; write `each round` here, or move the `ready units` into a phase or step that runs each round",
		first.what, first.ready.Pos().Line, act.Mode)
}

// nameWords writes a phase or step name as the rules do: in quotes if it
// is not one word.
func nameWords(name string) string {
	if strings.ContainsAny(name, " \t\"") {
		return strconv.Quote(name)
	}
	return name
}

// resolveExample replaces the example's setup literals, which NewBattle
// has just accepted, with the values they stand for: Example hands out
// no node of the parsed file, and its sides encode as JSON that NewBattle
// accepts again.
func (p *Program) resolveExample() {
	resolve := func(attrs map[string]any, decl []Attr) {
		for k, v := range attrs {
			i := slices.IndexFunc(decl, func(a Attr) bool { return a.Name == k })
			if i < 0 {
				continue
			}
			if x, err := convertAttr(v, decl[i].Type); err == nil {
				attrs[k] = x
			}
		}
	}
	for i := range p.example {
		resolve(p.example[i].Attrs, p.sideAttrs)
		for j := range p.example[i].Units {
			resolve(p.example[i].Units[j].Attrs, p.unitAttrs)
		}
	}
}

func firstOrder(ph *phase) *order {
	for _, it := range ph.items {
		switch x := it.(type) {
		case *order:
			return x
		case *phase:
			if o := firstOrder(x); o != nil {
				return o
			}
		}
	}
	return nil
}

// newPhase makes a phase or step, numbered in the order compiled.
func (c *compiler) newPhase(kind dsl.Point, name string, sc scope, pos dsl.Pos) *phase {
	ph := &phase{id: len(c.p.phaseKeys), name: name, key: string(kind) + " " + name, once: sc.kind == dsl.Once, scope: sc, pos: pos,
		start: &HookPoint{Edge: dsl.EdgeStart, Kind: kind, Name: name}, end: &HookPoint{Edge: dsl.EdgeEnd, Kind: kind, Name: name}}
	c.p.phaseKeys = append(c.p.phaseKeys, ph.key)
	return ph
}

// collectNames registers order, step and hook names ahead of compiling;
// where is the phase or step the items are in, for messages.
func (c *compiler) collectNames(items []dsl.PhaseItem, where string) {
	for _, it := range items {
		switch s := it.(type) {
		case *dsl.OrderStmt:
			if _, dup := c.p.orders[string(s.Name)]; dup {
				c.errorf(s.Pos(), "order %s is declared twice", s.Name)
				continue
			}
			c.orderName(s)
			o := &order{id: len(c.p.orderList), name: string(s.Name), units: s.Subjects == dsl.OrderUnits, pos: s.Pos(), where: where}
			c.p.orders[o.name] = o
			c.p.orderList = append(c.p.orderList, o)
		case *dsl.StepStmt:
			if c.stepNames[string(s.Name)] {
				c.errorf(s.Pos(), "step %q is declared twice", s.Name)
			}
			c.stepNames[string(s.Name)] = true
			c.collectNames(s.Body, "step "+nameWords(string(s.Name)))
		case *dsl.HookStmt:
			c.p.hookNames[string(s.Name)] = true
		}
	}
}

func (c *compiler) scope(s *dsl.Scope, def scope) scope {
	switch {
	case s == nil:
		return def
	case s.Once:
		return scope{kind: dsl.Once}
	case len(s.Changed) > 0:
		sc := scope{kind: dsl.UntilChanged}
		for _, n := range s.Changed {
			if !c.isAttr(string(n.Name)) {
				var names []string
				for _, a := range append(slices.Clone(c.p.sideAttrs), c.p.unitAttrs...) {
					names = append(names, a.Name)
				}
				meant := ""
				if best := dsl.Suggest(string(n.Name), append(names, c.p.statuses...)); best != "" {
					meant = fmt.Sprintf(" (did you mean %s?)", best)
				}
				c.errorf(n.Pos(), "until changed %s: no side or unit attribute is called %s%s", n, n, meant)
			}
			sc.watched = append(sc.watched, string(n.Name))
		}
		return sc
	}
	return scope{kind: dsl.EachRound}
}

func (c *compiler) isAttr(name string) bool {
	for _, a := range append(slices.Clone(c.p.sideAttrs), c.p.unitAttrs...) {
		if a.Name == name {
			return true
		}
	}
	return slices.Contains(c.p.statuses, name)
}

func (c *compiler) phaseBody(ph *phase, body []dsl.PhaseItem) {
	p := c.p
	for _, it := range body {
		switch s := it.(type) {
		case *dsl.StepStmt:
			st := c.newPhase(dsl.PointStep, string(s.Name), c.scope(s.Scope, ph.scope), s.Pos())
			c.phaseBody(st, s.Body)
			ph.items = append(ph.items, st)
		case *dsl.OrderStmt:
			o := p.orders[string(s.Name)]
			if o == nil || o.pos != s.Pos() {
				continue // a duplicate, already reported
			}
			o.scope = c.scope(s.Scope, ph.scope)
			errs := len(p.diags)
			o.chain = c.chain(o, s.Chain, 0)
			c.checkChainMade(o, o.chain)
			c.nextOrder = o.id + 1
			if len(o.chain) == 0 && len(p.diags) == errs { // quotes compile to nothing
				c.errorf(s.Pos(), "order %s has no criteria: give it one, such as `highest roll d6`", o.name)
			}
			if len(p.diags) == errs {
				c.checkResolves(o, s) // warnings about a broken chain would only confuse
				c.warnAwardOfMany(o, o.chain)
			}
			ph.items = append(ph.items, o)
		case *dsl.ReadyStmt:
			rr := &readyRule{unless: s.Mode == dsl.ReadyUnless, pos: s.Pos()}
			if s.Cond != nil {
				e, d := p.compileExpr(s.Cond, p.types.unitEnv, boolValue)
				c.addDiag(d)
				rr.cond = e
				c.checkMade(e, c.nextOrder, nil)
				if e != nil {
					rr.parts = p.readyParts(s.Cond, rr.unless)
				}
			}
			p.readies = true
			ph.items = append(ph.items, rr)
		case *dsl.HookStmt:
			ph.items = append(ph.items, &hookPoint{at: &HookPoint{Kind: dsl.PointHook, Name: string(s.Name)}, pos: s.Pos()})
		case *dsl.ActivationStmt:
			if slices.ContainsFunc(ph.items, func(it phaseItem) bool { _, ok := it.(*activation); return ok }) {
				c.errorf(s.Pos(), "%s has two activation loops: give each its own phase or step", ph.key)
				continue
			}
			if a := c.activation(s); a != nil {
				p.loops = append(p.loops, a)
				a.id = len(p.loops)
				ph.items = append(ph.items, a)
			}
		case *dsl.DecideStmt:
			if d := p.decisionAt(s); d != nil {
				c.checkDecideRole(s, d)
				if s.By != nil {
					c.checkRoleMade("decide "+d.name+" by "+d.role, d.role, s.By.Pos(), c.nextOrder, nil)
				}
				ph.items = append(ph.items, d)
			}
		}
	}
}

// placeLoops tells each phase's activation loop where in the round it is.
func (p *Program) placeLoops() {
	var walk func(ph *phase, top *phase, path []int, step string)
	walk = func(ph *phase, top *phase, path []int, step string) {
		for i, it := range ph.items {
			at := append(slices.Clip(path), i)
			switch x := it.(type) {
			case *phase:
				walk(x, top, at, x.name)
			case *activation:
				x.path, x.top, x.phase, x.step = at, top, top.name, step
			}
		}
	}
	for i, ph := range p.phases {
		walk(ph, ph, []int{i}, "")
	}
}

// phasesAt returns the phases (of the round, not steps) a handler's point
// is in: the phase itself, the phase a step is in, or every phase with the
// hook point.
func (p *Program) phasesAt(at HookPoint) []*phase {
	var out []*phase
	var in func(ph *phase) bool
	in = func(ph *phase) bool {
		for _, it := range ph.items {
			switch x := it.(type) {
			case *phase:
				if at.Kind == dsl.PointStep && x.name == at.Name || in(x) {
					return true
				}
			case *hookPoint:
				if at.Kind == dsl.PointHook && x.at.Name == at.Name {
					return true
				}
			}
		}
		return false
	}
	for _, ph := range p.phases {
		if at.Kind == dsl.PointPhase && ph.name == at.Name || in(ph) {
			out = append(out, ph)
		}
	}
	return out
}

// hasLoop reports whether an activation loop runs in ph or its steps.
func (p *Program) hasLoop(ph *phase) bool {
	return slices.ContainsFunc(p.loops, func(a *activation) bool { return a.top == ph })
}

// readyParts splits a ready rule's condition into its terms (`unless A or
// B`) or factors (`where A and B`), or returns nil if it has one.
func (p *Program) readyParts(e *dsl.Expr, unless bool) []*compiled {
	tree, err := parser.Parse(e.Source)
	if err != nil {
		return nil
	}
	ops := []string{"and", "&&"}
	if unless {
		ops = []string{"or", "||"}
	}
	var nodes []ast.Node
	var split func(n ast.Node)
	split = func(n ast.Node) {
		if b, ok := n.(*ast.BinaryNode); ok && slices.Contains(ops, b.Operator) {
			split(b.Left)
			split(b.Right)
			return
		}
		nodes = append(nodes, n)
	}
	split(tree.Node)
	if len(nodes) < 2 {
		return nil
	}
	parts := make([]*compiled, len(nodes))
	for i, n := range nodes {
		c, d := p.compileExpr(&dsl.Expr{Span: dsl.Span{Pos: e.Pos()}, Source: n.String()}, p.types.unitEnv, boolValue)
		if d != nil {
			return nil // the whole condition is named instead
		}
		parts[i] = c
	}
	return parts
}

var diceRE = regexp.MustCompile(`^([0-9]*)d([0-9]+)$`)

// checkModifier refuses a roll's modifier that play would refuse for every
// subject: a constant (`+ 1.5`, `- 3 / 2`, `+ mean([1, 2])`) that is not a
// whole number. A modifier that names anything of the battle, such as
// `+ bonus / 2`, may be whole or not: play checks it for each subject.
func (c *compiler) checkModifier(e *compiled, env reflect.Type, pos dsl.Pos, src string) {
	v, ok := constValue(e, env)
	if !ok {
		return
	}
	f, ok := toFloat(v)
	switch {
	case !ok:
		return // not a number: play says so
	case f != math.Trunc(f) && !math.IsNaN(f) && !math.IsInf(f, 0):
		c.errorf(pos, "the modifier %s is a decimal: a roll's modifier must be a whole number (round it with floor or ceil)", quoteSrc(src))
	case math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > maxExact:
		c.errorf(pos, "the modifier %s is %v: a roll's modifier must be a whole number from -2^53 to 2^53", quoteSrc(src), f)
	}
}

// chain compiles an order's criteria. depth > 0 inside tie rules.
func (c *compiler) chain(o *order, items []dsl.Criterion, depth int) []link {
	p := c.p
	subjEnv := p.types.sideEnv
	groupEnv := p.types.groupSides
	if o.units {
		subjEnv, groupEnv = p.types.unitEnv, p.types.groupUnits
	}
	var out []link
	for _, it := range items {
		switch s := it.(type) {
		case *dsl.ValueCrit:
			if l := c.drawWithoutDeck(s); l != nil {
				out = append(out, l)
				continue
			}
			e, d := p.compileExpr(s.Expr, subjEnv, numberValue)
			if isTrueOrFalse(d, numberValue) {
				// `highest agi == 3`: a condition, where a number ranks.
				d.Hint = fmt.Sprintf("a criterion ranks by a number; to put first those for which it holds, write `%s`", conditionRanked(s.Dir, s.Expr.Source))
			}
			c.addDiag(d)
			out = append(out, done(&valueLink{dir: dirOf(s.Dir), e: e}, s.Pos()))
		case *dsl.DrawCrit:
			out = append(out, c.draw(s))
		case *dsl.RollCrit:
			m := diceRE.FindStringSubmatch(s.Dice)
			n, f := 1, 0
			die := c.dieRoll(s)
			if die != nil {
				m, n, f = []string{}, 1, die.faces
			}
			if m != nil && die == nil {
				if m[1] != "" {
					n, _ = strconv.Atoi(m[1])
				}
				f, _ = strconv.Atoi(m[2])
			}
			if die == nil && (m == nil || n < 1 || n > 100 || f < 1 || f > 1000) {
				c.errorf(s.Pos(), "bad dice %q: use NdS with 1 to 100 dice of 1 to 1000 sides, such as d6 or 2d6", s.Dice)
				continue
			}
			rl := &rollLink{dir: dirOf(s.Dir), count: n, faces: f, dice: s.Dice}
			if die != nil {
				rl = die
			} else if f == 1 && s.Modifier == nil {
				c.warnf(s.Pos(), "%s always gives %d: it breaks no tie, and a reroll of it never ends", quoteSrc(string(s.Dir)+" roll "+s.Dice), n)
			}
			if s.Modifier != nil {
				if src := strings.TrimSpace(s.Modifier.Source); !strings.HasPrefix(src, "+") && !strings.HasPrefix(src, "-") {
					c.errorf(s.Modifier.Pos(), "after the dice, expected + or - and a modifier, found %s", quoteSrc(src))
				} else {
					e, d := p.compileExpr(s.Modifier, subjEnv, numberValue)
					if isTrueOrFalse(d, numberValue) {
						// `highest roll d6 + agi == 3`: a condition added.
						cond := strings.TrimSpace(src[1:])
						what := "add 1"
						if src[0] == '-' {
							what = "take 1 off"
						}
						d.Hint = fmt.Sprintf("a roll's modifier is a number; to %s where %s holds, write `%s roll %s %c (%s ? 1 : 0)`", what, quoteSrc(cond), s.Dir, s.Dice, src[0], cond)
					}
					c.addDiag(d)
					c.checkModifier(e, subjEnv, s.Modifier.Pos(), src)
					rl.mod = e
				}
			}
			out = append(out, done(rl, s.Pos()))
		case *dsl.RandomCrit:
			out = append(out, done(&randomLink{}, s.Pos()))
		case *dsl.RerollCrit:
			if depth == 0 {
				c.errorf(s.Pos(), "reroll is only allowed in a tie rule (tie: reroll)")
				continue
			}
			out = append(out, done(&rerollLink{}, s.Pos()))
		case *dsl.AwardCrit:
			e, d := p.compileExpr(s.Expr, groupEnv, stringValue)
			if msg, ok := dsl.AwardOfCriterion(s, c.tie); d != nil && ok && !slices.Contains(p.hostFuncs, s.Expr.Parts[0].Tok) {
				fixed := dsl.Errorf(s.Expr.Pos(), "%s", msg)
				d = &fixed
			} else if isTrueOrFalse(d, stringValue) {
				// `award previous.holder == "Jay"`: a condition awarded.
				d.Hint = awardedCondition(s, c.tie)
			}
			c.addDiag(d)
			out = append(out, done(&awardLink{not: s.Not, e: e}, s.Pos()))
		case *dsl.ChoiceCrit:
			out = append(out, c.choice(s))
		case *dsl.TieRule:
			tr := &tieRule{pos: s.Pos()}
			errs := len(p.diags)
			if s.When != nil {
				e, d := p.compileExpr(s.When, groupEnv, boolValue)
				c.addDiag(d)
				tr.when = e
				if why, never := neverTrue(e, groupEnv); never {
					c.warnf(s.When.Pos(), "this tie rule can never apply: `%s` %s", e.src, why)
				}
			}
			if s.Action != nil {
				outer := c.tie
				c.tie = s // an award's error may say how to write this rule
				tr.chain = c.chain(o, []dsl.Criterion{s.Action}, depth+1)
				c.tie = outer
			} else {
				tr.chain = c.chain(o, s.Block, depth+1)
			}
			if len(tr.chain) == 0 && len(p.diags) > errs {
				continue // the action had an error, already reported
			}
			if len(tr.chain) == 0 {
				c.errorf(s.Pos(), "this tie rule does nothing: give it an action such as reroll, random or award")
			}
			if n := len(out); n > 0 {
				if ts, ok := out[n-1].(*tieSet); ok {
					ts.rules = append(ts.rules, tr)
					continue
				}
			}
			out = append(out, done(&tieSet{rules: []*tieRule{tr}}, s.Pos()))
		}
	}
	for _, l := range out {
		if ts, ok := l.(*tieSet); ok {
			c.warnPreviousInRound1(ts, groupEnv)
		}
	}
	// reroll needs a roll to repeat, earlier in this chain or an enclosing one.
	if depth == 0 {
		c.checkRerolls(out, false)
	}
	return out
}

// previousValue matches an expression that is a previous value alone.
var previousValue = regexp.MustCompile(`^previous\.\w+$`)

// warnPreviousInRound1 warns about an award of a previous value (`award not
// previous.holder`) that a tie in round 1 reaches, where every previous
// value is empty: the round would stop with an error. Which rule a tie in
// round 1 reaches is worked out by running the guards in round 1 with
// each count of sides and of tied (see round1Envs), so that a guard on how
// many play (`tie when len(sides) == 2: award not previous.holder`) is
// seen to reach it with two; a guard that fails to run there, or holds in
// none of them, is taken not to.
func (c *compiler) warnPreviousInRound1(ts *tieSet, env reflect.Type) {
	warned := map[*tieRule]bool{}
	for _, in := range round1Envs(env, c.p.minSides, c.p.maxSides) {
		r := firstApplied(ts, in)
		if r == nil || warned[r] {
			continue
		}
		warned[r] = true
		for _, l := range r.chain {
			if a, ok := l.(*awardLink); ok && a.e != nil && previousValue.MatchString(strings.TrimSpace(a.e.src)) {
				c.warnf(linkPos(a), "%s names nobody in round 1, where every previous value is empty, so a tie there stops the round: put a tie rule for round 1 above this one, as in `tie when round == 1: reroll`", quoteSrc(a.describe()))
			}
		}
	}
}

// firstApplied returns the tie rule of ts that a tie in the environment in
// applies, or nil when none does or a guard cannot be worked out there.
func firstApplied(ts *tieSet, in any) *tieRule {
	for _, r := range ts.rules {
		if r.when == nil {
			return r
		}
		if r.when.prog == nil || ast.Find(r.when.prog.Node(), func(n ast.Node) bool { _, ok := n.(*ast.CallNode); return ok }) != nil {
			// A host's function is not called before the battle: it
			// may read the host's state, or be slow.
			return nil
		}
		v, err := vm.Run(r.when.prog, in)
		switch {
		case err != nil:
			return nil
		case v == true:
			return r
		}
	}
	return nil
}

func (c *compiler) checkRerolls(chain []link, rolled bool) {
	for _, l := range chain {
		switch x := l.(type) {
		case *rollLink:
			rolled = true
		case *rerollLink:
			if !rolled {
				c.errorf(x.pos, "reroll has no roll to repeat: put a roll (such as `highest roll d6`) before this tie rule")
			}
		case *tieSet:
			for _, r := range x.rules {
				c.checkRerolls(r.chain, rolled)
			}
		}
	}
}

func dirOf(d dsl.Direction) int {
	if d == dsl.Highest {
		return 1
	}
	return -1
}

func (c *compiler) choice(s *dsl.ChoiceCrit) link {
	kind := s.Kind
	if kind == "" {
		kind = dsl.ChoiceOrder
	}
	pols := policies[DecisionKind(kind)]
	l := &choiceLink{kind: kind, role: s.By.String(), policy: pols[0]}
	c.p.asks = append(c.p.asks, DecisionKind(kind))
	l.pos = s.Pos()
	if s.Default != nil {
		if !slices.Contains(pols, dsl.Policy(s.Default.Name)) {
			c.errorf(s.Default.Pos(), "choice %s cannot default to %s (use %s)", kind, s.Default, strings.Join(Policies(DecisionKind(kind)), " or "))
		}
		l.policy = dsl.Policy(s.Default.Name)
	}
	switch l.role {
	case dsl.RoleTeam:
		if kind == dsl.ChoiceBeforeAfter {
			// A team is not one of the subjects: there is nobody to place.
			c.errorf(s.By.Pos(), "choice before_after by team: a team is not one of the tied, so it cannot go before or after them (use choice order by team)")
		}
	case dsl.RoleWinner, dsl.RoleLoser, dsl.RoleHolder, dsl.RoleChooser, dsl.RolePreviousHolder, dsl.RolePreviousChooser:
	default:
		path := s.By.Path
		if len(path) == 2 && (path[1] == dsl.RoleFirst || path[1] == dsl.RoleLast) {
			if _, ok := c.p.orders[string(path[0])]; ok {
				break
			}
			c.errorf(s.By.Pos(), "choice by %s: there is no order named %s", l.role, path[0])
			break
		}
		roles := []string{dsl.RoleWinner, dsl.RoleLoser, dsl.RoleTeam, dsl.RoleHolder, dsl.RoleChooser, dsl.RolePreviousHolder, dsl.RolePreviousChooser}
		if best := dsl.Suggest(l.role, roles); best != "" {
			c.errorf(s.By.Pos(), "choice by %s: unknown role (did you mean %s?)", l.role, best)
			break
		}
		c.errorf(s.By.Pos(), "choice by %s: unknown role (use winner, loser, team, holder, chooser, previous.holder, previous.chooser or ORDER.first)", l.role)
	}
	return done(l, s.Pos())
}

// checkResolves warns about criteria that can never apply and chains that
// can end with subjects still tied.
func (c *compiler) checkResolves(o *order, s *dsl.OrderStmt) {
	if len(o.chain) == 0 || c.resolves(o, o.chain) {
		return
	}
	if ts, ok := o.chain[len(o.chain)-1].(*tieSet); ok {
		for _, r := range ts.rules {
			n := len(c.p.warnings)
			ok := c.resolves(o, r.chain)
			c.p.warnings = c.p.warnings[:n] // said already, by the first look
			switch {
			case !ok && r.when == nil:
				// The rule to mend, not the criterion above it, whose
				// ties it does take on.
				c.warnf(s.Pos(), "order %s can end with subjects still tied: the tie rule at line %d has no `when`, so it is always the one applied, and it can leave a tie: end it with `tie: reroll`, `random` or a choice",
					o.name, r.pos.Line)
				return
			case !ok:
				c.warnf(s.Pos(), "order %s can end with subjects still tied: when its guard holds, the tie rule at line %d is the only one applied, and it can leave a tie",
					o.name, r.pos.Line)
				return
			}
			if r.when == nil {
				break
			}
		}
	}
	last := "the last criterion"
	for i := len(o.chain) - 1; i >= 0; i-- {
		if _, ok := o.chain[i].(*tieSet); !ok {
			last = quoteSrc(o.chain[i].describe())
			break
		}
	}
	c.warnf(s.Pos(), "order %s can end with subjects still tied after %s: add `tie: reroll`, `random` or a choice", o.name, last)
}

// resolves reports whether chain leaves no tie, and warns about every rule
// in it that can never apply. Once no tie is surely left, every later
// criterion and tie rule is dead: each only splits groups that are still
// tied. A choice is the exception, as it arranges its whole group.
//
// An award breaks a tie of two, but of three it leaves two tied. A chain
// that ends with one is taken to resolve, as rulebooks award ties between
// two players; but what follows it is dead only when the group can hold
// no more than two.
func (c *compiler) resolves(o *order, chain []link) bool {
	ok, _ := c.resolvesSurely(o, chain)
	return ok
}

// unguardedAward reports whether chain awards a tie with no guard to keep
// the award to ties of two: the award itself, or in a tie rule without
// `when`.
func unguardedAward(chain []link) bool {
	for _, l := range chain {
		switch x := l.(type) {
		case *awardLink:
			return true
		case *tieSet:
			for _, r := range x.rules {
				if r.when == nil && unguardedAward(r.chain) {
					return true
				}
			}
		}
	}
	return false
}

// resolvesSurely is resolves, also reporting whether no tie is left
// whatever the size of the group.
func (c *compiler) resolvesSurely(o *order, chain []link) (resolved, surely bool) {
	var by link // the link after which no tie is surely left
	for i, l := range chain {
		ch, isChoice := l.(*choiceLink)
		if by != nil && !isChoice {
			c.warnDead(l, by)
			continue
		}
		switch x := l.(type) {
		case *rollLink:
			// Cards of different values from one deck, never made whole
			// between two draws of a group, never tie.
			resolved = x.rz != nil && x.rz.noTies()
			if resolved {
				by = x
			}
		case *valueLink:
			resolved = false
		case *choiceLink:
			switch {
			case ch.role != dsl.RoleWinner && ch.role != dsl.RoleLoser:
			case !resolved:
				c.warnf(ch.pos, "%s: the %s can still be tied here; add a tie rule that breaks every tie before the choice", quoteSrc(ch.desc), ch.role)
			case by == nil && unguardedAward(chain[:i]):
				// Resolved only by an award, which breaks a tie of two. A
				// guarded one is taken to be kept to two on purpose.
				c.warnf(ch.pos, "%s: the %s can still be tied here: an award breaks a tie of two, but of three or more it leaves the others tied; with more than two sides, guard it (`tie when len(sides) == 2: award ...`) and end the tie rules with one that leaves no tie, such as `tie: reroll`", quoteSrc(ch.desc), ch.role)
			}
			resolved = true
			if by == nil { // a choice after the tie is gone leaves it to the rule that resolved it
				by = x
			}
		case *randomLink, *rerollLink:
			resolved, by = true, x
		case *awardLink:
			resolved = true
			if !o.units && c.p.maxSides == 2 {
				by = x
			}
		case *tieSet:
			var sure bool
			if resolved, sure = c.tieSetResolves(o, x); sure {
				by = x
			}
		}
	}
	return resolved, by != nil
}

// sizeGuard matches a guard that reads how many are tied or playing
// (`len(tied) == 2`, `len(sides) == 2`, `count(tied) < 3`).
var sizeGuard = regexp.MustCompile(`\b(len|count)\s*\(`)

// warnAwardOfMany warns about a tie rule that ends with an award of last
// round's holder or chooser (`award not previous.holder`, a two-player
// rule), where three or more may be tied: the award places one of them, and the others
// stay tied among themselves, to end in setup order, as no later tie rule
// is tried. resolves takes an award to break a tie, as rulebooks award
// ties between two players; a guard that reads how many are tied, or
// playing, is taken to keep it to two.
func (c *compiler) warnAwardOfMany(o *order, chain []link) {
	if !o.units && c.p.maxSides == 2 {
		return
	}
	for _, l := range chain {
		ts, ok := l.(*tieSet)
		if !ok {
			continue
		}
		for _, r := range ts.rules {
			c.warnAwardOfMany(o, r.chain)
			if len(r.chain) == 0 || r.when != nil && sizeGuard.MatchString(r.when.src) {
				continue
			}
			a, ok := r.chain[len(r.chain)-1].(*awardLink)
			if !ok || a.e == nil || !previousValue.MatchString(strings.TrimSpace(a.e.src)) {
				continue // an award of tied[0], say, is setup order on purpose
			}
			c.warnf(linkPos(a), "%s breaks a tie of two, but of three or more it places one and leaves the others tied, in setup order: keep it to two (`tie when len(tied) == 2 ...`), or break the rest after it (`tie ... { %s; tie: reroll }`)",
				quoteSrc(a.describe()), a.describe())
		}
	}
}

// tieSetResolves reports whether a set of tie rules breaks every tie, and
// whether surely, as resolvesSurely does. The first rule whose guard holds
// is the only one applied, so that takes every rule up to the first
// unguarded one breaking it; the rules after an unguarded one are never
// tried at all.
func (c *compiler) tieSetResolves(o *order, ts *tieSet) (resolved, surely bool) {
	resolved, surely = true, true
	for i, r := range ts.rules {
		ok, sure := c.resolvesSurely(o, r.chain)
		resolved, surely = resolved && ok, surely && sure
		if same := c.sameGuard(ts.rules[:i], r); same != nil {
			c.warnf(r.pos, "this tie rule can never apply: the tie rule at line %d has the same guard, `%s`, so it is the one applied whenever this one's holds", same.pos.Line, r.when.src)
		}
		if r.when == nil {
			for _, dead := range ts.rules[i+1:] {
				c.warnf(dead.pos, "this tie rule can never apply: the tie rule at line %d has no `when`, so it is always the one applied", r.pos.Line)
			}
			return resolved, surely
		}
	}
	return false, false
}

// sameGuard returns the first of earlier whose guard is written as r's,
// which is then always tried first and holds whenever r's does. A guard
// that calls a host function is left alone: the host may answer
// differently each time.
func (c *compiler) sameGuard(earlier []*tieRule, r *tieRule) *tieRule {
	if r.when == nil {
		return nil
	}
	src := strings.TrimSpace(r.when.src)
	for _, name := range c.p.hostFuncs {
		if calls(src, name) {
			return nil
		}
	}
	for _, e := range earlier {
		if e.when != nil && strings.TrimSpace(e.when.src) == src {
			return e
		}
	}
	return nil
}

// warnDead warns that l can never apply because by left no tie.
func (c *compiler) warnDead(l, by link) {
	what := quoteSrc(l.describe())
	if _, ok := l.(*tieSet); ok {
		what = "this tie rule"
	}
	if _, ok := by.(*randomLink); ok {
		c.warnf(linkPos(l), "%s comes after random and can never apply", what)
		return
	}
	resolver := fmt.Sprintf("%s at line %d", quoteSrc(by.describe()), linkPos(by).Line)
	if ts, ok := by.(*tieSet); ok {
		resolver = fmt.Sprintf("the tie rules at line %d", ts.rules[0].pos.Line)
		if len(ts.rules) == 1 {
			resolver = fmt.Sprintf("the tie rule at line %d", ts.rules[0].pos.Line)
		}
	}
	c.warnf(linkPos(l), "%s can never apply: every tie is already resolved by %s", what, resolver)
}

func linkPos(l link) dsl.Pos { return l.info().pos }

// nameList lists the names declared, for an error about one that is not:
// `steps: "Ready Gang", "Roll For Priority"`, or `no steps`.
func nameList(what string, declared map[string]bool) string {
	if len(declared) == 0 {
		return "no " + what
	}
	names := slices.Sorted(maps.Keys(declared))
	for i, n := range names {
		if !identRE.MatchString(n) {
			names[i] = strconv.Quote(n)
		}
	}
	return what + ": " + strings.Join(names, ", ")
}

// rulesetActivation compiles the ruleset's own activation loop, which
// runs after the phases: the order it follows holds the round's priority.
func (c *compiler) rulesetActivation(s *dsl.ActivationStmt) {
	p := c.p
	if p.act != nil {
		c.errorf(s.Pos(), "activation is declared twice")
		return
	}
	if a := c.activation(s); a != nil {
		p.act = a
		if a.by != nil {
			p.main = a.by
		}
	}
}

// activation compiles an activation loop, the ruleset's or a phase's; nil
// if it is wrong.
func (c *compiler) activation(s *dsl.ActivationStmt) *activation {
	p := c.p
	c.sawLoop = true
	var o *order
	if s.By != nil {
		if o = p.orders[string(s.By.Name)]; o == nil {
			names := map[string]bool{}
			for n := range p.orders {
				names[n] = true
			}
			c.errorf(s.By.Pos(), "activation by %s: there is no order named %s (%s)", s.By, s.By, nameList("orders", names))
			return nil
		}
		if s.Mode == dsl.UnitOrder && !o.units {
			c.errorf(s.By.Pos(), "activation unit_order needs an order of units, but %s orders sides", s.By)
			return nil
		}
		if s.Mode != dsl.UnitOrder && o.units {
			c.errorf(s.By.Pos(), "activation %s needs an order of sides, but %s orders units", s.Mode, s.By)
			return nil
		}
	}
	pols := policies[ChooseActivation]
	a := &activation{mode: s.Mode, draw: s.Mode == dsl.Draw, by: o, passAllowed: s.PassAllowed || s.PassWhen != nil, policy: pols[0], pos: s.Pos()}
	if a.draw && a.passAllowed {
		// The die drawn is the side's to use: putting it back would draw
		// the same bag again, and keeping it would end the side's turns.
		c.errorf(s.Pos(), "activation draw cannot allow passing: the side drawn from the bag activates one of its ready units (drop `pass allowed`)")
		return nil
	}
	if s.PassWhen != nil {
		// Worked out for the side whose turn it is, as a side's value in
		// an order of sides is.
		e, d := p.compileExpr(s.PassWhen, p.types.sideEnv, boolValue)
		c.addDiag(d)
		a.passWhen = e
	}
	if s.Mode != dsl.UnitOrder { // unit_order activates the next ready unit: there is no choice
		p.asks = append(p.asks, ChooseActivation)
	} else {
		if a.passAllowed {
			pass := "pass allowed"
			if s.PassWhen != nil {
				pass += " when " + strings.TrimSpace(s.PassWhen.Source)
			}
			c.warnf(s.Pos(), "`%s` changes nothing in activation unit_order: each unit activates in its place in %s, and no side chooses or passes", pass, a.byName())
		}
		if s.Default != nil {
			c.warnf(s.Default.Pos(), "`default %s` changes nothing in activation unit_order: each unit activates in its place in %s, and no side chooses", s.Default, a.byName())
		}
	}
	if s.Default != nil {
		if !slices.Contains(pols, dsl.Policy(s.Default.Name)) {
			c.errorf(s.Default.Pos(), "activation cannot default to %s (use %s)", s.Default, strings.Join(Policies(ChooseActivation), " or "))
		}
		a.policy = dsl.Policy(s.Default.Name)
	}
	return a
}

func (c *compiler) handler(s *dsl.HandlerStmt) {
	p := c.p
	h := &handler{pos: s.Pos()}
	switch {
	case s.Hook != nil:
		h.point = HookPoint{Kind: dsl.PointHook, Name: string(s.Hook.Name)}
		if !p.hookNames[h.point.Name] {
			c.errorf(s.Hook.Pos(), "on hook %s: no phase has `hook %s` (%s)", s.Hook, s.Hook, nameList("hooks", p.hookNames))
		}
	default:
		h.point = HookPoint{Edge: s.Edge, Kind: s.Point}
		at := s.Pos() // the name, if there is one
		if s.Target != nil {
			h.point.Name, at = string(s.Target.Name), s.Target.Pos()
		}
		switch {
		case s.Point == dsl.PointRound && s.Target != nil:
			c.errorf(at, "on %s of round takes no name", s.Edge)
		case s.Point == dsl.PointPhase && (s.Target == nil || !c.phaseNames[h.point.Name]):
			c.errorf(at, "on %s of phase: no phase named %q (%s)", s.Edge, h.point.Name, nameList("phases", c.phaseNames))
		case s.Point == dsl.PointStep && (s.Target == nil || !c.stepNames[h.point.Name]):
			c.errorf(at, "on %s of step: no step named %q (%s)", s.Edge, h.point.Name, nameList("steps", c.stepNames))
		}
	}
	env := p.types.groupSides
	if s.When != nil {
		e, d := p.compileExpr(s.When, env, boolValue)
		c.addDiag(d)
		h.when = e
	}
	for _, a := range s.Body {
		switch x := a.(type) {
		case *dsl.SetAction:
			sa := &setAction{attr: string(x.Attr), pos: x.Pos()}
			a := c.findAttr(p.sideAttrs, sa.attr)
			if a == nil {
				if a = c.findAttr(p.unitAttrs, sa.attr); a != nil {
					sa.units = true
				} else {
					msg := fmt.Sprintf("set %s: no side or unit attribute is called %s", x.Attr, x.Attr)
					if _, ok := p.orders[sa.attr]; ok {
						msg += fmt.Sprintf(" (%s is an order: its own rules make it, and no other rule can set it)", x.Attr)
					}
					c.errorf(x.Pos(), "%s", msg)
				}
			}
			var d *dsl.Diagnostic
			sa.target, d = p.compileExpr(x.Target, env, stringValue)
			c.addDiag(d)
			if a != nil && sa.target != nil {
				c.checkSetTarget(sa, x.Target)
				c.refuseNobody("set "+sa.attr, sa.target, x.Target)
			}
			sa.value, d = p.compileExpr(x.Value, env, anyValue)
			c.addDiag(d)
			if a != nil && sa.value != nil {
				if t := sa.value.prog.Node().Type(); t != nil && !kindAccepts(a.Type.kind(), t) {
					c.errorf(x.Value.Pos(), "set %s: %s is %s attribute, but %s is %s", x.Attr, x.Attr, a.Type.article(),
						quoteSrc(strings.TrimSpace(x.Value.Source)), p.types.friendly(t.String()))
				}
			}
			h.body = append(h.body, sa)
		case *dsl.ReadyAction:
			e, d := p.compileExpr(x.Expr, env, namesValue)
			c.addDiag(d)
			if e != nil {
				c.checkReady(e, x.Expr)
			}
			h.body = append(h.body, &readyAction{e: e, pos: x.Pos()})
		case *dsl.HolderAction:
			if p.main == nil && c.sawLoop {
				c.errorf(x.Pos(), "holder = %s: ruleset %s has no order of sides, so no side holds priority (`first =` puts a side first in the phase under way)",
					strings.TrimSpace(x.Expr.Source), p.name)
			}
			e, d := p.compileExpr(x.Expr, env, stringValue)
			c.addDiag(d)
			if e != nil {
				c.refuseNobody("holder", e, x.Expr)
			}
			h.body = append(h.body, &holderAction{e: e, pos: x.Pos()})
		case *dsl.FirstAction:
			if h.point.Kind == dsl.PointRound {
				c.errorf(x.Pos(), "first = %s: on %s, no phase is under way, and first puts a side first in the activation loops of the phase under way only "+
					"(write it in a rule of a phase, a step or a hook, such as `on start of phase NAME`; `holder =` changes the round's priority)",
					strings.TrimSpace(x.Expr.Source), h.point)
			}
			if h.point.Kind == dsl.PointPhase && h.point.Edge == dsl.EdgeEnd {
				c.warnf(x.Pos(), "first = %s changes nothing on %s: the phase's activation loops are over, and it holds for this phase only (write it on start of phase %s)",
					strings.TrimSpace(x.Expr.Source), h.point, h.point.Name)
			}
			if h.point.Kind != dsl.PointRound && !(h.point.Kind == dsl.PointPhase && h.point.Edge == dsl.EdgeEnd) {
				if tops := p.phasesAt(h.point); len(tops) > 0 && !slices.ContainsFunc(tops, p.hasLoop) {
					c.warnf(x.Pos(), "first = %s changes nothing on %s: %s has no activation loop of its own, and first holds for the loops of the phase under way only (write `activation ...` in the phase, or `holder =` for the round's priority)",
						strings.TrimSpace(x.Expr.Source), h.point, tops[0].key)
				}
			}
			e, d := p.compileExpr(x.Expr, env, stringValue)
			c.addDiag(d)
			if src, o := c.holderTarget(x.Expr); o != nil && o.units {
				c.errorf(x.Expr.Pos(), "first = %s: only a side can go first, but %s is always a unit (order %s orders units)", src, quoteSrc(src), o.name)
			} else if e != nil {
				c.refuseNobody("first", e, x.Expr)
			}
			h.body = append(h.body, &firstAction{e: e, pos: x.Pos()})
		case *dsl.ReshuffleAction:
			if ra := c.reshuffleAction(x); ra != nil {
				h.body = append(h.body, ra)
			}
		}
	}
	p.handlers = append(p.handlers, h)
}

func (c *compiler) findAttr(attrs []Attr, name string) *Attr {
	for i := range attrs {
		if attrs[i].Name == name {
			return &attrs[i]
		}
	}
	return nil
}

// holderTarget is the standing whose subject target surely names: the
// main standing for holder or previous.holder, the order ORDER for
// ORDER.first, ORDER.last or ORDER.holder. Its subject is a side when it
// orders sides, a unit when it orders units. It is nil for any other
// target.
func (c *compiler) holderTarget(target *dsl.Expr) (src string, main *order) {
	src = strings.TrimSpace(target.Source)
	switch src {
	case "holder", "previous.holder":
		return src, c.p.main
	}
	if name, field, ok := strings.Cut(src, "."); ok && (field == "first" || field == "last" || field == "holder") {
		return src, c.p.orders[name]
	}
	return src, nil
}

// checkSetTarget refuses a set whose target is surely the wrong kind of
// subject: holder names a subject of the main standing, so with an order
// of sides it is never a unit, and the reverse.
func (c *compiler) checkSetTarget(sa *setAction, target *dsl.Expr) {
	src, main := c.holderTarget(target)
	if main == nil || main.units == sa.units {
		return
	}
	kind, other := "side", "a unit"
	if sa.units {
		kind, other = "unit", "a side"
	}
	c.errorf(target.Pos(), "set %s of %s: %s is a %s attribute, but %s is always %s (order %s orders %s)",
		sa.attr, src, sa.attr, kind, quoteSrc(src), other, main.name, subjectsWord(main.units))
}

// checkReady refuses a ready that play would refuse every time: one of
// holder when the main standing orders sides (only a unit can be made
// ready), or of a constant that names nobody (`ready ""`).
func (c *compiler) checkReady(e *compiled, target *dsl.Expr) {
	if src, main := c.holderTarget(target); main != nil && !main.units {
		c.errorf(target.Pos(), "ready %s: only a unit can be made ready, but %s is always a side (order %s orders sides)",
			src, quoteSrc(src), main.name)
		return
	}
	c.refuseNobody("ready", e, target)
}

// refuseNobody refuses a name that is a constant naming nobody (""), or a
// constant list holding one, which play would refuse every time.
func (c *compiler) refuseNobody(what string, e *compiled, target *dsl.Expr) {
	v, ok := constValue(e, c.p.types.groupSides)
	if !ok {
		return
	}
	src := quoteSrc(strings.TrimSpace(target.Source))
	var names []any
	switch t := v.(type) {
	case string:
		if t == "" {
			c.errorf(target.Pos(), "%s: %s names nobody", what, src)
		}
		return
	case []any:
		names = t
	case []string:
		for _, n := range t {
			names = append(names, n)
		}
	}
	if slices.Contains(names, any("")) {
		c.errorf(target.Pos(), "%s: %s holds \"\", which names nobody", what, src)
	}
}

func subjectsWord(units bool) string {
	if units {
		return "units"
	}
	return "sides"
}

// asDiagnostics returns err as diagnostics, placing a plain error at pos.
func asDiagnostics(err error, pos dsl.Pos) dsl.Diagnostics {
	if ds, ok := err.(dsl.Diagnostics); ok {
		return ds
	}
	return dsl.Diagnostics{dsl.Errorf(pos, "%v", err)}
}

var _ = identRE
