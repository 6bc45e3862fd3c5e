package dsl

import (
	"io"
	"maps"
	"strconv"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// The token kinds of the language. Participle's grammar names them
// (@Ident, @String) through symbols.
const (
	tokComment lexer.TokenType = lexer.EOF - 1 - iota
	tokHash
	tokOpen
	tokClose
	tokString
	tokRawString
	tokDice
	tokFloat
	tokInt
	tokIdent
	tokEOL
	tokOp
	tokWhitespace
)

var symbols = map[string]lexer.TokenType{
	"EOF":        lexer.EOF,
	"Comment":    tokComment,
	"Hash":       tokHash,
	"Open":       tokOpen,
	"Close":      tokClose,
	"String":     tokString,
	"RawString":  tokRawString,
	"Dice":       tokDice,
	"Float":      tokFloat,
	"Int":        tokInt,
	"Ident":      tokIdent,
	"EOL":        tokEOL,
	"Op":         tokOp,
	"Whitespace": tokWhitespace,
}

// rulesLexer is the language's lexer, written by hand: a token is known by
// its first byte or two, so one pass over the text does, where regular
// expressions tried at each token cost time in proportion to the text left
// (participle's regexp lexer made lexing quadratic in the size of a file).
//
// It is the lexer that these rules, tried in order at each token, describe:
//
//	Comment    #[^\n]*                          (outside brackets)
//	Hash       #                                (inside brackets, expr-lang's current element)
//	Open       [(\[]                            (one bracket deeper)
//	Close      [)\]]                            (inside brackets: one bracket out)
//	String     "(\\.|[^"\\\n])*"
//	RawString  '(\\.|[^'\\\n])*'
//	Dice       [0-9]*d[0-9]+\b|[0-9]+D[0-9]+\b
//	Float      [0-9]+\.[0-9]+
//	Int        [0-9]+
//	Ident      [A-Za-z_][A-Za-z0-9_]*
//	EOL        [\n;]
//	Op         ==|!=|<=|>=|&&|\|\||\?\?|\?\.|\*\*|\.\.|[-+*/%<>!?|&^.,:=(){}\[\]]
//	Whitespace [ \t\r]+
//
// Outside brackets '#' starts a comment; inside them it is expr-lang's
// current element, as in `filter(units, #.agi > 3)`. Dice are NdS.
// Rulebooks write "2D6", which can be nothing else, so it is dice too; a
// bare "D6" stays a name here (a unit may be called that), and the grammar
// takes it as dice only after "roll". The tests check it against those
// rules, run by participle's regexp lexer, on every file they have and on
// fuzzed text.
var rulesLexer = rulesDefinition{}

type rulesDefinition struct{}

func (rulesDefinition) Symbols() map[string]lexer.TokenType { return maps.Clone(symbols) }

func (d rulesDefinition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.LexString(filename, string(b))
}

func (rulesDefinition) LexString(filename, src string) (lexer.Lexer, error) {
	return &scanner{src: src, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}, nil
}

func (d rulesDefinition) LexBytes(filename string, src []byte) (lexer.Lexer, error) {
	return d.LexString(filename, string(src))
}

type scanner struct {
	src   string
	pos   lexer.Position
	depth int // brackets open
}

func (s *scanner) Next() (lexer.Token, error) {
	rest := s.src[s.pos.Offset:]
	if rest == "" {
		return lexer.EOFToken(s.pos), nil
	}
	typ, n := s.scan(rest)
	if n == 0 {
		return lexer.Token{}, &lexError{pos: s.pos, sample: sample(rest)}
	}
	tok := lexer.Token{Type: typ, Value: rest[:n], Pos: s.pos}
	s.pos.Offset += n
	if rest[0] == '\n' {
		s.pos.Line++
		s.pos.Column = 1
	} else {
		s.pos.Column += utf8.RuneCountInString(tok.Value)
	}
	return tok, nil
}

// lexError is the refusal of text that no token starts. It keeps the
// start of that text, so that what a rule author is told is made from it
// rather than read back out of a message; participle hands it back as it
// is, from a parse as from lexing alone.
type lexError struct {
	pos    lexer.Position
	sample string // the start of the text, as sample cuts it
}

func (e *lexError) Error() string {
	return e.pos.String() + ": " + e.Message()
}

func (e *lexError) Message() string {
	return "lexer: invalid input text " + strconv.Quote(e.sample)
}

func (e *lexError) Position() lexer.Position { return e.pos }

// sample is what a lexical error quotes of the text that no token starts:
// its first 16 characters.
func sample(rest string) string {
	const n = 16
	var out []rune
	for _, r := range rest {
		if len(out) == n {
			return string(out) + "..."
		}
		out = append(out, r)
	}
	return string(out)
}

// scan returns the kind and length of the token that rest starts with, or
// a length of 0 if none does.
func (s *scanner) scan(rest string) (lexer.TokenType, int) {
	c := rest[0]
	switch {
	case c == '#':
		if s.depth > 0 {
			return tokHash, 1
		}
		n := 1
		for n < len(rest) && rest[n] != '\n' {
			n++
		}
		return tokComment, n
	case c == '(' || c == '[':
		s.depth++
		return tokOpen, 1
	case (c == ')' || c == ']') && s.depth > 0:
		s.depth--
		return tokClose, 1
	case c == '"':
		return tokString, quoted(rest)
	case c == '\'':
		return tokRawString, quoted(rest)
	case isDigit(c) || c == 'd':
		if n := dice(rest); n > 0 {
			return tokDice, n
		}
		if c == 'd' {
			return tokIdent, nameLen(rest)
		}
		n := digits(rest, 0)
		if n < len(rest) && rest[n] == '.' {
			if m := digits(rest, n+1); m > n+1 {
				return tokFloat, m
			}
		}
		return tokInt, n
	case isLetter(c):
		return tokIdent, nameLen(rest)
	case c == '\n' || c == ';':
		return tokEOL, 1
	case c == ' ' || c == '\t' || c == '\r':
		n := 1
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t' || rest[n] == '\r') {
			n++
		}
		return tokWhitespace, n
	}
	if len(rest) > 1 {
		switch rest[:2] {
		case "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "**", "..":
			return tokOp, 2
		}
	}
	switch c {
	case '-', '+', '*', '/', '%', '<', '>', '!', '?', '|', '&', '^', '.', ',', ':', '=', '(', ')', '{', '}', '[', ']':
		return tokOp, 1
	}
	return 0, 0
}

// quoted returns the length of the string that rest starts with (its
// opening quote), closing quote and all, or 0 if the line ends first. A
// backslash escapes whatever follows it on the line.
func quoted(rest string) int {
	q := rest[0]
	for i := 1; i < len(rest); i++ {
		switch rest[i] {
		case q:
			return i + 1
		case '\n':
			return 0
		case '\\':
			if i+1 == len(rest) || rest[i+1] == '\n' {
				return 0
			}
			i++ // a character of several bytes goes on byte by byte: none is special
		}
	}
	return 0
}

// dice returns the length of the dice (NdS, or NDS with N given) that rest
// starts with, or 0.
func dice(rest string) int {
	n := digits(rest, 0)
	if n == len(rest) || rest[n] != 'd' && (rest[n] != 'D' || n == 0) {
		return 0
	}
	end := digits(rest, n+1)
	if end == n+1 || end < len(rest) && isWordByte(rest[end]) {
		return 0
	}
	return end
}

// digits returns where the run of digits in s from i ends.
func digits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// nameLen returns the length of the name that rest starts with.
func nameLen(rest string) int {
	n := 1
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	return n
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) }
