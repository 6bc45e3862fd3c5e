package dsl

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/alecthomas/participle/v2/lexer"
)

// Finding one's way in the tokens around a syntax error: the rules that
// refine and explain it read the statement it is in, the block around
// it, the words before it.

// stmtWords returns the values of the tokens of the statement that
// tokens[i] is in, up to tokens[i] (not included), skipping whitespace and
// comments. Inside brackets it may stop early; that is no matter for the
// statement keywords it is used to find.
func stmtWords(tokens []lexer.Token, i int) []string {
	var words []string
	for j := i - 1; j >= 0; j-- {
		t := tokens[j]
		if t.Type == tokEOL || t.Type == tokOp && (t.Value == "{" || t.Value == "}") {
			break
		}
		if !spacing(t) {
			words = append(words, t.Value)
		}
	}
	slices.Reverse(words)
	return words
}

// describe names a token in a message.
func describe(t lexer.Token) string {
	if t.Type == tokEOL && t.Value == "\n" {
		return "end of line"
	}
	return strconv.Quote(t.Value)
}

// tokenIndex returns the index of the token at offset, or -1. Tokens are
// in order of offset, none empty, so it searches: recovery asks for many.
func tokenIndex(tokens []lexer.Token, offset int) int {
	i := firstAtOrAfter(tokens, offset)
	if i < len(tokens) && tokens[i].Pos.Offset == offset {
		return i
	}
	return -1
}

// firstAtOrAfter returns the index of the first token at or after offset,
// or len(tokens).
func firstAtOrAfter(tokens []lexer.Token, offset int) int {
	i, _ := slices.BinarySearchFunc(tokens, offset, func(t lexer.Token, offset int) int { return cmp.Compare(t.Pos.Offset, offset) })
	return i
}

// prevToken and nextIndex step over whitespace and comments (not ends of
// line) from tokens[i]; -1 if there is no such token.
func prevToken(tokens []lexer.Token, i int) int {
	for j := i - 1; j >= 0; j-- {
		if !spacing(tokens[j]) {
			return j
		}
	}
	return -1
}

func nextIndex(tokens []lexer.Token, i int) int {
	for j := i + 1; j < len(tokens); j++ {
		if !spacing(tokens[j]) {
			return j
		}
	}
	return -1
}

func tokenAt(tokens []lexer.Token, offset int) string {
	if i := tokenIndex(tokens, offset); i >= 0 {
		return tokens[i].Value
	}
	return ""
}

// literalTokens reports whether ts is a literal as an attribute's default
// is written: a number, -number, a string or a word.
func literalTokens(ts []lexer.Token) bool {
	switch {
	case len(ts) == 2:
		return ts[0].Value == "-" && ts[1].Type == tokInt
	case len(ts) == 1:
		return ts[0].Type == tokInt || ts[0].Type == tokString || ts[0].Type == tokIdent
	}
	return false
}

// spacing is whitespace or a comment: what the grammar elides.
func spacing(t lexer.Token) bool {
	return t.Type == tokWhitespace || t.Type == tokComment
}

// blockOpener finds the first word of the line that opened the innermost
// block around offset, and whether the token at offset starts a statement.
func blockOpener(tokens []lexer.Token, offset int) (opener string, stmtStart bool) {
	var stack []string
	lineWord := ""
	atLineStart := true
	for _, t := range tokens {
		if t.Pos.Offset >= offset {
			break
		}
		switch {
		case t.Type == tokEOL:
			atLineStart = true
			continue
		case spacing(t):
			continue
		}
		if atLineStart {
			lineWord = t.Value
			atLineStart = false
		}
		switch t.Value {
		case "{":
			stack = append(stack, lineWord)
			atLineStart = true // a statement may follow on the same line
		case "}":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if len(stack) == 0 {
		return "", atLineStart
	}
	return stack[len(stack)-1], atLineStart
}

// unclosed returns the first opening bracket that is never closed.
func unclosed(tokens []lexer.Token) *lexer.Token {
	var stack []int
	for i, t := range tokens {
		switch {
		case t.Type == tokOpen:
			stack = append(stack, i)
		case t.Type == tokClose && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return nil
	}
	return &tokens[stack[0]]
}
