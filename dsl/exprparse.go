package dsl

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The parts of an expression parse themselves: see exprPart. Each method
// takes what the grammar in the struct tags would, and builds the same
// nodes, or returns participle.NextMatch having taken nothing. A group
// whose brackets do not match is not taken: Expr's grammar goes on to
// badGroup, which fails as the grammar always did, so that the error and
// how parsing recovers from it are unchanged.

// exprOps are the operators an expression's part may be: the quoted
// alternatives of exprPart.Tok. Like any quoted token in the grammar they
// match by text, whatever the token's kind.
var exprOps = map[string]bool{
	"==": true, "!=": true, "<=": true, ">=": true, "&&": true, "||": true, "??": true, "?.": true,
	"**": true, "..": true, ".": true, "+": true, "-": true, "*": true, "/": true, "%": true,
	"<": true, ">": true, "!": true, "?": true, "|": true, "&": true, "^": true,
}

// Parse takes one token of an expression, or one group of brackets that
// all match.
func (p *exprPart) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	switch {
	case t.EOF():
		return participle.NextMatch
	case t.Type == tokIdent || t.Type == tokInt || t.Type == tokFloat || t.Type == tokString ||
		t.Type == tokRawString || t.Type == tokDice || exprOps[t.Value]:
		p.Tok = lex.Next().Value
		return nil
	}
	g := &exprGroup{}
	if err := g.Parse(lex); err != nil {
		return err
	}
	p.Group = g
	return nil
}

// Parse takes a group of brackets, if the next token opens one and every
// bracket in it is closed by one of its kind.
func (g *exprGroup) Parse(lex *lexer.PeekingLexer) error {
	if !matchedGroup(*lex) {
		return participle.NextMatch
	}
	*g = *takeGroup(lex)
	return nil
}

// matchedGroup reports whether lex (a copy, which it moves on) is at a
// group that the grammar takes: an opening bracket, anything, and the
// closing bracket of its kind, every group inside it the same.
func matchedGroup(lex lexer.PeekingLexer) bool {
	var open []byte // the closing bracket each open one wants
	for {
		t := lex.Next()
		switch {
		case t.EOF():
			return false
		case t.Value == "(":
			open = append(open, ')')
		case t.Value == "[":
			open = append(open, ']')
		case t.Value == ")" || t.Value == "]":
			if len(open) == 0 || open[len(open)-1] != t.Value[0] {
				return false
			}
			open = open[:len(open)-1]
		case len(open) == 0:
			return false // not a group at all
		}
		if len(open) == 0 {
			return true
		}
	}
}

// takeGroup takes the group that lex is at, which matchedGroup has
// checked, building the nodes that the grammar would.
func takeGroup(lex *lexer.PeekingLexer) *exprGroup {
	open := lex.Next().Value
	var inner []*exprInner
	for {
		t := lex.Peek()
		switch t.Value {
		case "(", "[":
			inner = append(inner, &exprInner{Group: takeGroup(lex)})
			continue
		case ")", "]":
			closing := lex.Next().Value
			if open == "(" {
				return &exprGroup{Paren: &bracketed{Open: open, Inner: inner, Close: closing}}
			}
			return &exprGroup{Brack: &squared{Open: open, Inner: inner, Close: closing}}
		}
		inner = append(inner, &exprInner{Tok: lex.Next().Value})
	}
}
