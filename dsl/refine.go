package dsl

import (
	"slices"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Participle backtracks out of a statement that fails part-way and then
// reports the enclosing block's "expected }", at the statement's first
// word. refine parses that one statement again on its own, with the
// grammar of the block it is in, to find the real problem.

// one wraps a single statement type so that it can be parsed alone.
type one[T any] struct {
	S T `parser:"EOL* @@"`
}

type memberParser func(filename, src string) error

func member[T any]() memberParser {
	p := participle.MustBuild[one[T]](parserOptions...)
	return func(filename, src string) error {
		_, err := p.ParseString(filename, src, participle.AllowTrailing(true))
		return err
	}
}

type blockGrammar struct {
	what    string // what the block holds
	words   string
	members []memberParser
}

var (
	ruleMembers = []memberParser{member[*SourceStmt](), member[*QuoteStmt](), member[*SidesStmt](), member[*AttrDecl](),
		member[*StatusDecl](), member[*RememberStmt](), member[*PhaseStmt](), member[*ActivationStmt](),
		member[*HandlerStmt](), member[*ExampleStmt]()}
	phaseMembers = []memberParser{member[*StepStmt](), member[*OrderStmt](), member[*ReadyStmt](), member[*HookStmt](),
		member[*QuoteStmt]()}
	critMembers = []memberParser{member[*TieRule](), member[*RollCrit](), member[*ValueCrit](), member[*RandomCrit](),
		member[*RerollCrit](), member[*AwardCrit](), member[*ChoiceCrit](), member[*QuoteStmt]()}
	scenarioMembers = []memberParser{member[*UseRuleset](), member[*QuoteStmt](), member[*PolicyStmt](), member[*SeedStmt](),
		member[*SideSetup](), member[*RoundBlock]()}
	roundMembers = []memberParser{member[*RollScript](), member[*RandomScript](), member[*ChooseScript](), member[*SetScript](),
		member[*StatusScript](), member[*ReadyScript](), member[*RemoveScript](), member[*ActivateScript](), member[*Expect](), member[*QuoteStmt]()}
)

// blocks maps the word that opens a block to its statements' grammar.
var blocks = map[string]blockGrammar{
	"ruleset":  {"a ruleset statement", "source, quote, sides, side attribute, unit attribute, unit status, remember, phase, activation, on, example", ruleMembers},
	"phase":    {"a phase statement", "step, order, ready units, hook, quote", phaseMembers},
	"step":     {"a step statement", "step, order, ready units, hook, quote", phaseMembers},
	"order":    {"a criterion", "highest, lowest, random, tie, award, choice, quote", critMembers},
	"tie":      {"a criterion", "highest, lowest, random, reroll, tie, award, choice, quote", critMembers},
	"on":       {"a handler action", "set, ready, holder =, quote", []memberParser{member[*SetAction](), member[*ReadyAction](), member[*HolderAction](), member[*QuoteStmt]()}},
	"example":  {"a side", "side", []memberParser{member[*SideSetup]()}},
	"side":     {"a unit or an attribute", "unit, NAME = VALUE", []memberParser{member[*UnitSetup](), member[*Assign]()}},
	"scenario": {"a scenario statement", "ruleset, quote, decide by policy, seed, side, round", scenarioMembers},
	"round":    {"a round statement", "roll, random, NAME chooses, set, NAME is, ready, remove, activate, expect, quote", roundMembers},
}

// refine improves d, a parse error, when it is the enclosing block's
// complaint about a statement that went wrong inside.
func refine(d Diagnostic, tokens []lexer.Token, src []byte) Diagnostic {
	if strings.HasPrefix(d.Message, "unexpected end of file (expected \")\")") ||
		strings.HasPrefix(d.Message, "unexpected end of file (expected \"]\")") {
		if open := unclosed(tokens); open != nil {
			return errorAt(open.Pos, "this %q is not closed", open.Value)
		}
	}
	if !strings.Contains(d.Message, `(expected "}")`) {
		return d
	}
	word := tokenAt(tokens, d.Pos.Offset)
	if word == "" {
		return d
	}
	opener, lineStart := blockOpener(tokens, d.Pos.Offset)
	if !lineStart {
		if word == "(" || word == "[" {
			return errorAt(d.Pos, "this %q is not closed, or is closed by the wrong kind of bracket", word)
		}
		return errorAt(d.Pos, "unexpected %q: the statement should end before it", word)
	}
	g, ok := blocks[opener]
	if !ok {
		return d
	}
	// Keep every position true: blank out what comes before the statement.
	text := []byte(string(src))
	for i := 0; i < d.Pos.Offset && i < len(text); i++ {
		if text[i] != '\n' {
			text[i] = ' '
		}
	}
	best := d
	var also []string // what other statements that got as far expected
	for _, parse := range g.members {
		err := parse(d.Pos.Filename, string(text))
		if err == nil {
			continue
		}
		nd := fromParseError(d.Pos.Filename, err)
		switch {
		case nd.Pos.Offset > best.Pos.Offset:
			best, also = nd, nil
		case nd.Pos.Offset == best.Pos.Offset && nd.Pos.Offset > d.Pos.Offset:
			if m := expectedRE.FindStringSubmatch(nd.Message); m != nil {
				also = append(also, m[1])
			}
		}
	}
	if m := expectedRE.FindStringSubmatchIndex(best.Message); m != nil && len(also) > 0 {
		words := []string{best.Message[m[2]:m[3]]}
		for _, a := range also {
			if !slices.Contains(words, a) {
				words = append(words, a)
			}
		}
		best.Message = best.Message[:m[0]] + "(expected " + orList(words) + ")"
	}
	if best.Pos.Offset > d.Pos.Offset {
		return refine(best, tokens, src) // the statement may hold a block that went wrong
	}
	switch word {
	case "ruleset", "scenario":
		return errorAt(d.Pos, "unexpected %q inside a %s block: is a \"}\" missing above?", word, opener)
	case "roll":
		return errorAt(d.Pos, "unknown statement \"roll\": to roll dice, write `highest roll d6` or `lowest roll d6`")
	}
	return errorAt(d.Pos, "unknown statement %q in %s block: expected %s (%s)", word, opener, g.what, g.words)
}

func tokenAt(tokens []lexer.Token, offset int) string {
	for _, t := range tokens {
		if t.Pos.Offset == offset {
			return t.Value
		}
	}
	return ""
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
		case t.Type == tokenType("EOL"):
			atLineStart = true
			continue
		case t.Type == tokenType("Whitespace") || t.Type == tokenType("Comment"):
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
		case t.Type == tokenType("Open"):
			stack = append(stack, i)
		case t.Type == tokenType("Close") && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) == 0 {
		return nil
	}
	return &tokens[stack[0]]
}
