package dsl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/alecthomas/participle/v2/lexer"
)

// A syntax error as the grammar reports it names what it did not expect;
// a rule author is helped more by being told what they most likely meant.
// The hint rules below recognise a mistake by the shape of the tokens
// around the error and say so, most of them in a hint apart from the
// message. They are data, in the order they are tried: the first rule of
// a stage that applies decides the diagnostic. Each is exercised by the
// error corpus (testdata/errors), which hints_test.go checks by name.

// hintStage is the point of refining a syntax error at which a rule is
// tried.
type hintStage int

const (
	// fileEnd: any syntax error, first; the rules for the end of the file
	// reached with a bracket or block still open.
	fileEnd hintStage = iota
	// stmtStart: the enclosing block's "expected }" at the first word of
	// a statement that is none of the block's, even parsed alone.
	stmtStart
	// midStatement: the enclosing block's "expected }" at a token that
	// does not start a statement, that is, the statement should have
	// ended before it.
	midStatement
	// explained: any syntax error, once refine has found the statement
	// that went wrong.
	explained
	// explainedToken: as explained, after the rules of explained, for an
	// error at a token, once the error is known not to be an unexpected ":".
	explainedToken
	// finished: every diagnostic of a parse, once recovery is done, with
	// no tokens.
	finished
)

// hintSite is a syntax error and what the rules look at around it.
type hintSite struct {
	d      Diagnostic
	tokens []lexer.Token
	src    []byte // the file's text; nil where a rule has no need of it
	i      int    // the index of the token at d, or -1
	word   string // that token's text, or ""
	// opener is the first word of the line that opened the block around
	// d, once blockOpener has looked for it: it reads the file's tokens
	// up to d, which few rules need.
	opener *string
}

func newHintSite(d Diagnostic, tokens []lexer.Token, src []byte) *hintSite {
	s := &hintSite{d: d, tokens: tokens, src: src, i: tokenIndex(tokens, d.Pos.Offset)}
	if s.i >= 0 {
		s.word = tokens[s.i].Value
	}
	return s
}

// blockOpener is the first word of the line that opened the block around
// s's error.
func (s *hintSite) blockOpener() string {
	if s.opener == nil {
		o, _ := blockOpener(s.tokens, s.d.Pos.Offset)
		s.opener = &o
	}
	return *s.opener
}

// unexpected is the diagnostic at s with message `unexpected "WORD"` and
// the hint given by format and args.
func (s *hintSite) unexpected(format string, args ...any) Diagnostic {
	return errorAt(s.d.Pos, "unexpected %q", s.word).WithHint(format, args...)
}

type hintRule struct {
	name   string
	stages []hintStage // most rules are tried at one stage
	try    func(s *hintSite) (Diagnostic, bool)
}

func atStages(s ...hintStage) []hintStage { return s }

// hintRules are tried stage by stage, each stage's in this order. They
// are set in init, as some refine a statement by parsing it again, which
// comes back to them.
var hintRules []hintRule

func init() { hintRules = allHintRules() }

func allHintRules() []hintRule {
	return []hintRule{
		// fileEnd
		{"bracket-unclosed", atStages(fileEnd), func(s *hintSite) (Diagnostic, bool) {
			if !strings.HasPrefix(s.d.Message, `unexpected end of file (expected ")")`) &&
				!strings.HasPrefix(s.d.Message, `unexpected end of file (expected "]")`) {
				return Diagnostic{}, false
			}
			open := unclosed(s.tokens)
			if open == nil {
				return Diagnostic{}, false
			}
			return errorAt(open.Pos, "this %q is not closed", open.Value), true
		}},
		{"block-unclosed", atStages(fileEnd), func(s *hintSite) (Diagnostic, bool) {
			// Name the block left open, which may be far above.
			if !strings.HasPrefix(s.d.Message, `unexpected end of file (expected "}")`) || s.i >= 0 {
				return Diagnostic{}, false
			}
			end := len(s.src)
			if len(s.tokens) > 0 {
				last := s.tokens[len(s.tokens)-1]
				end = max(end, last.Pos.Offset+len(last.Value))
			}
			open, ok := openingLine(s.tokens, end)
			if !ok {
				return Diagnostic{}, false
			}
			return s.d.WithHint("is the \"}\" of %s (line %d) missing?", blockName(open), open[0].Pos.Line), true
		}},

		// stmtStart
		{"declaration-inside-block", atStages(stmtStart), func(s *hintSite) (Diagnostic, bool) {
			if s.word != "ruleset" && s.word != "scenario" {
				return Diagnostic{}, false
			}
			return errorAt(s.d.Pos, "unexpected %q inside a %s block", s.word, s.blockOpener()).WithHint("is a \"}\" missing above?"), true
		}},
		{"roll-statement", atStages(stmtStart), func(s *hintSite) (Diagnostic, bool) {
			if s.word != "roll" || s.blockOpener() == "scenario" {
				return Diagnostic{}, false
			}
			return errorAt(s.d.Pos, "unknown statement \"roll\"").WithHint("to roll dice, write `highest roll d6` or `lowest roll d6`"), true
		}},
		{"choice-words", atStages(stmtStart), func(s *hintSite) (Diagnostic, bool) {
			// `winner chooses first`: a scenario's words for a choice.
			if s.blockOpener() != "order" && s.blockOpener() != "tie" {
				return Diagnostic{}, false
			}
			j := nextIndex(s.tokens, s.i)
			if j < 0 || !slices.Contains([]string{"chooses", "choose", "picks"}, s.tokens[j].Value) {
				return Diagnostic{}, false
			}
			kind := "first"
			if k := nextIndex(s.tokens, j); k >= 0 && slices.Contains([]string{"order", "first", "before_after"}, s.tokens[k].Value) {
				kind = s.tokens[k].Value
			}
			return errorAt(s.d.Pos, "unknown statement %q", s.word).WithHint("a choice in an order is written `choice %s by %s`", kind, s.word), true
		}},
		{"guard-before-tie", atStages(stmtStart), func(s *hintSite) (Diagnostic, bool) {
			if s.word != "when" && s.word != "if" {
				return Diagnostic{}, false
			}
			fixed, ok := guardFirst(s.tokens, s.i)
			if !ok {
				return Diagnostic{}, false
			}
			return errorAt(s.d.Pos, "unknown statement %q", s.word).WithHint("%s", fixed), true
		}},
		{"misplaced-statement", atStages(stmtStart), func(s *hintSite) (Diagnostic, bool) {
			return misplaced(s.d, s.tokens, s.blockOpener())
		}},

		// midStatement
		{"criterion-called", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			// `random()`: a criterion, not a function.
			if s.word != "(" || s.i <= 0 || !slices.Contains([]string{"random", "reroll"}, s.tokens[s.i-1].Value) {
				return Diagnostic{}, false
			}
			crit := s.tokens[s.i-1].Value
			return s.unexpected("%s is a criterion, not a function: write `%s`", crit, crit), true
		}},
		{"unit-punctuation", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			fixed, ok := unitPunct(s.tokens, s.i)
			if !ok || s.blockOpener() != "side" {
				return Diagnostic{}, false
			}
			return s.unexpected("%s", unitPunctHint(fixed)), true
		}},
		{"bracket-mismatched", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			if s.word != "(" && s.word != "[" {
				return Diagnostic{}, false
			}
			return errorAt(s.d.Pos, "this %q is not closed, or is closed by the wrong kind of bracket", s.word), true
		}},
		{"equals-missing", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			if !missingEquals(s.tokens, s.d.Pos.Offset) {
				return Diagnostic{}, false
			}
			return s.unexpected("%s", equalsHint), true
		}},
		{"side-clause", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			return clauseError(s.d, s.tokens)
		}},
		{"side-body", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			if s.word != "{" {
				return Diagnostic{}, false
			}
			return bodyError(s.d, s.tokens, s.src)
		}},
		{"event-by-name", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			// `expect event KIND by` with no name: the grammar took the by
			// for the end of the statement.
			if s.word != "by" || firstWordBefore(s.tokens, s.d.Pos.Offset) != "expect" {
				return Diagnostic{}, false
			}
			return errorAt(s.d.Pos, "`by` needs the name of who decided or acted, as in `expect event decision Rob by Jay`"), true
		}},
		{"number-exponent", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			// 1e300 lexes as the number 1 and the word e300, and a value in a
			// setup or a scenario is a whole number in digits.
			if s.i <= 0 || !isExponent(s.word) || s.tokens[s.i-1].Type != tokInt && s.tokens[s.i-1].Type != tokFloat {
				return Diagnostic{}, false
			}
			num := s.tokens[s.i-1]
			return errorAt(num.Pos, "%s%s", num.Value, s.word).WithHint("a number here is written in digits, without an exponent (a whole-number attribute holds -2^53 to 2^53, 9007199254740992)"), true
		}},
		{"event-placement-value", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			// `expect event placement Jay =` with no number after it, or a
			// word: the grammar took the = for the end of the statement.
			if s.word != "=" || !inEventExpect(s.tokens, s.d.Pos.Offset) {
				return Diagnostic{}, false
			}
			return errorAt(s.d.Pos, "`=` needs the value a placement was placed by, a number, as in `expect event placement Jay 1 = 6`"), true
		}},
		{"sides-range", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			// `sides 2-4`, `sides 2+`: a range as a rulebook writes it.
			if s.word != "-" && s.word != "+" && s.word != "or" {
				return Diagnostic{}, false
			}
			w, j := stmtWords(s.tokens, s.i), nextIndex(s.tokens, s.i)
			if len(w) != 2 || w[0] != "sides" {
				return Diagnostic{}, false
			}
			switch {
			case s.word == "-" && j >= 0 && s.tokens[j].Type == tokInt:
				return s.unexpected("%s", sidesRange(w[1], s.tokens[j].Value)), true
			case s.word != "-":
				return s.unexpected("%s or more sides is written with two dots: `sides %s..`", w[1], w[1]), true
			}
			return Diagnostic{}, false
		}},
		// Where the comma of `side Jay, Rob` is blamed depends on the line.
		{"side-list", atStages(midStatement, explained), func(s *hintSite) (Diagnostic, bool) { return sideList(s.d, s.tokens) }},
		{"ready-words", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) { return s.fixed(readyWords) }},
		{"status-spaces", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) { return s.fixed(statusSpaces) }},
		{"guard-after-criterion", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) { return s.fixed(guardAfter) }},
		{"commas-missing", atStages(midStatement), func(s *hintSite) (Diagnostic, bool) {
			fixed, colon, ok := missingCommas(s.tokens, s.i)
			switch {
			case !ok:
				return Diagnostic{}, false
			case colon:
				return s.unexpected("is the colon after the phase's name missing? Write `%s`", fixed), true
			}
			return s.unexpected("is a comma missing before it? Write `%s`", fixed), true
		}},

		// explained
		{"scope-words", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return scopeWord(s.d, s.tokens) }},
		{"text-unquoted", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return unquotedText(s.d, s.tokens) }},
		{"order-name", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return orderName(s.d, s.tokens) }},
		{"attribute-type-missing", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return attrWithoutType(s.d, s.tokens) }},
		{"decision-type-missing", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return decideWithoutType(s) }},
		{"name-unquoted", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return unquotedName(s.d, s.tokens) }},
		{"expect-what", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return expectWhat(s.d, s.tokens) }},
		{"guard-colon-missing", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return guardColon(s.d, s.tokens) }},
		{"after-declaration", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return afterDecl(s.d, s.tokens) }},
		{"pass-clause", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return passClause(s.d, s.tokens) }},
		{"guard-word", atStages(explained), func(s *hintSite) (Diagnostic, bool) { return guardWord(s.d, s.tokens) }},
		{"tie-criterion", atStages(explained), func(s *hintSite) (Diagnostic, bool) {
			// After `tie:` the grammar names only the kind of thing missing.
			if !strings.HasSuffix(s.d.Message, "(expected a criterion)") {
				return Diagnostic{}, false
			}
			switch w := s.word; {
			case w == "re" || w == "roll" || w == "rerolls" || w == "re_roll":
				return s.d.WithHint("to roll the tied again, write reroll"), true
			case didYouMean(w, "reroll, award, random, choice, highest, lowest") != "":
				return s.d.WithHint("did you mean %s? (%s)", didYouMean(w, "reroll, award, random, choice, highest, lowest"), tieCriteria), true
			}
			return s.d.WithHint("%s", tieCriteria), true
		}},
		{"script-equals", atStages(explained), func(s *hintSite) (Diagnostic, bool) {
			if !strings.HasPrefix(s.d.Message, `unexpected "="`) || words1(s.tokens, s.d.Pos.Offset) != "roll" {
				return Diagnostic{}, false
			}
			return scriptColon(s.d, s.tokens, "=")
		}},
		{"script-colon", atStages(explained), func(s *hintSite) (Diagnostic, bool) {
			if !strings.HasPrefix(s.d.Message, `unexpected ":"`) {
				return Diagnostic{}, false
			}
			return scriptColon(s.d, s.tokens, ":")
		}},
		{"keyword-colon", atStages(explained), func(s *hintSite) (Diagnostic, bool) {
			// `sides: 2`, `source: "..."`: a statement's first word takes no
			// colon.
			if !strings.HasPrefix(s.d.Message, `unexpected ":"`) || s.i < 0 {
				return Diagnostic{}, false
			}
			words := stmtWords(s.tokens, s.i)
			if len(words) != 1 || words[0] == "tie" || s.tokens[prevToken(s.tokens, s.i)].Type != tokIdent {
				return Diagnostic{}, false
			}
			var rest strings.Builder
			for j := s.i + 1; j < len(s.tokens) && s.tokens[j].Type != tokEOL && s.tokens[j].Type != tokComment && s.tokens[j].Value != "}"; j++ {
				rest.WriteString(s.tokens[j].Value)
			}
			text := strings.TrimSpace(rest.String())
			if (words[0] == "source" || words[0] == "quote") && text != "" && !strings.HasPrefix(text, `"`) {
				// `source: book p12`: its text is quoted too.
				text = strconv.Quote(text)
			}
			return s.unexpected("%s takes no colon: write `%s %s`", words[0], words[0], text), true
		}},
		{"attribute-colon", atStages(explained), func(s *hintSite) (Diagnostic, bool) {
			// `unit Aria agi: 5`: an attribute's value follows "=".
			if !strings.HasPrefix(s.d.Message, `unexpected ":"`) || !strings.Contains(s.d.Message, `(expected "=")`) || s.i <= 0 {
				return Diagnostic{}, false
			}
			j, k := prevToken(s.tokens, s.i), nextIndex(s.tokens, s.i)
			if j < 0 || s.tokens[j].Type != tokIdent || k < 0 || s.tokens[k].Type == tokEOL {
				return Diagnostic{}, false
			}
			return s.unexpected("an attribute is written NAME = VALUE: `%s = %s`", s.tokens[j].Value, s.tokens[k].Value), true
		}},
		{"conditional-colon", atStages(explained), func(s *hintSite) (Diagnostic, bool) {
			if !strings.HasPrefix(s.d.Message, `unexpected ":"`) || !inExpression(s.tokens, s.i) {
				return Diagnostic{}, false
			}
			const conditional = "to use a conditional a ? b : c here, put it in parentheses"
			if s.d.Hint != "" {
				return s.d.WithHint("%s (%s)", s.d.Hint, conditional), true
			}
			return s.d.WithHint("%s", conditional), true
		}},

		// explainedToken
		{"line-broken", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			op, ok := danglingOperator(s.tokens, s.i)
			if !ok {
				return Diagnostic{}, false
			}
			return errorAt(op.Pos, "%s %q", brokenLine, op.Value).WithHint("to go on to the next line, put the whole expression in parentheses"), true
		}},
		{"number-whole", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			// 3.5 is a number to a rule author, and the grammar's "expected a
			// number" means a whole one.
			if s.tokens[s.i].Type != tokFloat || !strings.Contains(s.d.Message, "(expected a number") {
				return Diagnostic{}, false
			}
			return s.unexpected("a number here must be whole (decimals are for expressions)"), true
		}},
		{"compare-equals", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			// An expression ends at "=", so `when round = 1` stops at it.
			if !strings.HasPrefix(s.d.Message, `unexpected "="`) || !inExpression(s.tokens, s.i) {
				return Diagnostic{}, false
			}
			return s.unexpected("to compare, write =="), true
		}},
		{"single-quotes", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			// Single quotes make a string only inside an expression.
			if t := s.tokens[s.i]; t.Type != tokRawString || inExpression(s.tokens, s.i) {
				return Diagnostic{}, false
			}
			return s.d.WithHint("outside an expression, write a name or text in double quotes, as in %q", strings.Trim(s.word, "'")), true
		}},
		{"after-name", atStages(explainedToken), afterNameHint},
		{"face-value", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			// `joker = }`: the value after = is left out or not a number.
			switch s.blockOpener() {
			case "die", "deck", "bag":
			default:
				return Diagnostic{}, false
			}
			switch {
			case s.word == "=":
				return s.unexpected("after = comes the face's or card's value, a whole number, as in crown = 3"), true
			case strings.HasSuffix(s.d.Message, "(expected a number)") && startsFace(s.tokens, s.i):
				// Where a face or card goes: the grammar asks for the
				// number a minus sign may start, but a name does as well.
				return errorAt(s.d.Pos, "unexpected %q (expected a face or card, such as crown, 7 or 1..13)", s.word), true
			}
			return Diagnostic{}, false
		}},
		{"scripted-dice", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			// `roll Jay d6`: a scripted roll gives what the dice showed.
			if s.tokens[s.i].Type != tokDice || lineStart(s.tokens, s.i) != "roll" {
				return Diagnostic{}, false
			}
			return s.unexpected("a scripted roll gives what the dice showed: a number, as in `roll Jay 4`, or a declared die's face"), true
		}},
		{"dice-name", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			// d1 is a unit `unit d * 2` makes, and reads as a die.
			if s.tokens[s.i].Type != tokDice || !strings.Contains(s.d.Message, "a name") && !strings.Contains(s.d.Message, "NAME") {
				return Diagnostic{}, false
			}
			return s.unexpected("a name that reads as dice must be quoted, as in \"%s\"", s.word), true
		}},
		{"brace-next-line", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			if !s.braceExpectedAtEOL() {
				return Diagnostic{}, false
			}
			if next := nextToken(s.tokens, s.tokens[s.i].Pos.Offset+1); next == nil || next.Type != tokOp || next.Value != "{" {
				return s.d, true
			}
			return errorAt(s.d.Pos, "unexpected end of line").WithHint(`the "{" must be on the same line, not the next`), true
		}},
		{"scope-broken", atStages(explainedToken), func(s *hintSite) (Diagnostic, bool) {
			if strings.HasSuffix(s.d.Message, `(expected "=")`) || s.braceExpectedAtEOL() {
				return Diagnostic{}, false // the error of a rule above, whether or not it had a hint
			}
			return scopeError(s.tokens, s.i)
		}},

		// finished
		{"expected-word-typo", atStages(finished), func(s *hintSite) (Diagnostic, bool) {
			if s.d.Hint != "" {
				return Diagnostic{}, false
			}
			if meant := meantOfExpected(s.d.Message); meant != "" {
				return s.d.WithHint("%s", meant), true
			}
			return Diagnostic{}, false
		}},
	}
}

// braceExpectedAtEOL reports whether s is an end of line where a "{" was
// expected.
func (s *hintSite) braceExpectedAtEOL() bool {
	return s.tokens[s.i].Type == tokEOL && strings.HasPrefix(s.d.Message, "unexpected end of line (expected") &&
		strings.Contains(s.d.Message, `"{"`)
}

// equalsHint says how an attribute is written when its "=" is missing.
const equalsHint = "an attribute is written NAME = VALUE (is the = missing?)"

// unitPunctHint says how a unit's line is written without the commas or
// brackets it was given: fixed.
func unitPunctHint(fixed string) string {
	return fmt.Sprintf("a unit's attributes follow its name, separated by spaces, without commas or brackets: write `%s`", fixed)
}

// fixed applies explain, a rule that says how the statement around the
// token at s is written, as the hint of `unexpected "WORD"`.
func (s *hintSite) fixed(explain func([]lexer.Token, int) (string, bool)) (Diagnostic, bool) {
	fix, ok := explain(s.tokens, s.i)
	if !ok {
		return Diagnostic{}, false
	}
	return s.unexpected("%s", fix), true
}

// afterNameHint explains `side Rob oops {`, where the grammar expected the
// "=" of an attribute: a bare word after a side's or unit's name reads as
// an attribute whose "=" is missing. It blames the word. Once the grammar
// says it expected "=" no later rule applies, with a hint or without.
func afterNameHint(s *hintSite) (Diagnostic, bool) {
	d, tokens, i := s.d, s.tokens, s.i
	if !strings.HasSuffix(d.Message, `(expected "=")`) {
		return Diagnostic{}, false
	}
	words := stmtWords(tokens, i)
	j := prevToken(tokens, i)
	if j < 0 || tokens[j].Type != tokIdent {
		return d, true
	}
	if opener, _ := blockOpener(tokens, d.Pos.Offset); opener == "side" && len(words) == 1 {
		return unknownStatement(tokens[j].Pos, words[0], opener), true // a lone word, read as NAME = VALUE
	}
	if len(words) < 3 || (words[0] != "side" && words[0] != "unit") {
		return d, true
	}
	if x := tokens[j].Value; (x == "x" || x == "X") && len(words) == 3 && words[0] == "unit" && tokens[i].Type == tokInt {
		// `unit md x 6`: the count as a rulebook writes it.
		return errorAt(tokens[j].Pos, "unexpected %q", x).WithHint("a count of units is written with *: `unit %s * %s`", words[1], tokens[i].Value), true
	}
	if missingEquals(tokens, tokens[j].Pos.Offset) {
		return errorAt(tokens[j].Pos, "unexpected %q", tokens[j].Value).WithHint("%s", equalsHint), true
	}
	if cd, ok := clauseError(errorAt(tokens[j].Pos, "%s", d.Message), tokens); ok {
		return cd, true
	}
	after := "`team NAME` and attributes written NAME = VALUE"
	if words[0] == "unit" {
		after = "attributes written NAME = VALUE, then `status NAME, ...`"
	}
	return errorAt(tokens[j].Pos, "unexpected %q", tokens[j].Value).WithHint("after a %s's name come %s", words[0], after), true
}

// applyHints tries the rules of stage on s in order, and returns what the
// first that applies makes of the error.
func applyHints(stage hintStage, s *hintSite) (Diagnostic, bool) {
	for _, r := range hintRules {
		if !slices.Contains(r.stages, stage) {
			continue
		}
		if d, ok := r.try(s); ok {
			if d != s.d {
				noteHint(r.name)
			}
			return d, true
		}
	}
	return Diagnostic{}, false
}

// hintObserver, when a test sets it, is told the name of each hint rule
// that changed a diagnostic, so that the error corpus can be checked to
// exercise every rule.
var hintObserver atomic.Pointer[func(name string)]

func noteHint(name string) {
	if f := hintObserver.Load(); f != nil {
		(*f)(name)
	}
}

// lineStart returns the first word of the line of tokens[i].
func lineStart(tokens []lexer.Token, i int) string {
	first := ""
	for k := i; k >= 0 && tokens[k].Type != tokEOL; k-- {
		switch tokens[k].Type {
		case tokWhitespace, tokComment:
		default:
			first = tokens[k].Value
		}
	}
	return first
}

// startsFace reports whether tokens[i] is where an entry of a die's, deck's
// or bag's contents starts: after its "{" or a comma (and the ends of line
// after them).
func startsFace(tokens []lexer.Token, i int) bool {
	p := prevToken(tokens, i)
	for p >= 0 && tokens[p].Type == tokEOL {
		p = prevToken(tokens, p)
	}
	return p >= 0 && (tokens[p].Value == "{" || tokens[p].Value == ",")
}
