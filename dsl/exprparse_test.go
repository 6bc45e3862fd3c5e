package dsl

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
)

// The grammar that exprPart and exprGroup parse by hand, as participle
// would parse it from their tags. TestExprPartsMatchGrammar checks that the
// two agree.
type (
	grammarExpr struct {
		Parts []*grammarPart `parser:"@@+"`
	}
	grammarPart struct {
		Group *grammarGroup `parser:"  @@"`
		Tok   string        `parser:"| @(Ident | Int | Float | String | RawString | Dice | '==' | '!=' | '<=' | '>=' | '&&' | '||' | '??' | '?.' | '**' | '..' | '.' | '+' | '-' | '*' | '/' | '%' | '<' | '>' | '!' | '?' | '|' | '&' | '^')"`
	}
	grammarGroup struct {
		Paren *grammarParen  `parser:"  @@"`
		Brack *grammarSquare `parser:"| @@"`
	}
	grammarParen struct {
		Open  string          `parser:"@'('"`
		Inner []*grammarInner `parser:"@@*"`
		Close string          `parser:"@')'"`
	}
	grammarSquare struct {
		Open  string          `parser:"@'['"`
		Inner []*grammarInner `parser:"@@*"`
		Close string          `parser:"@']'"`
	}
	grammarInner struct {
		Group *grammarGroup `parser:"  @@"`
		Tok   string        `parser:"| @(~(')' | ']' | '(' | '['))"`
	}
)

// The expression alone, then the rest of a statement, as a criterion has it.
type (
	exprThen[E any] struct {
		E    *E     `parser:"@@"`
		Rest string `parser:"@(~EOF)*"`
	}
)

var (
	fastExprParser    = participle.MustBuild[exprThen[Expr]](parserOptions[:3]...)
	grammarExprParser = participle.MustBuild[exprThen[grammarExpr]](parserOptions[:3]...)
)

func (g *grammarGroup) tokens(toks []string) []string {
	open, inner, closing := "[", []*grammarInner(nil), "]"
	if g.Paren != nil {
		open, inner, closing = g.Paren.Open, g.Paren.Inner, g.Paren.Close
	} else {
		inner, closing = g.Brack.Inner, g.Brack.Close
	}
	toks = append(toks, open)
	for _, in := range inner {
		if in.Group != nil {
			toks = in.Group.tokens(toks)
		} else {
			toks = append(toks, "tok:"+in.Tok)
		}
	}
	return append(toks, closing)
}

func fastTokens(g *exprGroup, toks []string) []string {
	open, inner, closing := "[", []*exprInner(nil), "]"
	if g.Paren != nil {
		open, inner, closing = g.Paren.Open, g.Paren.Inner, g.Paren.Close
	} else {
		inner, closing = g.Brack.Inner, g.Brack.Close
	}
	toks = append(toks, open)
	for _, in := range inner {
		if in.Group != nil {
			toks = fastTokens(in.Group, toks)
		} else {
			toks = append(toks, "tok:"+in.Tok)
		}
	}
	return append(toks, closing)
}

// checkExprParts parses src as an expression, and what follows it, with
// the hand-written parts and with the grammar, and reports any difference
// in what they parsed or the error they found.
func checkExprParts(t *testing.T, src string) {
	t.Helper()
	fast, fastErr := fastExprParser.ParseString("x.rules", src)
	slow, slowErr := grammarExprParser.ParseString("x.rules", src)
	var fe, se string
	if fastErr != nil {
		fe = fastErr.Error()
	}
	if slowErr != nil {
		se = slowErr.Error()
	}
	if fe != se {
		t.Errorf("%q: error %q, the grammar's %q", src, fe, se)
		return
	}
	if fastErr != nil {
		return
	}
	var ft, st []string
	if fast.E != nil {
		if len(fast.E.Bad) > 0 {
			t.Errorf("%q: parsed with a bad group", src)
		}
		for _, p := range fast.E.Parts {
			if p.Group != nil {
				ft = fastTokens(p.Group, ft)
			} else {
				ft = append(ft, p.Tok)
			}
		}
	}
	if slow.E != nil {
		for _, p := range slow.E.Parts {
			if p.Group != nil {
				st = p.Group.tokens(st)
			} else {
				st = append(st, p.Tok)
			}
		}
	}
	if strings.Join(ft, " ") != strings.Join(st, " ") || fast.Rest != slow.Rest {
		t.Errorf("%q: parsed %q then %q, the grammar %q then %q", src, ft, fast.Rest, st, slow.Rest)
	}
}

var exprPartCases = []string{
	"a", "a + 1", "len(tied) == 2", "f(x, [1, 2])[0] ?? 3", "(a)", "[a]", "((a))", "([a])",
	"(a", "a)", "(a]", "[a)", "((a)", "(a))", "a (b) c", "(a\n b,\n c) + d", "(a; b)",
	"filter(units, #.agi > 3)", "(# a) # b", "{", "a { b }", "(a { b } c)", "a: b", "(a: b, c)",
	"((((((x]]]]]]", "(a](b)", "a + (b\nc\n", "\"(\" + ')'", "d6 + 2d6 (", "a.b?.c ** 2 .. 3",
	"", "\n", "(", ")", "]", "[", "(\n", "a b c (d [e (f] g) h", "x == 1 ? (y) : [z]",
	"(a)(b)[c]", "a\n(b)", "(\"unterminated)", "(a # not a comment)",
}

func TestExprPartsMatchGrammar(t *testing.T) {
	for _, src := range exprPartCases {
		checkExprParts(t, src)
	}
}

func FuzzExprParts(f *testing.F) {
	for _, src := range exprPartCases {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Count(src, "(")+strings.Count(src, "[") > MaxDepth {
			return // the parser is not given such nesting
		}
		checkExprParts(t, src)
	})
}

// TestMemberParsersBuild builds every parser of a statement alone, which
// refine builds only when first needed: a grammar that participle refuses
// panics here, not in a user's first syntax error.
func TestMemberParsersBuild(t *testing.T) {
	var all []memberParser
	for _, g := range blocks {
		all = append(all, g.members...)
	}
	for _, m := range sideClauses {
		all = append(all, m)
	}
	for _, m := range unitClauses {
		all = append(all, m)
	}
	all = append(all, assignAlone)
	all = append(all, sideItemsAlone...)
	for _, parse := range all {
		_ = parse("x.rules", "x")
	}
}
