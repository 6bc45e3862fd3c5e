package runtime

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// Every `order ... as NAME` is a value NAME in every expression, with the
// fields orderFields lists, once the order is made: earlier in the round,
// or in an earlier round for an order made once or until changed. Until
// then it is nil, so reading a field of it is an error of play, which
// evalError says in these words. Where the compiler can tell that an
// expression runs before the order is made (in the order's own chain, or
// in a phase item before it), it says so itself.

// orderRead is an expression's reading of an order: its name at rune
// from of the expression's source. A read that is guarded, `setup?.first`,
// reads nil where the order is not made, as the author means it to.
type orderRead struct {
	o       *order
	from    int
	guarded bool
}

// orderReads returns the orders node names, where it names them.
func (p *Program) orderReads(node ast.Node) []orderRead {
	if len(p.orders) == 0 {
		return nil
	}
	guarded := map[ast.Node]bool{}
	ast.Find(node, func(n ast.Node) bool {
		if m, ok := n.(*ast.MemberNode); ok && m.Optional {
			guarded[m.Node] = true
		}
		return false
	})
	var out []orderRead
	ast.Find(node, func(n ast.Node) bool {
		if id, ok := n.(*ast.IdentifierNode); ok {
			if o := p.orders[id.Value]; o != nil {
				out = append(out, orderRead{o, id.Location().From, guarded[n]})
			}
		}
		return false
	})
	return out
}

// made reports whether o is made at this point of the battle: its
// standing is this round's, or, for an order made once or until changed,
// it stands from an earlier round.
func (b *Battle) made(o *order) bool {
	st := b.standings[o.id]
	return st != nil && (o.scope.kind != dsl.EachRound || st.Round == b.round)
}

// orderValue is what o reads as in expressions: a nil pointer until it is
// made.
func (b *Battle) orderValue(o *order) reflect.Value {
	t := b.prog.types
	if !b.prog.readsOrders || !b.made(o) {
		return reflect.Zero(reflect.PointerTo(t.orderVal))
	}
	st := b.standings[o.id]
	v := reflect.New(t.orderVal)
	e := v.Elem()
	set := func(name string, x any) { e.Field(t.orderIdx[name]).Set(reflect.ValueOf(x)) }
	order := slices.Clone(st.Order)
	place := make(map[string]int, len(order))
	for i, n := range order {
		place[n] = i + 1
	}
	if len(order) > 0 {
		set("first", order[0])
		set("last", order[len(order)-1])
		set("holder", b.roundOrder(st)[0])
	}
	set("chooser", st.Chooser)
	set("order", order)
	set("place", place)
	set("by", decidedBy(st))
	return v
}

// decidedBy says how a standing's first place was decided: "roll",
// "draw" (a card or token drawn), "value", "choice", "award", "random", "kept" (a tie kept from an
// earlier round) or "setup" (still tied, in setup order); "" when it
// places nobody.
func decidedBy(st *Standing) string {
	if len(st.Places) == 0 {
		return ""
	}
	pl := st.Places[0]
	c := pl.Criterion
	switch {
	case pl.Kept:
		return "kept"
	case pl.Pos == "":
		return "setup"
	case strings.HasPrefix(c, "highest roll ") || strings.HasPrefix(c, "lowest roll "):
		return "roll"
	case strings.HasPrefix(c, "highest draw ") || strings.HasPrefix(c, "lowest draw "):
		return "draw"
	case strings.HasPrefix(c, "highest ") || strings.HasPrefix(c, "lowest "):
		return "value"
	case strings.HasPrefix(c, "choice"):
		return "choice"
	case strings.HasPrefix(c, "award"):
		return "award"
	case c == "random":
		return "random"
	}
	return c
}

// notMade is the error of reading o before it is made.
func (b *Battle) notMade(o *order) error {
	if o.scope.kind == dsl.EachRound {
		return fmt.Errorf("order %s is not made yet: it is made each round, in %s, and round %d has not made it yet where this rule runs", o.name, o.where, b.round)
	}
	return fmt.Errorf("order %s is not made yet: it is made in %s, which has not run yet", o.name, o.where)
}

// unmadeRead returns the error of play err says in the words of a rule's
// author, when it is the reading of an order not made yet; nil otherwise.
func (b *Battle) unmadeRead(msg string) error {
	m := exprNilFetch.FindStringSubmatch(msg)
	if m == nil {
		return nil
	}
	if o := b.prog.orders[m[1]]; o != nil && !b.made(o) {
		return b.notMade(o)
	}
	return nil
}

// checkMade refuses what e reads of an order that is not made yet where
// e runs: next is the id of the next order a round makes there (orders
// are numbered in the order a round makes them), and self, if not nil,
// the order whose rules e is part of.
func (c *compiler) checkMade(e *compiled, next int, self *order) {
	if e == nil {
		return
	}
	for _, r := range e.orders {
		if r.guarded || r.o.id < next && r.o != self {
			continue
		}
		d := notMadeHere("", offsetPos(e.pos, e.src, r.from), r.o, self)
		d.End = offsetPos(e.pos, e.src, r.from+len([]rune(r.o.name)))
		c.p.diags = append(c.p.diags, d)
	}
}

// checkRoleMade refuses a role `ORDER.first` or `ORDER.last`, written at
// at by what (`choice by ...`, `decide NAME by ...`), whose order is not
// made yet where it is asked (next and self as checkMade has them).
func (c *compiler) checkRoleMade(what, role string, at dsl.Pos, next int, self *order) {
	name, _, ok := strings.Cut(role, ".")
	o := c.p.orders[name]
	if !ok || o == nil || o.id < next && o != self {
		return
	}
	c.p.diags = append(c.p.diags, notMadeHere(what+": ", at, o, self))
}

// notMadeHere is the error of reading o at from, where it is not made
// yet; self is the order whose rules read it, if any.
func notMadeHere(prefix string, from dsl.Pos, o, self *order) dsl.Diagnostic {
	if o == self {
		d := dsl.Errorf(from, "%sorder %s is not made yet here, in its own rules", prefix, o.name)
		d.Hint = "its rules can read the orders made before it, and the round's holder and chooser"
		return d
	}
	return dsl.Errorf(from, "%sorder %s is not made yet here: it is made later in the round, in %s (line %d)", prefix, o.name, o.where, o.pos.Line)
}

// checkChainMade checks every expression of an order's chain (see
// checkMade).
func (c *compiler) checkChainMade(o *order, chain []link) {
	for _, l := range chain {
		switch x := l.(type) {
		case *valueLink:
			c.checkMade(x.e, o.id, o)
		case *rollLink:
			c.checkMade(x.mod, o.id, o)
		case *awardLink:
			c.checkMade(x.e, o.id, o)
		case *choiceLink:
			c.checkRoleMade("choice by "+x.role, x.role, x.pos, o.id, o)
		case *tieSet:
			for _, r := range x.rules {
				c.checkMade(r.when, o.id, o)
				c.checkChainMade(o, r.chain)
			}
		}
	}
}

// orderField matches a name read by an order's field: `setup.first`.
var orderField = regexp.MustCompile(`(?:^|[^\w.])(\w+)\s*\.\s*(?:first|last|holder|chooser|order|place|by)\b`)

// readAsOrder reports whether src reads name by one of an order's fields.
func readAsOrder(src, name string) bool {
	for _, m := range orderField.FindAllStringSubmatch(src, -1) {
		if m[1] == name {
			return true
		}
	}
	return false
}

// noOrder says that no order is called name, naming those there are.
func (t *envTypes) noOrder(name string) string {
	names := slices.Sorted(maps.Keys(t.orderNames))
	if len(names) == 0 {
		return fmt.Sprintf(" (no order is called %s, and the ruleset has none)", name)
	}
	return fmt.Sprintf(" (no order is called %s; the orders are %s)", name, wording.AndList(quoted(names)))
}

// quoted puts each name in backquotes.
func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = "`" + n + "`"
	}
	return out
}

// orderAsValue is the hint for an order read as a value of its own, not
// by a field: `highest setup`.
func orderAsValue(src string) string {
	name := strings.TrimSpace(src)
	return fmt.Sprintf("an order is read by its fields: %s, %s, %s, %s, %s, %s or %s",
		quoteSrc(name+".first"), quoteSrc(name+".last"), quoteSrc(name+".holder"), quoteSrc(name+".chooser"),
		quoteSrc(name+".order"), quoteSrc(name+".place[name]"), quoteSrc(name+".by"))
}

// orderNotAttr is what meant says of an order's name read as an
// attribute or status.
func orderNotAttr(name string) string {
	return fmt.Sprintf(" (%s is an order, not an attribute: read it by itself, as in `%s.first` or `%s.place[name]`)", name, name, name)
}
