package runtime

import (
	"reflect"

	"github.com/expr-lang/expr/ast"
)

// Most expressions in rulesets are small: `round == 1`, `previous.chooser`,
// `len(sides) == 2 and round == 1`, `out_of_action or seriously_injured`.
// Running them through expr-lang's VM means building a reflect environment
// of the whole battle first, which costs far more than the expression.
// So, after expr-lang has type-checked an expression, the compiler also
// tries to translate its checked tree into Go closures that read the
// battle directly. Anything outside the small subset below (calls,
// predicates, floats, remembered values of any type) keeps the VM; the
// answer is the same either way, which fastexpr_test.go checks.

// envKind is the environment an expression was checked against.
type envKind int

const (
	sideSubject envKind = iota // a side being placed
	unitSubject                // a unit being placed
	groupEnv                   // tie guards, awards, handlers, remembered values
)

// fenv is what a native expression reads: the battle, and either the
// subject being placed or the group tied.
type fenv struct {
	b    *Battle
	subj int
	tied []int
}

// fastExpr is a natively compiled expression. Exactly one of its
// functions is set, by the expression's static type.
type fastExpr struct {
	b func(fenv) bool
	i func(fenv) int
	s func(fenv) string
}

func (f *fastExpr) value(e fenv) any {
	switch {
	case f.b != nil:
		return f.b(e)
	case f.i != nil:
		return f.i(e)
	}
	return f.s(e)
}

// fastCompiler translates a checked expr-lang tree for one environment.
type fastCompiler struct {
	p    *Program
	kind envKind
}

// compileFast returns a native form of node, or nil if it has none.
func (p *Program) compileFast(node ast.Node, kind envKind) *fastExpr {
	fc := fastCompiler{p: p, kind: kind}
	switch kindOf(node) {
	case reflect.Bool:
		if f := fc.bool(node); f != nil {
			return &fastExpr{b: f}
		}
	case reflect.Int:
		if f := fc.int(node); f != nil {
			return &fastExpr{i: f}
		}
	case reflect.String:
		if f := fc.str(node); f != nil {
			return &fastExpr{s: f}
		}
	}
	return nil
}

func kindOf(n ast.Node) reflect.Kind {
	t := n.Type()
	if t == nil {
		return reflect.Invalid
	}
	return t.Kind()
}

func (fc fastCompiler) bool(n ast.Node) func(fenv) bool {
	if kindOf(n) != reflect.Bool {
		return nil
	}
	if f := literal[bool](n); f != nil {
		return f
	}
	switch x := n.(type) {
	case *ast.IdentifierNode:
		return fc.boolIdent(x.Value)
	case *ast.ConditionalNode:
		return cond(fc.bool(x.Cond), fc.bool(x.Exp1), fc.bool(x.Exp2))
	case *ast.UnaryNode:
		if x.Operator != "not" && x.Operator != "!" {
			return nil
		}
		f := fc.bool(x.Node)
		if f == nil {
			return nil
		}
		return func(e fenv) bool { return !f(e) }
	case *ast.BinaryNode:
		return fc.binaryBool(x)
	}
	return nil
}

func (fc fastCompiler) binaryBool(x *ast.BinaryNode) func(fenv) bool {
	switch x.Operator {
	case "and", "&&", "or", "||":
		l, r := fc.bool(x.Left), fc.bool(x.Right)
		if l == nil || r == nil {
			return nil
		}
		if x.Operator == "and" || x.Operator == "&&" {
			return func(e fenv) bool { return l(e) && r(e) }
		}
		return func(e fenv) bool { return l(e) || r(e) }
	}
	lk, rk := kindOf(x.Left), kindOf(x.Right)
	if lk != rk {
		return nil
	}
	switch lk {
	case reflect.Int:
		if k, ok := x.Right.(*ast.IntegerNode); ok && x.Operator == "==" {
			// The commonest guard of all (round == 1): one call, not three.
			l, v := fc.int(x.Left), k.Value
			if l == nil {
				return nil
			}
			return func(e fenv) bool { return l(e) == v }
		}
		l, r := fc.int(x.Left), fc.int(x.Right)
		if l == nil || r == nil {
			return nil
		}
		return compare(x.Operator, l, r)
	case reflect.String:
		l, r := fc.str(x.Left), fc.str(x.Right)
		if l == nil || r == nil {
			return nil
		}
		return compare(x.Operator, l, r)
	case reflect.Bool:
		l, r := fc.bool(x.Left), fc.bool(x.Right)
		if l == nil || r == nil {
			return nil
		}
		switch x.Operator {
		case "==":
			return func(e fenv) bool { return l(e) == r(e) }
		case "!=":
			return func(e fenv) bool { return l(e) != r(e) }
		}
	}
	return nil
}

// literal is n as a constant function, if n is a literal (or a constant
// expr-lang folded) of type T.
func literal[T bool | int | string](n ast.Node) func(fenv) T {
	var v any
	switch x := n.(type) {
	case *ast.BoolNode:
		v = x.Value
	case *ast.IntegerNode:
		v = x.Value
	case *ast.StringNode:
		v = x.Value
	case *ast.ConstantNode:
		v = x.Value
	default:
		return nil
	}
	c, ok := v.(T)
	if !ok {
		return nil
	}
	return func(fenv) T { return c }
}

func cond[T bool | int | string](c func(fenv) bool, a, b func(fenv) T) func(fenv) T {
	if c == nil || a == nil || b == nil {
		return nil
	}
	return func(e fenv) T {
		if c(e) {
			return a(e)
		}
		return b(e)
	}
}

func compare[T int | string](op string, l, r func(fenv) T) func(fenv) bool {
	switch op {
	case "==":
		return func(e fenv) bool { return l(e) == r(e) }
	case "!=":
		return func(e fenv) bool { return l(e) != r(e) }
	case "<":
		return func(e fenv) bool { return l(e) < r(e) }
	case "<=":
		return func(e fenv) bool { return l(e) <= r(e) }
	case ">":
		return func(e fenv) bool { return l(e) > r(e) }
	case ">=":
		return func(e fenv) bool { return l(e) >= r(e) }
	}
	return nil
}

func (fc fastCompiler) int(n ast.Node) func(fenv) int {
	if kindOf(n) != reflect.Int {
		return nil
	}
	if f := literal[int](n); f != nil {
		return f
	}
	switch x := n.(type) {
	case *ast.IdentifierNode:
		return fc.intIdent(x.Value)
	case *ast.ConditionalNode:
		return cond(fc.bool(x.Cond), fc.int(x.Exp1), fc.int(x.Exp2))
	case *ast.UnaryNode:
		f := fc.int(x.Node)
		if f == nil {
			return nil
		}
		switch x.Operator {
		case "-":
			return func(e fenv) int { return -f(e) }
		case "+":
			return f
		}
	case *ast.BinaryNode:
		l, r := fc.int(x.Left), fc.int(x.Right)
		if l == nil || r == nil {
			return nil
		}
		switch x.Operator {
		case "+":
			return func(e fenv) int { return l(e) + r(e) }
		case "-":
			return func(e fenv) int { return l(e) - r(e) }
		case "*":
			return func(e fenv) int { return l(e) * r(e) }
		}
	case *ast.BuiltinNode:
		if x.Name != "len" || len(x.Arguments) != 1 {
			return nil
		}
		if id, ok := x.Arguments[0].(*ast.IdentifierNode); ok {
			return fc.lenOf(id.Value)
		}
	}
	return nil
}

func (fc fastCompiler) str(n ast.Node) func(fenv) string {
	if kindOf(n) != reflect.String {
		return nil
	}
	if f := literal[string](n); f != nil {
		return f
	}
	switch x := n.(type) {
	case *ast.IdentifierNode:
		return fc.strIdent(x.Value)
	case *ast.ConditionalNode:
		return cond(fc.bool(x.Cond), fc.str(x.Exp1), fc.str(x.Exp2))
	case *ast.MemberNode:
		id, ok := x.Node.(*ast.IdentifierNode)
		prop, ok2 := x.Property.(*ast.StringNode)
		if !ok || !ok2 || id.Value != "previous" || x.Optional || x.Method {
			return nil
		}
		switch prop.Value {
		case "holder":
			return func(e fenv) string { return e.b.memory.Holder }
		case "chooser":
			return func(e fenv) string { return e.b.memory.Chooser }
		}
	}
	return nil
}

// The identifiers below mirror the fields buildEnvTypes declares for each
// environment.

func (fc fastCompiler) attr(name string, t AttrType) (side, unit bool) {
	has := func(as []Attr) bool {
		for _, a := range as {
			if a.Name == name && a.Type == t {
				return true
			}
		}
		return false
	}
	return fc.kind == sideSubject && has(fc.p.sideAttrs), fc.kind == unitSubject && has(fc.p.unitAttrs)
}

func (fc fastCompiler) boolIdent(name string) func(fenv) bool {
	if fc.kind == unitSubject {
		if name == "ready" {
			return func(e fenv) bool { return e.b.units[e.subj].Ready }
		}
		for _, s := range fc.p.statuses {
			if s == name {
				return func(e fenv) bool { return e.b.units[e.subj].Status[name] }
			}
		}
	}
	switch side, unit := fc.attr(name, BoolAttr); {
	case side:
		return func(e fenv) bool { v, _ := e.b.sides[e.subj].Attrs[name].(bool); return v }
	case unit:
		return func(e fenv) bool { v, _ := e.b.units[e.subj].Attrs[name].(bool); return v }
	}
	return nil
}

func (fc fastCompiler) intIdent(name string) func(fenv) int {
	if name == "round" {
		return func(e fenv) int { return e.b.round }
	}
	switch side, unit := fc.attr(name, IntAttr); {
	case side:
		return func(e fenv) int { v, _ := e.b.sides[e.subj].Attrs[name].(int); return v }
	case unit:
		return func(e fenv) int { v, _ := e.b.units[e.subj].Attrs[name].(int); return v }
	}
	return nil
}

func (fc fastCompiler) strIdent(name string) func(fenv) string {
	// Every environment has the round's holder and chooser.
	switch name {
	case "holder":
		return func(e fenv) string { return e.b.Holder() }
	case "chooser":
		return func(e fenv) string { return e.b.Chooser() }
	}
	switch fc.kind {
	case sideSubject:
		switch name {
		case "name":
			return func(e fenv) string { return e.b.sides[e.subj].Name }
		case "team":
			return func(e fenv) string { return e.b.sides[e.subj].Team }
		}
	case unitSubject:
		switch name {
		case "name":
			return func(e fenv) string { return e.b.units[e.subj].Name }
		case "side":
			return func(e fenv) string { return e.b.units[e.subj].Side.Name }
		case "team":
			return func(e fenv) string { return e.b.units[e.subj].Side.Team }
		}
	}
	switch side, unit := fc.attr(name, StringAttr); {
	case side:
		return func(e fenv) string { v, _ := e.b.sides[e.subj].Attrs[name].(string); return v }
	case unit:
		return func(e fenv) string { v, _ := e.b.units[e.subj].Attrs[name].(string); return v }
	}
	return nil
}

// lenOf is len(name) of a list identifier.
func (fc fastCompiler) lenOf(name string) func(fenv) int {
	switch {
	case name == "sides":
		return func(e fenv) int { return len(e.b.sides) }
	case name == "tied" && fc.kind == groupEnv:
		return func(e fenv) int { return len(e.tied) }
	case name == "units" && fc.kind == groupEnv:
		return func(e fenv) int { return len(e.b.units) }
	case name == "units" && fc.kind == sideSubject:
		return func(e fenv) int { return len(e.b.sides[e.subj].Units) }
	}
	return nil
}
