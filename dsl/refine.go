package dsl

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

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
	p := lazyParser[T]()
	return func(filename, src string) error {
		_, err := p().ParseString(filename, src, participle.AllowTrailing(true))
		return err
	}
}

// lazyParser builds the parser of a statement alone when it is first
// needed, which is only after a syntax error: building the forty-odd of
// them when the package started was most of the time a command took to
// check a small file.
func lazyParser[T any]() func() *participle.Parser[one[T]] {
	return sync.OnceValue(func() *participle.Parser[one[T]] { return participle.MustBuild[one[T]](parserOptions...) })
}

type blockGrammar struct {
	what    string // what the block holds
	words   string
	members []memberParser
}

var (
	ruleMembers = []memberParser{member[*SourceStmt](), member[*QuoteStmt](), member[*SidesStmt](), member[*AttrDecl](),
		member[*StatusDecl](), member[*RememberStmt](), member[*PhaseStmt](), member[*ActivationStmt](),
		member[*HandlerStmt](), member[*ExampleStmt](), member[*RandomizerDecl]()}
	phaseMembers = []memberParser{member[*StepStmt](), member[*OrderStmt](), member[*ReadyStmt](), member[*HookStmt](),
		member[*ActivationStmt](), member[*QuoteStmt](), member[*DecideStmt]()}
	critMembers = []memberParser{member[*TieRule](), member[*RollCrit](), member[*DrawCrit](), member[*ValueCrit](), member[*RandomCrit](),
		member[*RerollCrit](), member[*AwardCrit](), member[*ChoiceCrit](), member[*QuoteStmt]()}
	scenarioMembers = []memberParser{member[*UseRuleset](), member[*QuoteStmt](), member[*PolicyStmt](), member[*SeedStmt](),
		member[*SideSetup](), member[*RoundBlock]()}
	roundMembers = []memberParser{member[*RollScript](), member[*DrawScript](), member[*RandomScript](), member[*ChooseScript](), member[*SetScript](),
		member[*StatusScript](), member[*ReadyScript](), member[*RemoveScript](), member[*AddScript](), member[*ActivateScript](), member[*Expect](), member[*QuoteStmt]()}
)

// blocks maps the word that opens a block to its statements' grammar.
var blocks = map[string]blockGrammar{
	"ruleset":  {"a ruleset statement", "source, quote, sides, side attribute, unit attribute, unit status, remember, phase, activation, on, example, die, deck, bag", ruleMembers},
	"phase":    {"a phase statement", "step, order, ready units, hook, activation, quote", phaseMembers},
	"step":     {"a step statement", "step, order, ready units, hook, activation, quote", phaseMembers},
	"order":    {"a criterion", "highest, lowest, random, tie, award, choice, quote", critMembers},
	"tie":      {"a criterion", "highest, lowest, random, reroll, tie, award, choice, quote", critMembers},
	"on":       {"a handler action", "set, ready, holder =, first =, reshuffle, quote", []memberParser{member[*SetAction](), member[*ReadyAction](), member[*HolderAction](), member[*FirstAction](), member[*ReshuffleAction](), member[*QuoteStmt]()}},
	"example":  {"a side", "side", []memberParser{member[*SideSetup]()}},
	"side":     {"a unit or an attribute", "unit, NAME = VALUE", []memberParser{member[*UnitSetup](), member[*Assign]()}},
	"scenario": {"a scenario statement", "ruleset, quote, decide by policy, seed, side, round", scenarioMembers},
	"round":    {"a round statement", "roll, draw, random, NAME chooses, set, NAME is, ready, remove, activate, expect, quote", roundMembers},
}

// shiftPos turns p, a position in text that starts at base, into a
// position in the file.
func shiftPos(p, base Pos) Pos {
	if p.Line == 1 {
		p.Column += base.Column - 1
	}
	p.Line += base.Line - 1
	p.Offset += base.Offset
	return p
}

// refine improves d, a parse error, when it is the enclosing block's
// complaint about a statement that went wrong inside.
func refine(d Diagnostic, tokens []lexer.Token, src []byte) Diagnostic {
	if nd, ok := applyHints(fileEnd, newHintSite(d, tokens, src)); ok {
		return nd
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
		if nd, ok := applyHints(midStatement, newHintSite(d, tokens, src)); ok {
			return nd
		}
		return errorAt(d.Pos, "unexpected %q", word).WithHint("%s", stmtEndHint)
	}
	g, ok := blocks[opener]
	if !ok {
		return d
	}
	// Parse only the statement and what follows it in its declaration: a
	// parse lexes all it is given, and this runs once per member per error.
	end := len(src)
	if _, e, ok := declSpan(tokens, d.Pos.Offset); ok && e > d.Pos.Offset {
		end = e
	}
	end = stmtReach(tokens, d.Pos.Offset, end)
	text := string(src[d.Pos.Offset:end])
	best := d
	var also []string // what other statements that got as far expected
	for _, parse := range g.members {
		err := parse(d.Pos.Filename, text)
		if err == nil {
			continue
		}
		nd := fromParseError(d.Pos.Filename, err)
		nd.Pos = shiftPos(nd.Pos, d.Pos)
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
	// In a round any word can start `NAME chooses ...` or `NAME is ...`, so
	// a statement of another block, such as `seed 3`, fails at its second
	// word instead of being unknown.
	if opener == "round" && strings.Contains(best.Message, `(expected "chooses"`) && best.Pos.Offset > d.Pos.Offset {
		if md, ok := misplaced(d, tokens, opener); ok {
			return md
		}
	}
	// In a side any word can start `NAME = VALUE`, so a lone unknown word
	// fails at the end of its line instead of being unknown.
	if opener == "side" && strings.HasSuffix(best.Message, `(expected "=")`) {
		if j := nextIndex(tokens, tokenIndex(tokens, d.Pos.Offset)); j < 0 || tokens[j].Type == tokEOL || tokens[j].Value == "}" {
			return unknownStatement(d.Pos, word, opener)
		}
	}
	if best.Pos.Offset > d.Pos.Offset {
		return refine(best, tokens, src) // the statement may hold a block that went wrong
	}
	if nd, ok := applyHints(stmtStart, newHintSite(d, tokens, src)); ok {
		return nd
	}
	return unknownStatement(d.Pos, word, opener)
}

// stmtReach returns how far a parse of the statement at offset alone can
// get, at most limit: just past the end of line, ';' or '}' that ends it,
// outside its brackets and blocks. No grammar of a statement takes such a
// token, or any after it, so the text past it cannot change what the parse
// finds; and refine would otherwise lex the rest of the declaration,
// however long, once for each kind of statement, for each error.
func stmtReach(tokens []lexer.Token, offset, limit int) int {
	braces, brackets := 0, 0
	for _, t := range tokens[firstAtOrAfter(tokens, offset):] {
		end := t.Pos.Offset + len(t.Value)
		if end >= limit {
			break
		}
		switch {
		case t.Type == tokOpen:
			brackets++
		case t.Type == tokClose:
			brackets = max(brackets-1, 0)
		case brackets > 0:
		case t.Type == tokOp && t.Value == "{":
			braces++
		case t.Type == tokOp && t.Value == "}":
			if braces--; braces < 0 {
				return end
			}
		case t.Type == tokEOL && braces == 0:
			return end
		}
	}
	return limit
}

// The optional clauses of a side's or unit's line, each parsed alone.
// Participle backtracks out of one left unfinished (`status` with no name
// after it) and blames its first word, as if the statement should have
// ended there; parsing the clause alone finds what is missing.
type (
	teamClause struct {
		Team Name `parser:"'team' @(Ident | String)"`
	}
	countClause struct {
		Count int `parser:"'*' @Int"`
	}
	statusClause struct {
		Status []Name `parser:"'status' @Ident (',' @Ident)*"`
	}
	moreStatus struct {
		Status Name `parser:"',' @Ident"`
	}
)

var (
	sideClauses = map[string]memberParser{"team": member[*teamClause]()}
	unitClauses = map[string]memberParser{"*": member[*countClause](), "status": member[*statusClause](), ",": member[*moreStatus]()}
	assignAlone = member[*Assign]()
)

// clauseError finds the mistake in the clause of a side's or unit's line
// that starts at d, an error that blames the clause's first word.
func clauseError(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 {
		return Diagnostic{}, false
	}
	words := stmtWords(tokens, i)
	if len(words) < 2 {
		return Diagnostic{}, false
	}
	if words[1] == "attribute" || words[1] == "status" {
		return Diagnostic{}, false // a declaration, not a side or unit of a battle
	}
	var parse memberParser
	switch t := tokens[i]; {
	case words[0] == "side":
		parse = sideClauses[t.Value]
	case words[0] == "unit" && (t.Value != "," || slices.Contains(words, "status")):
		parse = unitClauses[t.Value]
	}
	if next := nextIndex(tokens, i); parse == nil && (words[0] == "side" || words[0] == "unit") &&
		tokens[i].Type == tokIdent && next >= 0 && tokens[next].Value == "=" {
		parse = assignAlone
	}
	if parse == nil {
		return Diagnostic{}, false
	}
	// The clause runs to the end of its line, which is taken along so that
	// a name missing at the end of the line is "unexpected end of line".
	var text strings.Builder
	stop := -1
	for _, t := range tokens[i:] {
		text.WriteString(t.Value)
		if t.Type == tokEOL || t.Type == tokOp && (t.Value == "{" || t.Value == "}") {
			stop = t.Pos.Offset
			break
		}
	}
	err := parse(d.Pos.Filename, text.String())
	if err == nil {
		return Diagnostic{}, false
	}
	nd := fromParseError(d.Pos.Filename, err)
	nd.Pos = shiftPos(nd.Pos, d.Pos)
	if nd.Pos.Offset <= d.Pos.Offset {
		return Diagnostic{}, false
	}
	if nd.Pos.Offset == stop {
		nd = atEnd(nd, tokens, stop)
	}
	return explain(nd, tokens), true
}

// bodyError finds the statement that went wrong in a side's block, which
// the "{" at d opens: the block is optional, so participle backtracks out
// of it and blames the "{", as if the side's line should have ended there.
// Each statement of the block is parsed alone, to its end.
func bodyError(d Diagnostic, tokens []lexer.Token, src []byte) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 {
		return Diagnostic{}, false
	}
	if words := stmtWords(tokens, i); len(words) == 0 || words[0] != "side" {
		return Diagnostic{}, false
	}
	stmts, ok := statements(tokens)
	if !ok {
		return Diagnostic{}, false
	}
	level := -1
	for _, st := range stmts {
		if st.start <= d.Pos.Offset {
			continue
		}
		if level < 0 {
			level = st.level
		}
		if st.level < level {
			break // past the block's "}"
		}
		j := tokenIndex(tokens, st.start)
		if st.level > level || j < 0 || st.end > len(src) {
			continue
		}
		var worst *Diagnostic
		for _, parse := range sideItemsAlone {
			err := parse(d.Pos.Filename, string(src[st.start:st.end]))
			if err == nil {
				worst = nil
				break
			}
			nd := fromParseError(d.Pos.Filename, err)
			nd.Pos = shiftPos(nd.Pos, tokens[j].Pos)
			if worst == nil || nd.Pos.Offset > worst.Pos.Offset {
				worst = &nd
			}
		}
		if worst == nil {
			continue
		}
		if worst.Pos.Offset >= st.end {
			// Something is missing at the end of the statement: say so
			// there, as the parse of the whole file would.
			if k := tokenIndex(tokens, st.end); k >= 0 {
				worst.Message = strings.Replace(worst.Message, "end of file", describe(tokens[k]), 1)
			}
			return atEnd(*worst, tokens, st.end), true
		}
		k := tokenIndex(tokens, worst.Pos.Offset)
		if k < 0 {
			return Diagnostic{}, false
		}
		if fixed, ok := unitPunct(tokens, k); ok {
			return errorAt(tokens[k].Pos, "unexpected %q", tokens[k].Value).WithHint("%s", unitPunctHint(fixed)), true
		}
		if !strings.Contains(worst.Message, "(expected end of file)") {
			return explain(*worst, tokens), true
		}
		return refine(errorAt(tokens[k].Pos, "unexpected %s (expected \"}\")", describe(tokens[k])), tokens, src), true
	}
	return Diagnostic{}, false
}

// atEnd puts d, an error at the end of a statement that ends at offset
// end, just after the statement's last token, and not after a comment
// that follows it.
func atEnd(d Diagnostic, tokens []lexer.Token, end int) Diagnostic {
	k := tokenIndex(tokens, end)
	if k < 0 {
		return d
	}
	last := prevToken(tokens, k)
	if last < 0 || tokens[last].Type == tokEOL {
		return d
	}
	t := tokens[last]
	d.Pos = t.Pos
	d.Pos.Offset += len(t.Value)
	d.Pos.Column += utf8.RuneCountInString(t.Value)
	return d
}

// sideItemsAlone parse a statement of a side's block that must end where
// the text given ends.
var sideItemsAlone = []memberParser{strictMember[*UnitSetup](), strictMember[*Assign]()}

func strictMember[T any]() memberParser {
	p := lazyParser[T]()
	return func(filename, src string) error {
		_, err := p().ParseString(filename, src)
		return err
	}
}

// atEscapes moves each error about a string's bad escape to the escape:
// participle reports it before the string, and a long quote can hide it.
// Recovery is done by then: it sets aside statements from where their
// errors were reported, which is at a token.
func atEscapes(tokens []lexer.Token, ds Diagnostics) Diagnostics {
	for k := range ds {
		if !strings.HasPrefix(ds[k].Message, badEscapeMsg) {
			continue
		}
		for i := tokenIndex(tokens, ds[k].Pos.Offset); i >= 0 && i < len(tokens); i++ {
			t := tokens[i]
			if t.Type == tokString {
				if at := badEscape(t.Value); at >= 0 {
					ds[k].Pos = t.Pos
					ds[k].Pos.Offset += at
				}
				break
			}
			if !spacing(t) {
				break
			}
		}
	}
	return ds
}
