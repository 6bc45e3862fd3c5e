package dsl

import (
	"fmt"
	"strings"

	"github.com/alecthomas/participle/v2"
)

// Most of what a syntax error needs, participle gives as data: the
// position, the token it did not expect, a lexer's or a Capture's own
// error inside its wrapping. What it expected instead it gives only as
// text, the grammar it was built from written in its notation, at the end
// of its message. Reading that text is the one place this package depends
// on how participle words anything: participleExpected cuts the grammar
// out of the message, and expected.go reads the notation (quoted words,
// <ident> and the other token symbols, (?! ...), | ? * +).
// depwording_test.go feeds participle real input and checks both against
// what it says, so that an upgrade that words them otherwise fails there
// rather than quietly making the messages worse.

// participleExpected returns the grammar that u says it expected, as
// participle writes it: `"{"`, `("when" Expr)? "{"`. It is false when u
// names nothing expected, or words it in a way this does not know.
func participleExpected(u *participle.UnexpectedTokenError) (string, bool) {
	if u.Expect != "" {
		return u.Expect, true
	}
	rest, ok := strings.CutPrefix(u.Message(), fmt.Sprintf("unexpected token %q", u.Unexpected))
	if !ok {
		return "", false
	}
	rest, ok = strings.CutPrefix(rest, " (expected ")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, ")")
}

// friendlyGrammar says the symbols of participle's grammar notation that
// shortenExpected left (in a grammar it could not read) in a rule
// author's words.
func friendlyGrammar(msg string) string {
	return strings.NewReplacer(
		`"\n"`, "end of line",
		"<eol>", "end of line",
		"<ident>", "a name",
		"<string>", "a quoted string",
		"<int>", "a number",
		"<dice>", "dice such as d6 or 2d6",
		"(expected Expr)", "(expected an expression)",
		"(expected Criterion)", "(expected a criterion)",
		"(expected UnitSetup)", "(expected a unit, `unit NAME`)",
	).Replace(msg)
}
