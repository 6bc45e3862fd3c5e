package runtime

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// Decisions that are not orderings: `decide NAME TYPE by WHO`. A side (or
// each side) answers yes or no, a number in a range, or one of named
// options, through the battle's decider as every choice does; the answer
// is the round's, readable in expressions from then on as NAME (made by
// one side) or as each side's field NAME (made by each side), and in the
// next round as previous.NAME.

// The kinds of the decisions a `decide` statement asks.
const (
	// ChooseYesNo: answer "yes" or "no" ("true" and "false" are taken too).
	ChooseYesNo DecisionKind = "yes_no"
	// ChooseNumber: answer a whole number from Decision.Min to Max.
	ChooseNumber DecisionKind = "number"
	// ChooseOption: answer one of Decision.Options.
	ChooseOption DecisionKind = "option"
)

// RandomAnswer answers a decision of a `decide` statement by letting the
// dice pick among its answers, uniformly: the policy of `default random`,
// and what `turnorder odds --decide NAME=random` gives.
const RandomAnswer = "random"

// decisionDef is a compiled `decide` statement.
type decisionDef struct {
	id      int
	name    string
	kind    DecisionKind
	typ     AttrType // what expressions read: bool, int or string
	each    bool     // every side answers
	secret  bool     // every side answers before any answer is revealed
	role    string   // who answers, when one side does
	lo, hi  int      // the range of a number
	options []string // the options of ChooseOption
	def     string   // the policy's answer: one of answers(), or RandomAnswer
	pos     dsl.Pos
	rule    string // the statement as written, for events
}

func (*decisionDef) phaseItem() {}

// answers lists every answer d takes, in order.
func (d *decisionDef) answers() []string {
	switch d.kind {
	case ChooseYesNo:
		return []string{"yes", "no"}
	case ChooseNumber:
		out := make([]string, 0, d.hi-d.lo+1)
		for v := d.lo; v <= d.hi; v++ {
			out = append(out, strconv.Itoa(v))
		}
		return out
	}
	return slices.Clone(d.options)
}

// value is an answer as expressions read it.
func (d *decisionDef) value(answer string) any {
	switch d.kind {
	case ChooseYesNo:
		return answer == "yes"
	case ChooseNumber:
		v, _ := strconv.Atoi(answer)
		return v
	}
	return answer
}

// maxDecisionRange bounds the numbers a decision may range over: each is
// an answer that odds may explore, and play may list.
const maxDecisionRange = 1000

// Decided is a decision made in the round: by Side (for a decision made
// by one side, the side that made it), its Answer as written canonically
// ("yes", "3", "kick").
type Decided struct {
	Name   string `json:"name"`
	Side   string `json:"side"`
	Answer string `json:"answer"`
}

// canonicalAnswer returns ans, an answer d accepts, as the battle keeps
// it: "true" is "yes", "+03" is "3". ok is false for an answer d refuses.
func canonicalAnswer(d Decision, ans string) (string, bool) {
	return canonical(d.Kind, ans, func(a string) bool {
		switch d.Kind {
		case ChooseNumber:
			v, _ := strconv.Atoi(a)
			return d.Min != nil && d.Max != nil && v >= *d.Min && v <= *d.Max
		case ChooseOption:
			return slices.Contains(d.Options, a)
		}
		return d.Kind == ChooseYesNo
	})
}

// canonical returns ans as the battle keeps an answer of a decision of
// kind ("true" is "yes", "+03" is "3"), and whether takes, given that
// form, accepts it.
func canonical(kind DecisionKind, ans string, takes func(string) bool) (string, bool) {
	switch kind {
	case ChooseYesNo:
		switch strings.ToLower(ans) {
		case "yes", "true":
			ans = "yes"
		case "no", "false":
			ans = "no"
		default:
			return "", false
		}
	case ChooseNumber:
		v, err := strconv.Atoi(strings.TrimSpace(ans))
		if err != nil {
			return "", false
		}
		ans = strconv.Itoa(v)
	}
	if !takes(ans) {
		return "", false
	}
	return ans, true
}

// named reports whether d is asked by a `decide` statement.
func (d Decision) named() bool {
	return d.Kind == ChooseYesNo || d.Kind == ChooseNumber || d.Kind == ChooseOption
}

// accepts says, for a message, what answers d takes: "yes or no", "a
// number from 1 to 6", "one of kick, receive".
func (d Decision) accepts() string {
	switch d.Kind {
	case ChooseYesNo:
		return "yes or no"
	case ChooseNumber:
		if d.Min != nil && d.Max != nil {
			return fmt.Sprintf("a whole number from %d to %d", *d.Min, *d.Max)
		}
		return "a whole number"
	}
	return "one of " + strings.Join(d.Options, ", ")
}

// namedProblem is answerProblem for a decision of a `decide` statement.
func namedProblem(d Decision, ans []string) string {
	if len(ans) == 1 {
		if ans[0] == RandomAnswer {
			return ""
		}
		if _, ok := canonicalAnswer(d, ans[0]); ok {
			return ""
		}
	}
	return fmt.Sprintf("%s: answer %q is not valid: the answer is %s", d, strings.Join(ans, ", "), d.accepts())
}

// namedString is Decision.String for a decision of a `decide` statement.
func (d Decision) namedString() string {
	how := ""
	if d.Secret {
		how = " secretly"
	}
	return fmt.Sprintf("%s decides %s%s (%s)", d.By, d.Name, how, d.accepts())
}

// compiling

// declareDecisions declares the decisions of a phase's body, and of its
// steps, before any expression is compiled: expressions may read them.
func (c *compiler) declareDecisions(body []dsl.PhaseItem) {
	for _, it := range body {
		switch s := it.(type) {
		case *dsl.StepStmt:
			c.declareDecisions(s.Body)
		case *dsl.DecideStmt:
			c.decision(s)
		}
	}
}

func (c *compiler) decision(s *dsl.DecideStmt) {
	p := c.p
	d := &decisionDef{name: string(s.Name.Name), each: s.Each, secret: s.Secretly, pos: s.Pos(), rule: s.String()}
	if s.By != nil {
		d.role = s.By.String()
	}
	t := s.Type
	ok := true
	switch {
	case t == nil:
		ok = false
	case len(t.Options) > 0:
		d.kind, d.typ = ChooseOption, StringAttr
		for _, o := range t.Options {
			n := string(o.Name)
			switch {
			case slices.Contains(d.options, n):
				c.errorf(o.Pos(), "decide %s: option %s is listed twice", d.name, n)
				ok = false
			case n == RandomAnswer:
				c.errorf(o.Pos(), "decide %s: an option cannot be called random: the answer random lets the dice pick", d.name)
				ok = false
			}
			d.options = append(d.options, n)
		}
	case t.Name != nil && t.Name.Name == "bool":
		d.kind, d.typ = ChooseYesNo, BoolAttr
		if t.Range != nil {
			c.errorf(t.Range.Pos(), "decide %s: a yes/no decision has no range (a range is for int)", d.name)
		}
	case t.Name != nil && t.Name.Name == "int":
		d.kind, d.typ = ChooseNumber, IntAttr
		if t.Range == nil {
			c.errorf(t.Pos(), "decide %s: a number decided needs the range of its answers, such as `int 1..6`", d.name)
			ok = false
			break
		}
		d.lo, d.hi = t.Range.Bounds()
		switch {
		case d.lo > d.hi:
			c.errorf(t.Range.Pos(), "decide %s: %s is not a valid range: the most is below the least", d.name, t.Range)
			ok = false
		case d.hi-d.lo >= maxDecisionRange || d.hi-d.lo < 0: // < 0: the difference overflows
			c.errorf(t.Range.Pos(), "decide %s: %s has more than %d answers: a decision ranges over at most %d numbers", d.name, t.Range, maxDecisionRange, maxDecisionRange)
			ok = false
		}
	case t.Name != nil && t.Name.Name == "string":
		c.errorf(t.Pos(), "decide %s: a decision answers with one of named options: write `one of NAME, NAME`", d.name)
		ok = false
	default:
		c.errorf(t.Pos(), "decide %s: unknown type %s (use bool, int MIN..MAX or one of NAME, NAME)", d.name, t)
		ok = false
	}
	if s.Secretly && !s.Each {
		c.errorf(s.Pos(), "decide %s: only a decision made by each side can be made secretly (write `by each side secretly`)", d.name)
	}
	if ok {
		switch {
		case s.Random:
			d.def = RandomAnswer
		case s.Default != nil:
			ans := s.Default.String()
			if s.Default.Str != nil {
				ans = string(*s.Default.Str)
			}
			def, valid := canonicalAnswer(d.decision("", 0), ans)
			if !valid {
				c.errorf(s.Default.Pos(), "decide %s: default %s is not an answer: the answer is %s", d.name, s.Default, d.decision("", 0).accepts())
			}
			d.def = def
		default:
			// A decision made by default keeps to the plainest answer:
			// no, the least number, the first option.
			d.def = d.answers()[0]
			if d.kind == ChooseYesNo {
				d.def = "no"
			}
		}
	}
	if !c.declareName(d.name, s.Name.Pos(), "decision") || !ok {
		return
	}
	d.id = len(p.decisions)
	p.decisions = append(p.decisions, d)
	p.remember = append(p.remember, &rememberDef{name: d.name, decision: d})
	p.asks = append(p.asks, d.kind)
}

// decideRoles are the roles a decision by one side may name, besides
// ORDER.first, ORDER.last and a side's name.
var decideRoles = []string{dsl.RoleHolder, dsl.RoleChooser, dsl.RolePreviousHolder, dsl.RolePreviousChooser}

// checkDecideRole checks who makes a decision by one side, once the
// orders are known.
func (c *compiler) checkDecideRole(s *dsl.DecideStmt, d *decisionDef) {
	if s.By == nil {
		return
	}
	path := s.By.Path
	switch {
	case slices.Contains(decideRoles, d.role):
	case len(path) == 2 && (path[1] == dsl.RoleFirst || path[1] == dsl.RoleLast):
		if _, ok := c.p.orders[string(path[0])]; !ok {
			c.errorf(s.By.Pos(), "decide %s by %s: there is no order named %s", d.name, d.role, path[0])
		}
	case d.role == "each":
		c.errorf(s.By.Pos(), "decide %s by each: write `by each side` for a decision every side makes", d.name)
	case d.role == dsl.RoleWinner || d.role == dsl.RoleLoser || d.role == dsl.RoleTeam:
		c.errorf(s.By.Pos(), "decide %s by %s: %s names one of a tie, and a decision is made outside one (use holder, chooser, ORDER.first, ORDER.last, a side's name or each side)", d.name, d.role, d.role)
	case len(path) > 1:
		c.errorf(s.By.Pos(), "decide %s by %s: unknown role (use holder, chooser, previous.holder, previous.chooser, ORDER.first, ORDER.last, a side's name or each side)", d.name, d.role)
	default:
		// A side's name: the battle's sides are known in play. A role
		// mistyped is most likely meant.
		if best := dsl.Suggest(d.role, decideRoles); best != "" && best != d.role {
			c.errorf(s.By.Pos(), "decide %s by %s: unknown role (did you mean %s?); a side's name is taken as it is, so write it in quotes if it is one", d.name, d.role, best)
		}
	}
}

// decisionAt returns the decision the statement s declared, or nil if
// it was refused.
func (p *Program) decisionAt(s *dsl.DecideStmt) *decisionDef {
	for _, d := range p.decisions {
		if d.pos == s.Pos() {
			return d
		}
	}
	return nil
}

// decisionRead is a decision an expression reads, and where (the rune
// of the expression's source).
type decisionRead struct {
	d  *decisionDef
	at int
}

// decisionReads lists the decisions the checked expression node reads:
// a decision by one side by its name, one by each side as a side's
// field (by name where the expression is worked out for a side).
func (p *Program) decisionReads(node ast.Node, env reflect.Type) []decisionRead {
	if len(p.decisions) == 0 {
		return nil
	}
	byName := func(n string) *decisionDef {
		for _, d := range p.decisions {
			if d.name == n {
				return d
			}
		}
		return nil
	}
	var out []decisionRead
	ast.Find(node, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IdentifierNode:
			if d := byName(x.Value); d != nil && (!d.each || env == p.types.sideEnv) {
				out = append(out, decisionRead{d, x.Location().From})
			}
		case *ast.MemberNode:
			prop, ok := x.Property.(*ast.StringNode)
			if !ok {
				break
			}
			if d := byName(prop.Value); d != nil && d.each && x.Node.Type() == p.types.side {
				out = append(out, decisionRead{d, prop.Location().From})
			}
		}
		return false
	})
	return out
}

// checkDecidedFirst refuses an expression that reads a decision where
// the round is sure not to have made it yet: earlier in the round's
// phases, or in a rule at a point before it. It walks the round as
// play does.
func (c *compiler) checkDecidedFirst() {
	p := c.p
	if len(p.decisions) == 0 {
		return
	}
	decided := map[*decisionDef]bool{}
	onceOnly := map[*decisionDef]bool{} // made in a phase or step run in round 1 only
	before := map[HookPoint]map[*decisionDef]bool{hpRoundStart: {}}
	check := func(e *compiled) {
		if e == nil {
			return
		}
		for _, r := range e.decisions {
			if !decided[r.d] {
				c.errorf(offsetPos(e.pos, e.src, r.at), "%s is not decided yet here: `decide %s` (line %d) comes later in the round, and a decision lasts only the round it is made in", r.d.name, r.d.name, r.d.pos.Line)
			}
		}
	}
	// everyRound checks a rule run every round, which a decision made
	// once, in round 1, leaves without it from round 2.
	everyRound := func(e *compiled) {
		check(e)
		for _, r := range e.decisionsOf() {
			if decided[r.d] && onceOnly[r.d] {
				c.errorf(offsetPos(e.pos, e.src, r.at), "%s is decided in round 1 only (`decide %s`, line %d, is in a phase or step run once), and a decision lasts only the round it is made in, but this rule runs every round: to keep it for the battle, set an attribute from it in a rule at the end of its phase (`on end of phase NAME { set ATTR of SIDE = %s }`)",
					r.d.name, r.d.name, r.d.pos.Line, r.d.name)
			}
		}
	}
	var walk func(ph *phase, once bool)
	walk = func(ph *phase, once bool) {
		once = once || ph.once
		read := everyRound
		if once {
			read = check
		}
		before[*ph.start] = maps.Clone(decided)
		for _, it := range ph.items {
			switch x := it.(type) {
			case *phase:
				walk(x, once)
			case *order:
				for _, e := range chainExprs(x.chain) {
					read(e)
				}
			case *readyRule:
				read(x.cond)
			case *hookPoint:
				before[*x.at] = maps.Clone(decided)
			case *decisionDef:
				decided[x] = true
				onceOnly[x] = once
			}
		}
		before[*ph.end] = maps.Clone(decided)
	}
	for _, ph := range p.phases {
		walk(ph, false)
	}
	for _, h := range p.handlers {
		seen, ok := before[h.point]
		if !ok {
			continue
		}
		decided = seen
		check(h.when)
		for _, a := range h.body {
			switch x := a.(type) {
			case *setAction:
				check(x.target)
				check(x.value)
			case *readyAction:
				check(x.e)
			case *holderAction:
				check(x.e)
			}
		}
	}
}

// decisionsOf is e's reads of decisions; none for no expression.
func (e *compiled) decisionsOf() []decisionRead {
	if e == nil {
		return nil
	}
	return e.decisions
}

// chainExprs lists the expressions of an order's chain, tie rules'
// included.
func chainExprs(chain []link) []*compiled {
	var out []*compiled
	for _, l := range chain {
		switch x := l.(type) {
		case *valueLink:
			out = append(out, x.e)
		case *rollLink:
			out = append(out, x.mod)
		case *awardLink:
			out = append(out, x.e)
		case *tieSet:
			for _, r := range x.rules {
				out = append(out, r.when)
				out = append(out, chainExprs(r.chain)...)
			}
		}
	}
	return out
}

// playing

// decision is the Decision d asks of side in round.
func (d *decisionDef) decision(side string, round int) Decision {
	dec := Decision{Kind: d.kind, By: side, Name: d.name, Round: round, Pos: d.pos, Secret: d.secret, Default: []string{d.def}}
	switch d.kind {
	case ChooseYesNo:
		dec.Options = []string{"yes", "no"}
	case ChooseNumber:
		lo, hi := d.lo, d.hi
		dec.Min, dec.Max = &lo, &hi
		dec.Options = d.answers() // at most maxDecisionRange: a host may list them
	case ChooseOption:
		dec.Options = slices.Clone(d.options)
	}
	return dec
}

// runDecide asks the decision d: of one side, or of each side in the
// order of the setup. A secret one's answers are revealed together, once
// the last side has answered: none is in the battle, nor in what a side
// is asked, before then.
func (b *Battle) runDecide(ctx context.Context, d *decisionDef) error {
	if !d.each {
		side, err := b.decisionSide(d)
		if err != nil {
			return err
		}
		ans, err := b.askDecision(ctx, d, side)
		if err != nil {
			return err
		}
		b.recordDecision(d, side, ans)
		return nil
	}
	var secret []string
	for _, s := range b.sides {
		ans, err := b.askDecision(ctx, d, s.Name)
		if err != nil {
			return err
		}
		if d.secret {
			secret = append(secret, ans)
			continue
		}
		b.recordDecision(d, s.Name, ans)
	}
	for i, ans := range secret {
		b.recordDecision(d, b.sides[i].Name, ans)
	}
	return nil
}

// decisionSide is the side that makes d, a decision by one side.
func (b *Battle) decisionSide(d *decisionDef) (string, error) {
	switch d.role {
	case dsl.RoleHolder, dsl.RoleChooser, dsl.RolePreviousHolder, dsl.RolePreviousChooser:
	default:
		if !strings.Contains(d.role, ".") {
			if b.sideByNm[d.role] == nil {
				return "", ruleErrorf(d.pos, "decide %s by %s: no side is called %s (sides: %s)", d.name, d.role, d.role, strings.Join(b.subjectNames(false), ", "))
			}
			return d.role, nil
		}
	}
	who, unmade := b.roleSubject(d.role)
	if unmade != "" {
		return "", ruleErrorf(d.pos, "decide %s by %s: order %s has not been made yet", d.name, d.role, unmade)
	}
	if who == "" {
		return "", ruleErrorf(d.pos, "decide %s by %s: there is no %s yet", d.name, d.role, d.role)
	}
	return b.sideOfName(who), nil
}

// askDecision asks side the decision d, and returns its answer as the
// battle keeps it. The answer random lets the dice pick among d's
// answers.
func (b *Battle) askDecision(ctx context.Context, d *decisionDef, side string) (string, error) {
	dec := d.decision(side, b.now())
	ans, err := b.decide(ctx, dec)
	if err != nil {
		return "", err
	}
	if ans[0] == RandomAnswer {
		opts := d.answers()
		k, err := b.pickInput(ctx, PickRequest{Round: b.now(), Options: opts, Pos: d.pos, Decision: d.name, By: side})
		if err != nil {
			return "", err
		}
		return opts[k], nil
	}
	c, _ := canonicalAnswer(dec, ans[0]) // checked by decide
	return c, nil
}

// recordDecision makes side's answer to d the round's, and says so.
func (b *Battle) recordDecision(d *decisionDef, side, ans string) {
	b.cur.Decided = append(b.cur.Decided, Decided{Name: d.name, Side: side, Answer: ans})
	b.changed()
	if b.transcript {
		ev := Event{Kind: EvDecision, By: side, Subject: d.name, Choice: []string{ans}, Detail: string(d.kind), Rule: d.rule, Pos: posString(d.pos)}
		if d.kind == ChooseNumber {
			v, _ := strconv.Atoi(ans)
			ev.Value = b.intp(v)
		}
		b.emit(ev)
	}
}

// decided returns the answers to d made in the round under way (or the
// last one), and whether d is made: by its side, or by every side.
func (b *Battle) decided(d *decisionDef) ([]Decided, bool) {
	if b.cur == nil {
		return nil, false
	}
	var out []Decided
	for _, x := range b.cur.Decided {
		if x.Name == d.name {
			out = append(out, x)
		}
	}
	if d.each {
		return out, len(out) > 0 && len(out) == len(b.sides)
	}
	return out, len(out) == 1
}

// answerOf returns side's answer to d, an each-side decision, as
// expressions read it, or nil.
func (b *Battle) answerOf(d *decisionDef, side string) any {
	all, ok := b.decided(d)
	if !ok {
		return nil
	}
	for _, x := range all {
		if x.Side == side {
			return d.value(x.Answer)
		}
	}
	return nil
}

// checkReadsDecided refuses to run c while a decision it reads is not made.
func (b *Battle) checkReadsDecided(c *compiled) error {
	for _, r := range c.decisions {
		if _, ok := b.decided(r.d); !ok {
			by := "by " + r.d.role
			if r.d.each {
				by = "by each side"
			}
			return &file.Error{Location: file.Location{From: r.at, To: r.at + len([]rune(r.d.name))},
				Message: fmt.Sprintf("%s is not decided yet in round %d (it is decided %s at line %d, and a decision lasts only the round it is made in)", r.d.name, b.now(), by, r.d.pos.Line)}
		}
	}
	return nil
}

// fillDecisions puts the decisions made in the round into the view:
// each side's in its own fields, one side's among the common ones.
func (b *Battle) fillSideDecisions(sv reflect.Value, side string) {
	t := b.prog.types
	for _, d := range b.prog.decisions {
		if !d.each {
			continue
		}
		f := sv.Field(t.sideIdx[d.name])
		if v := b.answerOf(d, side); v != nil {
			f.Set(reflect.ValueOf(v))
		} else {
			f.SetZero()
		}
	}
}

func (b *Battle) fillCommonDecisions(e reflect.Value, idx map[string]int) {
	for _, d := range b.prog.decisions {
		if d.each {
			continue
		}
		f := e.Field(idx[d.name])
		if all, ok := b.decided(d); ok {
			f.Set(reflect.ValueOf(d.value(all[0].Answer)))
		} else {
			f.SetZero()
		}
	}
}

// rememberDecision is d's value as previous.NAME remembers it: the
// answer of one side, or a map from each side to its answer; nil if the
// round did not make it.
func (b *Battle) rememberDecision(d *decisionDef) any {
	all, ok := b.decided(d)
	if !ok {
		return nil
	}
	if !d.each {
		return d.value(all[0].Answer)
	}
	out := make(map[string]any, len(all))
	for _, x := range all {
		out[x.Side] = d.value(x.Answer)
	}
	return out
}

// checkDecided checks the decisions a saved round made.
func (b *Battle) checkDecided() error {
	for i, x := range b.cur.Decided {
		at := fmt.Sprintf("current.decided[%d]", i)
		var d *decisionDef
		for _, dd := range b.prog.decisions {
			if dd.name == x.Name {
				d = dd
			}
		}
		if d == nil {
			return fmt.Errorf("%s.name: ruleset %s decides no %s (decisions: %s)", at, b.prog.name, x.Name, wording.OrNone(decisionNames(b.prog.decisions)))
		}
		if b.sideByNm[x.Side] == nil {
			return fmt.Errorf("%s.side: %q is no side of this battle (sides: %s)", at, x.Side, strings.Join(b.subjectNames(false), ", "))
		}
		for _, y := range b.cur.Decided[:i] {
			if y.Name == x.Name && (y.Side == x.Side || !d.each) {
				return fmt.Errorf("%s: %s is decided twice in round %d", at, d.name, b.cur.Round)
			}
		}
		dec := d.decision(x.Side, b.cur.Round)
		if c, ok := canonicalAnswer(dec, x.Answer); !ok || c != x.Answer {
			return fmt.Errorf("%s.answer: %q is no answer to %s: the answer is %s", at, x.Answer, d.name, dec.accepts())
		}
	}
	for _, d := range b.prog.decisions {
		if all, _ := b.decided(d); d.each && len(all) > 0 && len(all) < len(b.sides) {
			return fmt.Errorf("current.decided: %s is decided by %d of the %d sides, where every side decides it at once", d.name, len(all), len(b.sides))
		}
	}
	return nil
}

func decisionNames(ds []*decisionDef) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.name
	}
	return out
}

// decisionWords says, of a name an expression cannot read where it is,
// that it is a decision and how to read it; "" for another name.
func (t *envTypes) decisionWords(name string, env reflect.Type) string {
	for _, d := range t.decisions {
		if d.name != name {
			continue
		}
		if d.each {
			if env == t.unitEnv {
				return fmt.Sprintf(" (%s is decided by each side, and this is worked out for a unit: read its side's, as in `first(filter(sides, .name == side)).%s`)", name, name)
			}
			return fmt.Sprintf(" (%s is decided by each side: read a side's answer as its field, as in `sides[0].%s`, or as `%s` in an order of sides)", name, name, name)
		}
		return fmt.Sprintf(" (%s is decided by one side: read it as `%s`, not as a side's field)", name, name)
	}
	return ""
}

// DecisionDecl is a `decide` statement of a ruleset, for a host that
// shows what its players will be asked, or that answers for them.
type DecisionDecl struct {
	Name   string       `json:"name"`
	Kind   DecisionKind `json:"kind"`
	Each   bool         `json:"each,omitempty"`   // every side decides
	Secret bool         `json:"secret,omitempty"` // every side decides before any answer is revealed
	By     string       `json:"by,omitempty"`     // the role or side that decides, when one does
	// Answers lists every answer, in order: yes and no, the numbers of
	// the range, or the options.
	Answers []string `json:"answers"`
	// Default is the policy's answer, or RandomAnswer.
	Default string `json:"default"`
}

// Decides returns the ruleset's `decide` statements, in the order they
// are written.
func (p *Program) Decides() []DecisionDecl {
	out := make([]DecisionDecl, len(p.decisions))
	for i, d := range p.decisions {
		out[i] = DecisionDecl{Name: d.name, Kind: d.kind, Each: d.each, Secret: d.secret, By: d.role, Answers: d.answers(), Default: d.def}
	}
	return out
}

// IsAnswer reports whether ans answers some `decide` statement of the
// ruleset: a yes or no (true, false), a number in a decision's range, an
// option, or random.
func (p *Program) IsAnswer(ans string) bool {
	for _, d := range p.decisions {
		if ans == RandomAnswer {
			return true
		}
		if _, ok := canonicalAnswer(d.decision("", 0), ans); ok {
			return true
		}
	}
	return false
}

// Canonical returns ans as an answer to d as the battle keeps it ("true"
// is "yes", "03" is "3"), and whether d takes it. RandomAnswer is not
// among d's answers: a caller that takes it says so.
func (d DecisionDecl) Canonical(ans string) (string, bool) {
	return canonical(d.Kind, ans, func(a string) bool { return slices.Contains(d.Answers, a) })
}

// Answers answers the decisions of `decide` statements by their name,
// each with a fixed answer or with RandomAnswer (the dice pick among its
// answers, uniformly), and every other decision as Else does (the
// ruleset's policy when Else is nil). It is what `turnorder odds --decide
// NAME=VALUE` plays with. A decision by each side gets the same answer
// from every side.
type Answers struct {
	ByName map[string]string
	Else   Decider
}

// Decide answers d.
func (a Answers) Decide(ctx context.Context, d Decision) ([]string, error) {
	if v, ok := a.ByName[d.Name]; ok && d.named() {
		return []string{v}, nil
	}
	if isNil(a.Else) {
		return d.Default, nil
	}
	return a.Else.Decide(ctx, d)
}

// Decided returns the decisions of `decide` statements made in the round
// under way (or the last one played), in the order they were revealed:
// the answers to a secret decision only once every side has given its.
func (b *Battle) Decided() []Decided {
	if b.cur == nil {
		return nil
	}
	return slices.Clone(b.cur.Decided)
}
