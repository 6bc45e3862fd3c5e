package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/checker/nature"
	exprcompiler "github.com/expr-lang/expr/compiler"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/optimizer"
	"github.com/expr-lang/expr/parser/lexer"
	"github.com/expr-lang/expr/vm"
	"github.com/turnorder/turnorder/dsl"
)

// Expressions are type-checked against Go struct types built at compile
// time from the ruleset's declarations, so that `sum(units, .movment)` is an
// error at check time rather than a surprise in round 3.

// AttrType is the type of a declared attribute.
type AttrType string

const (
	IntAttr    AttrType = "int"
	BoolAttr   AttrType = "bool"
	StringAttr AttrType = "string"
)

func (t AttrType) goType() reflect.Type {
	switch t {
	case BoolAttr:
		return reflect.TypeFor[bool]()
	case StringAttr:
		return reflect.TypeFor[string]()
	}
	return reflect.TypeFor[int]()
}

func (t AttrType) zero() any {
	switch t {
	case BoolAttr:
		return false
	case StringAttr:
		return ""
	}
	return 0
}

// kind is what an expression must produce to be stored in an attribute of
// type t. A number may be a decimal that is whole in play (`bid / 2`).
func (t AttrType) kind() exprKind {
	switch t {
	case BoolAttr:
		return boolValue
	case StringAttr:
		return stringValue
	}
	return numberValue
}

// article is t for a message: "an int", "a bool", "a string".
func (t AttrType) article() string {
	if t == IntAttr {
		return "an int"
	}
	return "a " + string(t)
}

type field struct {
	name string
	typ  reflect.Type
}

// structType builds a struct whose fields expr sees under the given names.
func structType(fields []field) (reflect.Type, map[string]int) {
	sf := make([]reflect.StructField, len(fields))
	idx := make(map[string]int, len(fields))
	for i, f := range fields {
		sf[i] = reflect.StructField{
			Name: fmt.Sprintf("F%d", i),
			Type: f.typ,
			Tag:  reflect.StructTag(fmt.Sprintf(`expr:%q`, f.name)),
		}
		idx[f.name] = i
	}
	return reflect.StructOf(sf), idx
}

// envTypes holds the struct types expressions are checked against.
type envTypes struct {
	unit, side, memory reflect.Type
	unitIdx, sideIdx   map[string]int
	memIdx             map[string]int
	// orderVal is what an order reads as (see orderFields); every
	// environment has a field NAME of type *orderVal for each order, nil
	// until the order is made.
	orderVal reflect.Type
	orderIdx map[string]int
	// Environments: a side or a unit as the subject of a criterion, and a
	// group (tie guards, awards, handlers, remembered values).
	sideEnv, unitEnv, groupSides, groupUnits reflect.Type
	sideEnvIdx, unitEnvIdx, groupIdx         map[string]int
	names                                    *strings.Replacer
	orderNames                               map[string]bool
	decisions                                []*decisionDef
}

// isOrder reports whether name is an order's.
func (t *envTypes) isOrder(name string) bool { return t.orderNames[name] }

func buildEnvTypes(p *Program) *envTypes {
	t := &envTypes{}
	str := reflect.TypeFor[string]()
	unitFields := []field{{"name", str}, {"side", str}, {"team", str}, {"ready", reflect.TypeFor[bool]()}}
	for _, a := range p.unitAttrs {
		unitFields = append(unitFields, field{a.Name, a.Type.goType()})
	}
	for _, s := range p.statuses {
		unitFields = append(unitFields, field{s, reflect.TypeFor[bool]()})
	}
	t.unit, t.unitIdx = structType(unitFields)

	sideFields := []field{{"name", str}, {"team", str}, {"units", reflect.SliceOf(t.unit)}}
	for _, a := range p.sideAttrs {
		sideFields = append(sideFields, field{a.Name, a.Type.goType()})
	}
	t.decisions = p.decisions
	for _, d := range p.decisions {
		if d.each {
			sideFields = append(sideFields, field{d.name, d.typ.goType()})
		}
	}
	t.side, t.sideIdx = structType(sideFields)

	memFields := []field{{"holder", str}, {"chooser", str}, {"order", reflect.TypeFor[[]string]()}}
	for _, r := range p.remember {
		memFields = append(memFields, field{r.name, reflect.TypeFor[any]()})
	}
	t.memory, t.memIdx = structType(memFields)

	t.orderVal, t.orderIdx = structType(orderFields)
	t.orderNames = map[string]bool{}
	for _, o := range p.orderList {
		t.orderNames[o.name] = true
	}
	common := []field{{"round", reflect.TypeFor[int]()}, {"previous", t.memory}, {"sides", reflect.SliceOf(t.side)}}
	common = append(common, orderEnvFields(p, t.orderVal, append(slices.Clone(unitFields), sideFields...))...)
	for _, d := range p.decisions {
		if !d.each {
			common = append(common, field{d.name, d.typ.goType()})
		}
	}
	// A subject sees the round's holder and chooser as a group does, and
	// a unit its side's record: a unit record cannot hold its side, whose
	// units hold it (a type cannot contain itself).
	subject := []field{{"holder", str}, {"chooser", str}}
	t.sideEnv, t.sideEnvIdx = structType(slices.Concat(sideFields, common, subject))
	t.unitEnv, t.unitEnvIdx = structType(slices.Concat(unitFields, common, subject, []field{{mySide, t.side}}))
	group := append([]field{{"tied", reflect.SliceOf(t.side)}, {"holder", str}, {"chooser", str},
		{"units", reflect.SliceOf(t.unit)}}, common...)
	t.groupSides, t.groupIdx = structType(group)
	group[0] = field{"tied", reflect.SliceOf(t.unit)}
	t.groupUnits, _ = structType(group)

	t.names = strings.NewReplacer(
		t.unitEnv.String(), "unit", t.sideEnv.String(), "side",
		t.groupSides.String(), "rule", t.groupUnits.String(), "rule",
		t.unit.String(), "unit", t.side.String(), "side", t.memory.String(), "previous",
		reflect.PointerTo(t.orderVal).String(), "order", t.orderVal.String(), "order",
	)
	return t
}

// mySide is the field of a unit's environment that holds its side's
// record (`my_side.first_player`); `side` stays the side's name.
const mySide = "my_side"

// orderFields are what `order ... as NAME` reads as in an expression.
var orderFields = []field{
	{"first", reflect.TypeFor[string]()},
	{"last", reflect.TypeFor[string]()},
	{"holder", reflect.TypeFor[string]()},
	{"chooser", reflect.TypeFor[string]()},
	{"order", reflect.TypeFor[[]string]()},
	{"place", reflect.TypeFor[map[string]int]()},
	{"by", reflect.TypeFor[string]()},
}

// orderEnvFields are the fields NAME of an environment, one for each
// order, that expressions read orders by. A name the compiler refuses
// (see orderName) is left out, so that the types can still be built to
// report other mistakes.
func orderEnvFields(p *Program, val reflect.Type, taken []field) []field {
	var out []field
	for _, o := range p.orderList {
		if reserved[o.name] || exprWords[o.name] || isBuiltinName(o.name) || slices.ContainsFunc(taken, func(f field) bool { return f.name == o.name }) {
			continue
		}
		out = append(out, field{o.name, reflect.PointerTo(val)})
	}
	return out
}

// countPatch lets `count(units)` mean the number of elements, as a rule
// author expects; expr's own count() wants a predicate.
type countPatch struct{}

func (countPatch) Visit(n *ast.Node) {
	if b, ok := (*n).(*ast.BuiltinNode); ok && b.Name == "count" && len(b.Arguments) == 1 {
		b.Name = "len"
	}
}

// exprKind is what an expression must produce.
type exprKind int

const (
	anyValue exprKind = iota
	boolValue
	numberValue
	stringValue
	namesValue // a name or a list of names
)

func (k exprKind) String() string {
	return [...]string{"a value", "true or false", "a number", "a name", "a name or a list of names"}[k]
}

// compiled is an expression ready to run.
type compiled struct {
	prog *vm.Program
	fast *fastExpr // the native form, if the expression has one
	src  string
	pos  dsl.Pos
	// orders are the orders it reads, for the compiler to check that each
	// is made where it runs.
	orders []orderRead
	// decisions are the decisions it reads, which must be made before it
	// runs.
	decisions []decisionRead
}

func (c *compiled) String() string {
	if c == nil {
		return "?"
	}
	return c.src
}

// maxExprNodes bounds the size of an expression. expr-lang's own bound
// (10,000) lets through expressions whose checking recurses deep enough
// to crash a WebAssembly build on Node.js; a rule's expression has a few
// dozen parts.
const maxExprNodes = 1000

// exprOptions are the options an expression is compiled with against env.
func (p *Program) exprOptions(env reflect.Type) []expr.Option {
	opts := []expr.Option{expr.Env(reflect.New(env).Elem().Interface()), expr.Patch(countPatch{}), expr.MaxNodes(maxExprNodes)}
	return append(opts, p.funcs...)
}

// compileSource is expr.Compile, with the optimiser kept from
// expressions with a filter (see hasFilter) and one repair between
// optimising and compiling. expr-lang's optimiser rewrites `filter(xs, p)[0]` (and
// `[-1]`, `first(filter(..))`, `last(filter(..))`) into a find, copying
// the node's type with ast.Node.SetType, which describes a struct type
// without its fields (it has no cache to take them from). Our sides and
// units are struct types, and reading a field of the result
// (`filter(sides, .name != holder)[0].name`) then crashed expr-lang's
// compiler on a nil pointer. The repair gives each node of a struct type
// the description the checker itself would give it.
func compileSource(src string, opts []expr.Option) (*vm.Program, error) {
	prog, err := compileTree(src, opts, true)
	if _, ok := errors.AsType[*file.Error](err); err != nil && !ok {
		// Not an error of the expression's but expr-lang's own (a panic
		// it recovered, as the one above was): compiled as written, the
		// expression gets the checker's word on it.
		return compileTree(src, opts, false)
	}
	return prog, err
}

func compileTree(src string, opts []expr.Option, optimise bool) (*vm.Program, error) {
	config := conf.CreateNew()
	for _, op := range opts {
		op(config)
	}
	for name := range config.Disabled {
		delete(config.Builtins, name)
	}
	config.Check()
	tree, err := checker.ParseCheck(src, config)
	if err != nil {
		return nil, err
	}
	var broken brokenBuiltin
	ast.Walk(&tree.Node, &broken)
	if broken.node != nil {
		loc := broken.node.Location()
		return nil, (&file.Error{Location: file.Location{From: loc.From, To: loc.From + len(broken.node.Name)},
			Message: broken.node.Name + " cannot be used here: write last(filter(LIST, PREDICATE)) for the last element that matches"}).Bind(tree.Source)
	}
	if optimise && config.Optimize && !hasFilter(tree.Node) {
		if err := optimizer.Optimize(&tree.Node, config); err != nil {
			if fe, ok := errors.AsType[*file.Error](err); ok {
				return nil, fe.Bind(tree.Source)
			}
			return nil, err
		}
		ast.Walk(&tree.Node, structNatures{&config.NtCache})
	}
	return exprcompiler.Compile(tree, config)
}

// hasFilter reports whether the tree calls filter. expr-lang's optimiser
// rewrites `filter(xs, p)[-1]` and `last(filter(xs, p))` into a findLast,
// whose bytecode leaves a value behind on the stack, so that the operator
// around it reads the wrong operand (`name == filter(sides, p)[-1].name`
// compared a bool); an expression with a filter is compiled as written.
func hasFilter(n ast.Node) bool {
	var v filterFinder
	ast.Walk(&n, &v)
	return bool(v)
}

type filterFinder bool

func (v *filterFinder) Visit(n *ast.Node) {
	if b, ok := (*n).(*ast.BuiltinNode); ok && b.Name == "filter" {
		*v = true
	}
}

// brokenBuiltin finds a call of an expr-lang builtin whose bytecode leaves
// a value behind on the stack, so that an operator around it reads the
// wrong operand (`"A" == findLast(sides, p).name` compared a bool). The
// builtins cannot be disabled (expr-lang parses them as builtins all the
// same), so a rule that calls one is refused.
type brokenBuiltin struct{ node *ast.BuiltinNode }

func (v *brokenBuiltin) Visit(n *ast.Node) {
	if b, ok := (*n).(*ast.BuiltinNode); ok && v.node == nil && (b.Name == "findLast" || b.Name == "findLastIndex") {
		v.node = b
	}
}

// structNatures describes again, from the checker's cache, every node
// whose type is a struct (see compileSource).
type structNatures struct{ cache *nature.Cache }

func (v structNatures) Visit(n *ast.Node) {
	if t := (*n).Nature().Type; t != nil && t.Kind() == reflect.Struct {
		(*n).SetNature(v.cache.FromType(t))
	}
}

// compileExpr compiles e against env and reports errors at their true
// position in the .rules file.
func (p *Program) compileExpr(e *dsl.Expr, env reflect.Type, want exprKind) (*compiled, *dsl.Diagnostic) {
	prog, err := compileSource(e.Source, p.exprOptions(env))
	if err != nil && exprTooLong.MatchString(err.Error()) {
		d := dsl.Errorf(e.Pos(), "this expression is too long: it has more than %d parts (numbers, names and operators), where a rule's expression has a few dozen", maxExprNodes)
		return nil, &d
	}
	if err != nil {
		d := p.exprError(e, err)
		d.Message = fieldWords(d.Message) + p.types.meant(d.Message, e.Source, env, want)
		return nil, &d
	}
	if t := prog.Node().Type(); t != nil && !kindAccepts(want, t) {
		got := p.types.friendly(t.String())
		if elem, ok := strings.CutPrefix(got, "[]"); ok && (elem == "unit" || elem == "side") {
			got = "a list of " + elem + "s"
		}
		if got == "order" {
			got = "an order"
		}
		d := dsl.Errorf(e.Pos(), "%s must be %s, but it is %s", quoteSrc(e.Source), want, got)
		if (want == stringValue || want == namesValue) && (got == "side" || got == "unit") {
			// A side or unit where its name is wanted: `award tied[0]`.
			src := e.Source
			if !postfixExpr.MatchString(src) {
				src = "(" + src + ")"
			}
			d.Hint = fmt.Sprintf("write %s for its name", quoteSrc(src+".name"))
		}
		if got == "an order" {
			d.Hint = orderAsValue(e.Source)
		}
		if want == numberValue && strings.HasPrefix(got, "a list") {
			// `lowest units` for `lowest count(units)`.
			d.Hint = fmt.Sprintf("to count it, write %s", quoteSrc("count("+strings.TrimSpace(e.Source)+")"))
		}
		return nil, &d
	}
	c := &compiled{prog: prog, src: e.Source, pos: e.Pos(), orders: p.orderReads(prog.Node())}
	p.readsOrders = p.readsOrders || len(c.orders) > 0
	c.decisions = p.decisionReads(prog.Node(), env)
	if c.decisions == nil {
		c.fast = p.compileFast(prog.Node(), p.types.kindOf(env))
	}
	return c, nil
}

func (t *envTypes) kindOf(env reflect.Type) envKind {
	switch env {
	case t.sideEnv:
		return sideSubject
	case t.unitEnv:
		return unitSubject
	}
	return groupEnv
}

func kindAccepts(want exprKind, t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return true
	}
	switch want {
	case boolValue:
		return t.Kind() == reflect.Bool
	case numberValue:
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
			reflect.Float32, reflect.Float64:
			return true
		}
		return false
	case stringValue:
		return t.Kind() == reflect.String
	case namesValue:
		switch t.Kind() {
		case reflect.String:
			return true
		case reflect.Slice, reflect.Array:
			// []any is what expr-lang makes of most lists: its elements
			// are checked in play.
			return kindAccepts(stringValue, t.Elem())
		}
		return false
	}
	return true
}

// quoteSrc quotes source text in a message. A long one is cut short:
// the message is followed by its source line, with a caret, which shows
// the rest, and a criterion of thousands of characters must not make a
// warning of thousands.
func quoteSrc(s string) string {
	const most = 80 // characters, the "…" included
	if utf8.RuneCountInString(s) > most {
		r := []rune(s)
		s = strings.TrimRight(string(r[:most-1]), " ") + "…"
	}
	return "`" + s + "`"
}

// postfixExpr matches an expression that `.name` can follow as it is
// written: names, indexes and calls, with no operator or space.
var postfixExpr = regexp.MustCompile(`^[A-Za-z_][\w.]*(\[[^\s\]]*\]|\([^\s()]*\))*$`)

func (t *envTypes) friendly(s string) string {
	if t == nil {
		return s
	}
	return t.names.Replace(s)
}

// exprError turns an expr-lang error into a diagnostic at the file
// position of the offending token.
func (p *Program) exprError(e *dsl.Expr, err error) dsl.Diagnostic {
	fe, ok := err.(*file.Error)
	if !ok {
		// Not a positioned error: most likely expr-lang itself failed. Keep
		// the first line; the rest is a Go stack trace.
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return dsl.Errorf(e.Pos(), "cannot compile this expression: %s", strings.TrimSpace(p.types.friendly(msg)))
	}
	msg := fe.Message
	if exprListIndex.MatchString(msg) {
		if m := listField(e.Source, fe.From); m != "" {
			msg = m
		}
	}
	if m := coalesceMixed(msg, e.Source, fe.From); m != "" {
		msg = m
	}
	d := dsl.Errorf(offsetPos(e.Pos(), e.Source, fe.From), "%s", strings.TrimSpace(mismatchWords(p.types.friendly(syntaxMessage(msg, e.Source, fe.From)))))
	if fe.To > fe.From {
		d.End = offsetPos(e.Pos(), e.Source, fe.To)
	}
	return d
}

// isTrueOrFalse reports whether d is compileExpr's refusal of a true or
// false value where want is wanted.
func isTrueOrFalse(d *dsl.Diagnostic, want exprKind) bool {
	return d != nil && strings.HasSuffix(d.Message, fmt.Sprintf(" must be %s, but it is bool", want))
}

// conditionRanked writes the criterion that puts first the subjects for
// which cond holds: `highest (agi == 3 ? 1 : 0)`, `lowest (agi == 3 ? 0 :
// 1)`, in the direction the author wrote.
func conditionRanked(dir dsl.Direction, cond string) string {
	if dir == dsl.Lowest {
		return fmt.Sprintf("lowest (%s ? 0 : 1)", strings.TrimSpace(cond))
	}
	return fmt.Sprintf("highest (%s ? 1 : 0)", strings.TrimSpace(cond))
}

// awardedCondition says, of `award A == B` (or any condition awarded),
// that an award names a subject and a condition is a tie rule's guard,
// with the line meant: `tie when A == B: award A`, joined to the guard
// the tie rule t has, if any (t is nil for an award of its own).
func awardedCondition(a *dsl.AwardCrit, t *dsl.TieRule) string {
	cond := strings.TrimSpace(a.Expr.Source)
	subject := "NAME"
	if left, ok := comparedName(cond); ok {
		subject = left
	}
	if t != nil && t.When != nil {
		cond = bracketed(strings.TrimSpace(t.When.Source)) + " and " + bracketed(cond)
	}
	award := "award "
	if a.Not {
		award = "award not "
	}
	what := "an award names who goes first"
	if a.Not {
		what = "`award not` names who goes last"
	}
	return fmt.Sprintf("%s, and a condition comes before a tie rule's colon: write `tie when %s: %s%s`", what, cond, award, subject)
}

// comparedName returns A of a comparison `A == B` written alone, where A
// is a name to award (not a quoted name or a number): the subject the
// comparison is most likely about.
func comparedName(src string) (string, bool) {
	tokens, err := lexer.Lex(file.NewSource(src))
	if err != nil {
		return "", false
	}
	depth, eq := 0, -1
	for i, t := range tokens {
		switch {
		case t.Is(lexer.Bracket, "(", "[", "{"):
			depth++
		case t.Is(lexer.Bracket, ")", "]", "}"):
			depth--
		case depth == 0 && t.Is(lexer.Operator, "==", "!="):
			if eq >= 0 {
				return "", false
			}
			eq = i
		case depth == 0 && t.Kind == lexer.Operator && !t.Is(lexer.Operator, ".", "?.", "??"):
			return "", false // `a == b and c`: more than one comparison
		}
	}
	if eq <= 0 || !tokens[eq].Is(lexer.Operator, "==") {
		return "", false
	}
	literal := func(ts []lexer.Token) bool {
		return len(ts) == 1 && (ts[0].Kind == lexer.String || ts[0].Kind == lexer.Number)
	}
	r := []rune(src)
	name := strings.TrimSpace(string(r[:tokens[eq].From]))
	if literal(tokens[:eq]) {
		// `"Jay" == previous.holder`: the name is the other side's.
		rest := tokens[eq+1:]
		if len(rest) > 0 && rest[len(rest)-1].Kind == lexer.EOF {
			rest = rest[:len(rest)-1]
		}
		if literal(rest) {
			return "", false
		}
		name = strings.TrimSpace(string(r[tokens[eq].To:]))
	}
	if strings.Contains(name, "??") {
		name = "(" + name + ")"
	}
	return name, name != ""
}

// bracketed puts a condition in brackets where joining it with `and`
// would change what it says: `a or b`.
func bracketed(cond string) string {
	if strings.Contains(cond, " or ") || strings.Contains(cond, "||") {
		return "(" + cond + ")"
	}
	return cond
}

// coalesceMixed says expr-lang's "Operator (==) and coalesce expressions
// (??) cannot be mixed" of `previous.holder ?? "" == "Jay"` in a rule
// author's words, with the brackets written in: `??` gives the value
// after it where the one before it is missing, and an operator after the
// pair must find it in brackets. from is the rune where the operator is.
// It returns "" for any other message, or where the pair cannot be told.
func coalesceMixed(msg, src string, from int) string {
	m := coalesceMix.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	op := m[1]
	tokens, err := lexer.Lex(file.NewSource(src))
	if err != nil {
		return ""
	}
	at := slices.IndexFunc(tokens, func(t lexer.Token) bool { return t.From == from })
	if at < 0 {
		return ""
	}
	// The pair is what runs back from the operator to the nearest
	// operator other than ??, a comma or an open bracket: ?? binds
	// tighter than any other operator, so its operands are single values.
	start, depth := 0, 0
	for i := at - 1; i >= 0 && start == 0; i-- {
		switch t := tokens[i]; {
		case t.Is(lexer.Bracket, ")", "]", "}"):
			depth++
		case t.Is(lexer.Bracket, "(", "[", "{"):
			if depth == 0 {
				start = t.To
			}
			depth--
		case depth == 0 && t.Kind == lexer.Operator && !t.Is(lexer.Operator, "??", ".", "?."):
			start = t.To
		}
	}
	r := []rune(src)
	if start > from || from > len(r) {
		return ""
	}
	pair := strings.TrimSpace(string(r[start:from]))
	if !strings.Contains(pair, "??") {
		return ""
	}
	meant := strings.TrimSpace(string(r[:start]) + strings.Replace(string(r[start:from]), pair, "("+pair+")", 1) + string(r[from:]))
	return fmt.Sprintf("%s must be in brackets before %s (`??` gives the value after it where the one before it is missing): write %s", quoteSrc(pair), quoteSrc(op), "`"+meant+"`")
}

// mismatchWords says expr-lang's "invalid operation: == (mismatched types
// int and string)" in a rule author's words, with what to write: most
// often a number in quotes, `round == "1"`.
func mismatchWords(msg string) string {
	m := mismatch.FindStringSubmatch(msg)
	logical := m != nil && slices.Contains([]string{"or", "and", "||", "&&"}, m[1])
	if m == nil || !logical && !slices.Contains([]string{"==", "!=", "<", ">", "<=", ">="}, m[1]) {
		return msg
	}
	kind := func(t string) string {
		switch t {
		case "int", "int64", "float64":
			return "number"
		case "string", "bool", "side", "unit":
			return t
		}
		return ""
	}
	a, b := kind(m[2]), kind(m[3])
	words := map[string]string{"number": "a number", "string": "a string", "bool": "true or false", "side": "a side", "unit": "a unit"}
	if a == "" || b == "" {
		return msg
	}
	if logical {
		// `award previous.chooser or previous.holder`.
		return fmt.Sprintf("%s joins conditions, each true or false, but here it joins %s with %s: write a comparison on each side, as in `round == 1 %s len(tied) == 2`", quoteSrc(m[1]), words[a], words[b], m[1])
	}
	out := fmt.Sprintf("%s cannot compare %s with %s", quoteSrc(m[1]), words[a], words[b])
	has := func(x, y string) bool { return a == x && b == y || a == y && b == x }
	switch {
	case has("number", "string"):
		out += ": a number is written without quotes (`1`, not `\"1\"`), a name in quotes (`\"Jay\"`)"
	case has("side", "string"), has("unit", "string"):
		out += ": compare its name, as in `tied[0].name == \"Jay\"`"
	case has("bool", "number"), has("bool", "string"):
		out += ": a status or other true-or-false value is tested alone, as in `pinned` or `not pinned`"
	}
	return out
}

// listBefore matches, at the end of what precedes a field, the list it is
// read from and the call that list is the first argument of, if any:
// `sum(units.` of `sum(units.agi)`.
var listBefore = regexp.MustCompile(`(?:(\w+)\(\s*)?([\w.]*\w)\.$`)

// listField says expr-lang's "array elements can only be selected using
// an integer" of `units.agi` (field at rune from) in the rule author's
// words: a list has no fields, its elements do, and builtins take the
// field after a comma.
func listField(src string, from int) string {
	r := []rune(src)
	if from <= 0 || from > len(r) {
		return ""
	}
	m := listBefore.FindStringSubmatch(string(r[:from]))
	end := from
	for end < len(r) && (r[end] == '_' || unicode.IsLetter(r[end]) || unicode.IsDigit(r[end])) {
		end++
	}
	if m == nil || end == from {
		return ""
	}
	list, field := m[2], string(r[from:end])
	msg := fmt.Sprintf("%s is a list, and %s is a field of each of its elements, which a function takes after a comma: write ", quoteSrc(list), field)
	if m[1] != "" {
		return msg + quoteSrc(fmt.Sprintf("%s(%s, .%s)", m[1], list, field))
	}
	return msg + fmt.Sprintf("%s or %s", quoteSrc(fmt.Sprintf("sum(%s, .%s)", list, field)), quoteSrc(fmt.Sprintf("max(map(%s, .%s))", list, field)))
}

// meant suggests, for msg, an error about a name that is not declared,
// the declared name it is a typo of, if there is one: " (did you mean
// models?)". A house rule's author types `lowest model` for `models`.
func (t *envTypes) meant(msg, src string, env reflect.Type, want exprKind) string {
	if t == nil {
		return ""
	}
	var typo, of string
	top := false // typo is a name of the environment, not a field
	if m := unknownName.FindStringSubmatch(msg); m != nil {
		typo, top = m[1], true
		if t.orderVal != nil && t.isOrder(typo) {
			return orderNotAttr(typo)
		}
		if words := t.decisionWords(typo, env); words != "" {
			return words
		}
		if env == t.unitEnv {
			of = "unit"
		}
		// A tie guard or an award sees the group, not one subject: a
		// subject's field is reached through tied.
		subject := map[reflect.Type]map[string]int{t.groupSides: t.sideIdx, t.groupUnits: t.unitIdx}[env]
		if _, ok := subject[typo]; ok {
			return fmt.Sprintf(" (a rule for a tied group sees its subjects in `tied`: write `tied[0].%s`, or `any(tied, .%s ...)`)", typo, typo)
		}
		// A rulebook's turn is a round (MESBG's "first turn of the game").
		if typo == "turn" {
			return " (a turn is a round here: write `round`)"
		}
		// `sum(units.agi)` in an order of units: each unit is worked
		// out alone, and `units` is a side's, not a name to declare.
		if typo == "units" && env == t.unitEnv {
			return " (this is worked out for each unit, which has no units: name the unit's own attributes directly, as in `highest agi`)"
		}
		// `side.models` in an order of sides: a unit has a side, a side
		// is itself.
		if typo == "side" && env == t.sideEnv {
			return " (this is worked out for each side: name its attributes directly, without `side.`)"
		}
		// A side's value, or a condition on a side, that names a unit's
		// attribute or status: the side has units, each with its own.
		if i, ok := t.unitIdx[typo]; ok && env == t.sideEnv {
			switch {
			case want != numberValue:
				return fmt.Sprintf(" (%s belongs to each unit, and this is worked out for a side: look at its units, as in `any(units, .%s ...)` or `all(units, .%s ...)`)", typo, typo, typo)
			case t.unit.Field(i).Type.Kind() == reflect.Bool:
				return fmt.Sprintf(" (%s belongs to each unit, and this is worked out for a side: count its units, as in `count(units, .%s)`, or, to put the units themselves in order, write `order units as NAME`)", typo, typo)
			}
			return fmt.Sprintf(" (%s belongs to each unit, and this is worked out for a side: add up or compare its units', as in `sum(units, .%s)` or `max(map(units, .%s))`, or, to put the units themselves in order, write `order units as NAME`)", typo, typo, typo)
		}
	} else if m := noField.FindStringSubmatch(msg); m != nil {
		typo, of = m[2], m[1]
		if of != "order" && t.isOrder(typo) {
			return orderNotAttr(typo)
		}
		if words := t.decisionWords(typo, nil); words != "" && of != "previous" {
			return words
		}
		env = map[string]reflect.Type{"unit": t.unit, "side": t.side, "previous": t.memory, "order": t.orderVal}[of]
	} else {
		return ""
	}
	// Nothing it is a typo of: a house rule's new word, to declare. A
	// unit's is most often a status (`ready units unless wounded`).
	var declare string
	switch {
	case of == "unit" && want == numberValue:
		declare = fmt.Sprintf(" (to use it, declare it in the ruleset: `unit attribute %s int`)", typo)
	case of == "unit":
		declare = fmt.Sprintf(" (to use it, declare it in the ruleset: `unit status %s` or `unit attribute %s int`)", typo, typo)
	case of == "side" || of == "" && env == t.sideEnv:
		// A side has attributes only; its type follows what is wanted.
		typ := map[exprKind]string{boolValue: "bool", stringValue: "string"}[want]
		if typ == "" {
			typ = "int"
		}
		declare = fmt.Sprintf(" (to use it, declare it in the ruleset: `side attribute %s %s`)", typo, typ)
	case of == "previous":
		declare = fmt.Sprintf(" (to use it, remember it in the ruleset: `remember %s = EXPR`)", typo)
	}
	if calls(src, typo) {
		// `frob(units)`: a function the host did not register, not an
		// attribute to declare.
		declare = ""
	}
	names := make([]string, env.NumField())
	for i := range names {
		names[i] = env.Field(i).Tag.Get("expr")
	}
	best := dsl.Suggest(typo, names)
	if best == "" && env == t.sideEnv && of == "" {
		// A unit's attribute mistyped where a side is worked out
		// (`highest sum(units, movment)`): name it, and say how a side
		// reaches it.
		var unitNames []string
		for n := range t.unitIdx {
			unitNames = append(unitNames, n)
		}
		slices.Sort(unitNames)
		if ub := dsl.Suggest(typo, unitNames); ub != "" {
			how := strings.TrimSuffix(strings.TrimPrefix(t.meant("unknown name "+ub, "", env, want), " ("), ")")
			return fmt.Sprintf(" (did you mean %s? %s)", ub, how)
		}
	}
	if best == "" && top && readAsOrder(src, typo) {
		// `setpu.first`: a name read as an order is read, with nothing
		// to declare.
		return t.noOrder(typo)
	}
	if best == "" && of == "order" {
		return " (an order has first, last, holder, chooser, order, place and by)"
	}
	if best == "" {
		// `holder = Jay`: a name is a string. Attributes are written in
		// lower case; a side is named as a rulebook names a player.
		if r, _ := utf8.DecodeRuneInString(typo); of == "" && unicode.IsUpper(r) {
			return fmt.Sprintf(" (a side's or unit's name is written in quotes: `%q`)", typo)
		}
		return declare
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// calls reports whether src calls name as a function: `frob(units)`.
func calls(src, name string) bool {
	return regexp.MustCompile(`(?:^|[^\w.])` + regexp.QuoteMeta(name) + `\s*\(`).MatchString(src)
}

// fieldWords says expr-lang's "type unit has no field agl" in the words
// of the rules language: a unit has attributes and statuses, previous has
// the values a round remembers.
func fieldWords(msg string) string {
	m := noField.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	switch m[1] {
	case "unit":
		return fmt.Sprintf("a unit has no attribute or status %s", m[2])
	case "side":
		return fmt.Sprintf("a side has no attribute %s", m[2])
	case "order":
		return fmt.Sprintf("an order has no field %s", m[2])
	}
	return fmt.Sprintf("previous has no value %s", m[2])
}

// previousBefore reports whether the word before rune from of src is
// `previous`, followed by spaces only.
func previousBefore(src string, from int) bool {
	r := []rune(src)
	return from <= len(r) && previousWord.MatchString(string(r[:from]))
}

// funcBefore matches a function's name just before a word, with spaces
// only between.
var funcBefore = regexp.MustCompile(`(?:^|[^\w.])(count|sum|len|max|min|mean|median|any|all|none|one|filter|map|abs)[ \t]+$`)

// nameBefore returns the name just before rune from of src, with spaces
// only between, or "".
func nameBefore(src string, from int) string {
	r := []rune(src)
	if from > len(r) {
		return ""
	}
	if m := wordBefore.FindStringSubmatch(string(r[:from])); m != nil && !slices.Contains([]string{"and", "or", "not", "in"}, m[1]) {
		return m[1]
	}
	return ""
}

var wordBefore = regexp.MustCompile(`([A-Za-z_][\w.]*)[ \t]+$`)

// funcBeforeWord returns the function named just before rune from of
// src, or "".
func funcBeforeWord(src string, from int) string {
	r := []rune(src)
	if from > len(r) {
		return ""
	}
	if m := funcBefore.FindStringSubmatch(string(r[:from])); m != nil {
		return m[1]
	}
	return ""
}

var previousWord = regexp.MustCompile(`(?:^|[^\w.])previous[ \t]+$`)

// syntaxMessage says expr-lang's syntax errors in the words of the rules
// language, not of its lexer.
func syntaxMessage(msg, src string, from int) string {
	m := unexpectedToken.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	if m[1] == "EOF" {
		return fmt.Sprintf("the expression is not finished: something must follow %s", quoteSrc(strings.TrimSpace(src)))
	}
	tok, err := strconv.Unquote(m[2])
	if err != nil {
		return msg
	}
	switch {
	case m[1] == "Operator" && tok == "=":
		return "unexpected `=`: to compare, write `==`"
	case m[1] == "Number" && nameBefore(src, from) != "":
		// `tie when round 1`: the comparison left out.
		return fmt.Sprintf("unexpected %s: is an operator missing before it? To compare, write %s", quoteSrc(tok), quoteSrc(nameBefore(src, from)+" == "+tok))
	case m[1] == "Identifier" && tok == "is":
		return "unexpected `is`: to compare, write `==`"
	case m[1] == "Identifier" && funcBeforeWord(src, from) != "":
		// `count units`: the brackets left out.
		return fmt.Sprintf("unexpected %s: a function's arguments are in brackets: %s", quoteSrc(tok), quoteSrc(funcBeforeWord(src, from)+"("+tok+")"))
	case m[1] == "Identifier" && previousBefore(src, from):
		// `award not previous holder`: the dot left out.
		return fmt.Sprintf("unexpected %s: a value of the previous round is written with a dot: %s", quoteSrc(tok), quoteSrc("previous."+tok))
	case m[1] == "String":
		tok = strconv.Quote(tok)
		fallthrough
	case m[1] == "Identifier" || m[1] == "Number":
		return fmt.Sprintf("unexpected %s: is an operator (such as `+`, `==` or `and`) missing before it?", quoteSrc(tok))
	}
	return fmt.Sprintf("unexpected %s", quoteSrc(tok))
}

// offsetPos advances pos over the first n runes of src.
func offsetPos(pos dsl.Pos, src string, n int) dsl.Pos {
	i := 0
	for off, r := range src {
		if i == n {
			break
		}
		pos.Offset = pos.Offset + len(string(r))
		_ = off
		if r == '\n' {
			pos.Line++
			pos.Column = 1
		} else {
			pos.Column++
		}
		i++
	}
	return pos
}

// constant reports whether an expression's value is the same whatever the
// battle: it names nothing of the battle (no subject, side, unit, previous
// or round, no function of the ruleset's) and calls no built-in that reads
// the clock. Its value can then be worked out at compile time.
func constant(n ast.Node) bool {
	return ast.Find(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IdentifierNode, *ast.VariableDeclaratorNode:
			return true
		case *ast.BuiltinNode:
			switch x.Name {
			case "now", "date", "duration", "timezone":
				return true
			}
		}
		return false
	}) == nil
}

// neverTrue reports whether a condition compiled against env is false in
// every round of every battle, and why: a constant false (`false`,
// `1 > 2`), or a condition on the round alone that holds in no round
// (`round == 0`: rounds are numbered from 1). One on the round is worked
// out for every round from 1 to past the largest number it holds, which
// is where a comparison of the round can change.
func neverTrue(e *compiled, env reflect.Type) (string, bool) {
	if e == nil {
		return "", false
	}
	if v, ok := constValue(e, env); ok {
		return "is always false", v == false
	}
	last, onlyRound := roundOnly(e)
	run, ok := inRound(e, env)
	if !onlyRound || !ok || last > 100000 {
		return "", false
	}
	for round := 1; round <= last; round++ {
		if v, err := run(round); err != nil || v != false {
			return "", false
		}
	}
	return "is false in every round (rounds are numbered from 1)", true
}

// round1Envs returns group environments of round 1, one for each count
// of sides the ruleset allows (up to a few more than its least, when it
// has no most) and each count of them tied, from 2: a tie guard that reads
// how many play (`len(sides) == 2`) or are tied is worked out in each, as
// one on the round alone is. Every previous value is empty, as in round 1;
// the sides and units have names of their own, which no guard names, and
// no team or attribute.
func round1Envs(env reflect.Type, minSides, maxSides int) []any {
	tied, ok1 := fieldByTag(env, "tied")
	sides, ok2 := fieldByTag(env, "sides")
	round, ok3 := fieldByTag(env, "round")
	if !ok1 || !ok2 || !ok3 {
		return nil
	}
	lo, hi := max(minSides, 1), maxSides
	if hi < lo || hi > lo+4 {
		hi = lo + 4
	}
	named := func(t reflect.Type, n int, prefix string) reflect.Value {
		v := reflect.MakeSlice(t, n, n)
		if f, ok := fieldByTag(t.Elem(), "name"); ok {
			for i := range n {
				v.Index(i).FieldByIndex(f.Index).SetString(fmt.Sprintf("\x00%s %d", prefix, i+1))
			}
		}
		return v
	}
	var out []any
	for n := lo; n <= hi; n++ {
		for m := 2; m <= max(n, 2); m++ {
			in := reflect.New(env).Elem()
			in.FieldByIndex(round.Index).SetInt(1)
			in.FieldByIndex(sides.Index).Set(named(sides.Type, n, "side"))
			in.FieldByIndex(tied.Index).Set(named(tied.Type, m, "tied"))
			out = append(out, in.Interface())
		}
	}
	return out
}

// fieldByTag finds the field of struct type t that expr sees as name.
func fieldByTag(t reflect.Type, name string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("expr") == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// inRound returns a function that works out e, compiled against env, in a
// given round, with every other field of env zero: for a condition that
// reads the round alone (see roundOnly). ok is false when env has no
// round.
func inRound(e *compiled, env reflect.Type) (run func(round int) (any, error), ok bool) {
	field, ok := env.FieldByNameFunc(func(name string) bool {
		f, _ := env.FieldByName(name)
		return f.Tag.Get("expr") == "round"
	})
	if !ok {
		return nil, false
	}
	in := reflect.New(env).Elem()
	return func(round int) (any, error) {
		in.FieldByIndex(field.Index).SetInt(int64(round))
		return vm.Run(e.prog, in.Interface())
	}, true
}

// roundOnly reports whether e reads nothing of the battle but the round
// (and calls no clock), and the number past the largest it holds, up to
// which a comparison of the round can change.
func roundOnly(e *compiled) (last int, onlyRound bool) {
	last, onlyRound = 1, true
	ast.Find(e.prog.Node(), func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IdentifierNode:
			onlyRound = onlyRound && x.Value == "round"
		case *ast.VariableDeclaratorNode, *ast.FloatNode, *ast.PointerNode:
			onlyRound = false
		case *ast.BuiltinNode:
			switch x.Name {
			case "now", "date", "duration", "timezone":
				onlyRound = false
			}
		case *ast.IntegerNode:
			last = max(last, x.Value+2, -x.Value+2)
		}
		return !onlyRound
	})
	return last, onlyRound
}

// constValue is the value of e, if it is a constant (see constant) that
// runs without error; env is the type e was compiled against.
func constValue(e *compiled, env reflect.Type) (any, bool) {
	if e == nil || !constant(e.prog.Node()) {
		return nil, false
	}
	v, err := vm.Run(e.prog, reflect.New(env).Elem().Interface())
	return v, err == nil
}
