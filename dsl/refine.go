package dsl

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
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
		if strings.HasPrefix(d.Message, "unexpected end of file") {
			// Name the block left open, which may be far above.
			end := len(src)
			if len(tokens) > 0 {
				last := tokens[len(tokens)-1]
				end = max(end, last.Pos.Offset+len(last.Value))
			}
			if open, ok := openingLine(tokens, end); ok {
				d.Hint = fmt.Sprintf("is the \"}\" of %s (line %d) missing?", blockName(open), open[0].Pos.Line)
			}
		}
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
	switch {
	case word == "ruleset" || word == "scenario":
		return errorAt(d.Pos, "unexpected %q inside a %s block", word, opener).WithHint("is a \"}\" missing above?")
	case word == "roll" && opener != "scenario":
		return errorAt(d.Pos, "unknown statement \"roll\"").WithHint("to roll dice, write `highest roll d6` or `lowest roll d6`")
	}
	if i := tokenIndex(tokens, d.Pos.Offset); opener == "order" || opener == "tie" {
		// `winner chooses first`: a scenario's words for a choice.
		if j := nextIndex(tokens, i); j >= 0 && slices.Contains([]string{"chooses", "choose", "picks"}, tokens[j].Value) {
			kind := "first"
			if k := nextIndex(tokens, j); k >= 0 && slices.Contains([]string{"order", "first", "before_after"}, tokens[k].Value) {
				kind = tokens[k].Value
			}
			return errorAt(d.Pos, "unknown statement %q", word).WithHint("a choice in an order is written `choice %s by %s`", kind, word)
		}
	}
	if word == "when" || word == "if" {
		if fixed, ok := guardFirst(tokens, tokenIndex(tokens, d.Pos.Offset)); ok {
			return errorAt(d.Pos, "unknown statement %q", word).WithHint("%s", fixed)
		}
	}
	if md, ok := misplaced(d, tokens, opener); ok {
		return md
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

// sidesRange says how to write `sides lo - hi`, a range as a rulebook
// writes it. The numbers as written make the suggestion only when they are
// a range the compiler accepts: `sides 2 - 1` is not turned into the
// backwards `sides 2..1`, which would only trade this error for another.
func sidesRange(lo, hi string) string {
	const what = "a range of sides is written with two dots, the fewest first, as in `sides 2..4` (2 to 4 sides) or `sides 2..` (2 or more)"
	l, errL := strconv.Atoi(lo)
	h, errH := strconv.Atoi(hi)
	switch {
	case errL != nil || errH != nil || l < 1 || h < l:
		return what
	case l == h:
		return fmt.Sprintf("exactly %d sides is written `sides %d`; %s", l, l, what)
	}
	return fmt.Sprintf("a range of sides is written with two dots: `sides %d..%d`", l, h)
}

// unitPunct reports, for a comma or bracket at tokens[i] in a unit's line
// before its statuses (`unit Aria, agi = 5`, `unit Aria (agi = 5)`), the
// line as it is written: `unit Aria agi = 5`.
func unitPunct(tokens []lexer.Token, i int) (string, bool) {
	if i < 0 || !slices.Contains([]string{",", "(", "["}, tokens[i].Value) {
		return "", false
	}
	w := stmtWords(tokens, i)
	if len(w) < 2 || w[0] != "unit" || slices.Contains(w, "status") {
		return "", false
	}
	var b strings.Builder
	for j := i - 1; j >= 0 && tokens[j].Type != tokEOL && tokens[j].Value != "{"; j-- {
		i = j // the line's first token
	}
	for j := i; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Type != tokComment && tokens[j].Value != "}"; j++ {
		switch t := tokens[j]; {
		case t.Value == "status":
			// Its names are a list, with commas of their own.
			for ; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Type != tokComment && tokens[j].Value != "}"; j++ {
				b.WriteString(tokens[j].Value)
			}
			return strings.Join(strings.Fields(b.String()), " "), true
		case t.Value == "," || t.Value == "(" || t.Value == ")" || t.Value == "[" || t.Value == "]":
			b.WriteString(" ")
		default:
			b.WriteString(t.Value)
		}
	}
	return strings.Join(strings.Fields(b.String()), " "), true
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

// missingCommas reads the statement around tokens[i], where a list of a
// round (`roll Jay 4 Rob 2`, `expect order Jay Rob`) went on without its
// comma, and returns it written with its commas.
func missingCommas(tokens []lexer.Token, i int) (string, bool) {
	if i < 0 {
		return "", false
	}
	words := stmtWords(tokens, i)
	start := 0 // how many words come before the list
	switch {
	case len(words) >= 2 && (words[0] == "roll" || words[0] == "random"):
		start = 1
	case len(words) >= 3 && words[0] == "expect" && slices.Contains([]string{"order", "activations", "ready"}, words[1]):
		start = 2
	case len(words) >= 3 && words[1] == "chooses":
		start = 2
	default:
		return "", false
	}
	name := func(t lexer.Token) bool { return t.Type == tokIdent || t.Type == tokString }
	if !name(tokens[i]) {
		return "", false
	}
	var out []string
	for j := i - 1; j >= 0 && tokens[j].Type != tokEOL && tokens[j].Value != "{"; j-- {
		if !spacing(tokens[j]) {
			out = append(out, tokens[j].Value)
		}
	}
	slices.Reverse(out)
	prev := out[len(out)-1]
	for j := i; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Value != "}"; j++ {
		t := tokens[j]
		if spacing(t) {
			continue
		}
		// An item ends at a roll's number, or at a name but for pass.
		ended := len(out) > start && prev != "," && prev != "pass" &&
			(words[0] == "roll") == (len(prev) > 0 && prev[0] >= '0' && prev[0] <= '9')
		if name(t) && ended {
			out[len(out)-1] += ","
		}
		out = append(out, t.Value)
		prev = t.Value
	}
	return strings.Join(out, " "), true
}

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

// missingEquals reports whether the token at offset is a name followed by a
// value in a side's or unit's statement, as in `unit u2 agi 3`.
func missingEquals(tokens []lexer.Token, offset int) bool {
	i := tokenIndex(tokens, offset)
	if i < 0 || tokens[i].Type != tokIdent {
		return false
	}
	if words := stmtWords(tokens, i); len(words) == 0 || words[0] != "side" && words[0] != "unit" || slices.Contains(words, "status") {
		return false // statuses are names alone
	}
	j := nextIndex(tokens, i)
	return j >= 0 && slices.Contains([]lexer.TokenType{tokInt, tokFloat, tokString, tokIdent}, tokens[j].Type)
}

func unknownStatement(pos Pos, word, opener string) Diagnostic {
	g := blocks[opener]
	if (word == "attribute" || word == "status") && opener == "ruleset" {
		// Whose it is comes first: `unit attribute agi int`.
		if word == "status" {
			return errorAt(pos, "unknown statement \"status\" in ruleset block").WithHint("a status belongs to units: write `unit status NAME`")
		}
		return errorAt(pos, "unknown statement \"attribute\" in ruleset block").WithHint("say whose it is: `unit attribute NAME TYPE` or `side attribute NAME TYPE`")
	}
	if s := didYouMean(word, g.words); s != "" {
		return errorAt(pos, "unknown statement %q in %s block (did you mean %s?): expected %s (%s)", word, opener, s, g.what, g.words)
	}
	return errorAt(pos, "unknown statement %q in %s block: expected %s (%s)", word, opener, g.what, g.words)
}

// didYouMean is the word W when word is most likely a typo of it,
// a word that starts one of the statements listed in words (as blocks
// lists them, "highest, lowest, ready units, NAME = VALUE"), or else of a
// statement of any block, which then says where that statement belongs;
// "" when it is not.
func didYouMean(word, words string) string {
	// A statement of one word first, so that "sidez" is sides, not the
	// side of `side attribute`; then the first words of all.
	starts := func(words string, whole bool) []string {
		var ws []string
		for _, w := range strings.Split(words, ", ") {
			first, _, more := strings.Cut(w, " ")
			if first != "NAME" && !(whole && more) && !slices.Contains(ws, first) {
				ws = append(ws, first)
			}
		}
		return ws
	}
	var all []string
	for _, g := range blocks {
		all = append(all, g.words)
	}
	slices.Sort(all)
	s := ""
	for _, ws := range []string{words, strings.Join(all, ", ")} {
		for _, whole := range []bool{true, false} {
			if s == "" {
				s = Suggest(word, starts(ws, whole))
			}
		}
	}
	if s == word {
		return ""
	}
	return s
}

// place is where a statement belongs: the blocks (by the word that opens
// them, as in blocks) that may hold it, described for a rule author.
type place struct {
	in    []string
	where string
}

var (
	inRuleset  = place{[]string{"ruleset"}, "directly inside a ruleset"}
	inPhase    = place{[]string{"phase", "step"}, "inside a phase or step"}
	inOrder    = place{[]string{"order", "tie"}, "inside an order"}
	inScenario = place{[]string{"scenario"}, "directly inside a scenario"}
	inRound    = place{[]string{"round"}, "inside a scenario round"}
)

// homes says where the statements that a word starts belong, so that a
// known statement in the wrong block is not called unknown. A word that
// starts statements in several blocks is told apart by its second word in
// homeOf.
var homes = map[string]place{
	"source": inRuleset, "sides": inRuleset, "remember": inRuleset, "phase": inRuleset,
	"activation": inRuleset, "on": inRuleset, "example": inRuleset,
	"step": inPhase, "order": inPhase, "hook": inPhase,
	"highest": inOrder, "lowest": inOrder, "award": inOrder, "choice": inOrder, "tie": inOrder,
	"random": {[]string{"order", "tie", "round"}, "inside an order"},
	"reroll": {[]string{"order", "tie"}, "inside a tie rule"},
	"set":    {[]string{"on", "round"}, "inside an `on` rule or a scenario round"},
	"holder": {[]string{"on"}, "inside an `on` rule"},
	"seed":   inScenario, "decide": inScenario, "round": inScenario,
	"roll": inRound, "activate": inRound, "expect": inRound, "remove": inRound,
}

// blockPlace describes each block, after "not".
var blockPlace = map[string]string{
	"ruleset": "directly in a ruleset", "phase": "in a phase", "step": "in a step", "order": "in an order",
	"tie": "in a tie rule", "on": "in an `on` rule", "example": "in an example block", "side": "in a side",
	"scenario": "directly in a scenario", "round": "in a scenario round",
}

// misplaced says where the statement at d belongs, if it is a known
// statement of another kind of block than opener's.
func misplaced(d Diagnostic, tokens []lexer.Token, opener string) (Diagnostic, bool) {
	stmt, p, ok := homeOf(tokens, d.Pos.Offset)
	if !ok || slices.Contains(p.in, opener) {
		return Diagnostic{}, false
	}
	md := errorAt(d.Pos, "`%s` belongs %s, not %s", stmt, p.where, blockPlace[opener])
	if stmt == "sides" && (opener == "scenario" || opener == "example") {
		md.Message += "; here, name each side on its own line: `side A`"
	}
	if open, ok := openingLine(tokens, d.Pos.Offset); ok && !balanced(tokens) && d.Pos.Column <= open[0].Pos.Column {
		// Braces are missing, and the statement is indented as if the
		// block it lands in were closed: most likely its "}" is missing.
		md.Hint = fmt.Sprintf("is the \"}\" of %s (line %d) missing above it?", blockName(open), open[0].Pos.Line)
	} else if line, ok := extraBrace(tokens, d.Pos.Offset); ok {
		// A "}" too many above closed the block it belongs in early.
		md.Hint = fmt.Sprintf("is a \"}\" on line %d one too many?", line)
	}
	return md, true
}

// extraBrace reports, when the file has more "}" than "{", the line of the
// last "}" before offset that shares its line with another "}" (`}}`), the
// likeliest one too many.
func extraBrace(tokens []lexer.Token, offset int) (int, bool) {
	depth, line, prevClose := 0, 0, -1
	for _, t := range tokens {
		switch t.Value {
		case "{":
			depth++
		case "}":
			depth--
			if t.Pos.Offset < offset && prevClose == t.Pos.Line {
				line = t.Pos.Line
			}
			prevClose = t.Pos.Line
		}
	}
	return line, depth < 0 && line > 0
}

// blockName names a block by the first words of its opening line, as an
// author would: `phase p`, `step "Roll"`, `order sides as o`, `tie`.
func blockName(line []lexer.Token) string {
	n := 1
	switch line[0].Value {
	case "order":
		n = 4
	case "ruleset", "scenario", "phase", "step", "side", "round":
		n = 2
	}
	words := []string{}
	for i, t := range line[:min(n, len(line))] {
		if i > 0 && t.Type != tokIdent && t.Type != tokString && t.Type != tokInt {
			break
		}
		words = append(words, t.Value)
	}
	return strings.Join(words, " ")
}

// openingLine returns the first words of the line that opened the
// block whose "}" is most likely missing before offset (`phase p`): the
// first block closed by a "}" on a line of its own indented less than the
// block's opening line (a "}" that must belong to an enclosing block), or
// else the innermost block still open at offset.
func openingLine(tokens []lexer.Token, offset int) ([]lexer.Token, bool) {
	var stack [][]lexer.Token
	var line, suspect []lexer.Token
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
		first := atLineStart
		if atLineStart {
			line = nil
			atLineStart = false
		}
		if len(line) < 4 {
			line = append(line, t)
		}
		switch t.Value {
		case "{":
			stack = append(stack, line)
			atLineStart = true // a statement may follow on the same line
		case "}":
			if len(stack) > 0 {
				if top := stack[len(stack)-1]; first && suspect == nil && t.Pos.Column < top[0].Pos.Column {
					suspect = top
				}
				stack = stack[:len(stack)-1]
			}
		}
	}
	if suspect != nil {
		return suspect, true
	}
	if len(stack) == 0 {
		return nil, false
	}
	return stack[len(stack)-1], true
}

// homeOf returns the statement starting at offset as a rule author would
// name it (its first word, or two), and where it belongs.
func homeOf(tokens []lexer.Token, offset int) (stmt string, p place, ok bool) {
	words := lineWords(tokens, offset, 2)
	if len(words) == 0 {
		return "", place{}, false
	}
	second := ""
	if len(words) > 1 {
		second = words[1]
	}
	switch first := words[0]; {
	case first == "ready" && second == "units":
		return "ready units", inPhase, true
	case first == "ready":
		return "ready", place{[]string{"on", "round"}, "inside an `on` rule or a scenario round"}, true
	case (first == "unit" || first == "side") && second == "attribute", first == "unit" && second == "status":
		return first + " " + second, inRuleset, true
	case first == "unit":
		return "unit", place{[]string{"side"}, "inside a side's { }"}, true
	case first == "side":
		return "side", place{[]string{"example", "scenario"}, "inside an example block or a scenario"}, true
	}
	p, ok = homes[words[0]]
	return words[0], p, ok
}

// lineWords returns up to n token values from offset to the end of its
// statement, skipping whitespace and comments.
func lineWords(tokens []lexer.Token, offset, n int) []string {
	var out []string
	for _, t := range tokens {
		if t.Pos.Offset < offset {
			continue
		}
		if spacing(t) {
			continue
		}
		if t.Type == tokEOL {
			return out
		}
		if out = append(out, t.Value); len(out) == n {
			break
		}
	}
	return out
}

// firstWordBefore returns the first word of the statement holding the
// token at offset: the first after the last end of line or brace before it.
func firstWordBefore(tokens []lexer.Token, offset int) string {
	first := ""
	for _, t := range tokens {
		switch {
		case t.Pos.Offset >= offset:
			return first
		case t.Type == tokEOL || t.Value == "{" || t.Value == "}":
			first = ""
		case !spacing(t) && first == "":
			first = t.Value
		}
	}
	return first
}

// isExponent reports whether word is what follows the digits of a number
// written with an exponent (the e300 of 1e300), which the lexer takes for
// a word.
func isExponent(word string) bool {
	digits, ok := strings.CutPrefix(strings.ToLower(word), "e")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// inEventExpect reports whether offset is in an `expect [no] event`
// statement.
func inEventExpect(tokens []lexer.Token, offset int) bool {
	var words []string
	for _, t := range tokens {
		switch {
		case t.Pos.Offset >= offset:
			return len(words) >= 2 && words[0] == "expect" &&
				(words[1] == "event" || words[1] == "no" && len(words) >= 3 && words[2] == "event")
		case t.Type == tokEOL || t.Value == "{" || t.Value == "}":
			words = words[:0]
		case !spacing(t):
			words = append(words, t.Value)
		}
	}
	return false
}

// scopeHelp says what a scope can be.
const scopeHelp = "a scope is `each round`, `once` or `until changed NAME, ...`"

// stmtEndHint is the hint of an error at a token that the statement
// should have ended before, when no hint rule knows better.
const stmtEndHint = "the statement should end before it"

// explain adds to a parse error what the rule author most likely meant,
// where the grammar alone gives a misleading message: the hint rules of
// the stages explained and explainedToken, in hints.go.
func explain(d Diagnostic, tokens []lexer.Token) Diagnostic {
	if strings.HasPrefix(d.Message, badEscapeMsg) {
		return d // placed at the escape by atEscapes
	}
	s := newHintSite(d, tokens, nil)
	if nd, ok := applyHints(explained, s); ok {
		return nd
	}
	if strings.HasPrefix(d.Message, `unexpected ":"`) || s.i < 0 {
		return d
	}
	if nd, ok := applyHints(explainedToken, s); ok {
		return nd
	}
	return d
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

// attrWithoutType words `unit attribute movement = 4`: the type left out.
func attrWithoutType(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || tokens[i].Value != "=" || !strings.HasSuffix(d.Message, "(expected a name)") {
		return d, false
	}
	w := stmtWords(tokens, i)
	if len(w) != 3 || w[0] != "unit" && w[0] != "side" || w[1] != "attribute" {
		return d, false
	}
	var value strings.Builder
	var vals []lexer.Token
	for j := i + 1; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Type != tokComment; j++ {
		value.WriteString(tokens[j].Value)
		if tokens[j].Type != tokWhitespace {
			vals = append(vals, tokens[j])
		}
	}
	if !literalTokens(vals) {
		// `= 3 + 1`: a default is a value as written, and
		// pasting the sum back in would fail again.
		value.Reset()
		value.WriteString("VALUE")
	}
	typ := "int"
	switch v := strings.TrimSpace(value.String()); {
	case v == "true" || v == "false":
		typ = "bool"
	case strings.HasPrefix(v, `"`):
		typ = "string"
	}
	return errorAt(d.Pos, "unexpected \"=\"").WithHint("an attribute has a type, int, bool or string, before its value: `%s attribute %s %s = %s`", w[0], w[2], typ, strings.TrimSpace(value.String())), true
}

// innerWords start statements that belong inside a declaration's block.
var innerWords = []string{"source", "quote", "sides", "unit", "remember", "phase", "activation", "on", "example",
	"step", "order", "ready", "hook", "highest", "lowest", "random", "reroll", "tie", "award", "choice",
	"round", "roll", "expect", "seed", "decide", "set", "activate", "remove"}

// afterDecl explains d, a syntax error at the top level of the file just
// after a declaration ended, when what it blames belongs inside one: a
// "}" one too many above closed the declaration early.
func afterDecl(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || !strings.HasPrefix(d.Message, "unexpected ") {
		return d, false
	}
	word := tokens[i].Value
	if word != "}" && (tokens[i].Type != tokIdent || !slices.Contains(innerWords, word)) {
		return d, false
	}
	depth, start, closed := 0, -1, -1
	var decl string
	for j := range i {
		t := tokens[j]
		switch {
		case spacing(t) || t.Type == tokEOL:
		case t.Type == tokOp && t.Value == "{":
			depth++
		case t.Type == tokOp && t.Value == "}":
			depth--
			if depth == 0 && start >= 0 {
				closed = j
				decl = tokens[start].Value
				if k := nextIndex(tokens, start); k >= 0 && tokens[k].Value != "{" {
					decl += " " + tokens[k].Value
				}
				start = -1
			}
		case depth == 0 && start < 0:
			start = j
		}
	}
	if depth != 0 || closed < 0 || start >= 0 {
		return d, false // not just after a declaration
	}
	line := tokens[closed].Pos.Line
	if word == "}" {
		return errorAt(d.Pos, "unexpected \"}\"").WithHint("%s already ended with the \"}\" on line %d, so this one, or one above, is one too many", decl, line), true
	}
	return errorAt(d.Pos, "unexpected %q after the end of %s (the \"}\" on line %d)", word, decl, line).WithHint("is a \"}\" above that one too many?"), true
}

// tieCriteria says what a tie rule's criterion can be.
const tieCriteria = "write reroll, award EXPR, random, choice ..., highest ... or lowest ..."

// expectWords are the words that can follow expect in a round.
const expectWords = "order, holder, chooser, activations, ready, standing, event, no event or error"

// expectWhat explains d when it blames the word after a round's expect,
// which the grammar reads as a side's name (`NAME chooses`, `NAME is`):
// `expect holdr Jay` is told what can be expected, and the likeliest.
func expectWhat(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || !strings.Contains(d.Message, `(expected "chooses", "is" or "event")`) && !strings.Contains(d.Message, `(expected "event")`) {
		return d, false
	}
	if words := stmtWords(tokens, i); len(words) != 1 || words[0] != "expect" {
		return d, false
	}
	t := tokens[i]
	if t.Type == tokIdent {
		if s := Suggest(t.Value, strings.Split(strings.NewReplacer(" or ", ", ").Replace(expectWords), ", ")); s != "" {
			return errorAt(d.Pos, "unexpected %s after expect (did you mean %s?)", describe(t), s).WithHint("write expect %s", expectWords), true
		}
	}
	return errorAt(d.Pos, "unexpected %s after expect", describe(t)).WithHint("write expect %s", expectWords), true
}

// sideList explains d when it blames the comma of sides listed on one
// line, `side Jay, Rob {`, in a setup file (where the grammar gives no
// hint of what it expected), an example block or a scenario: each side is
// a statement of its own, with its own attributes and units.
func sideList(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || tokens[i].Value != "," || !strings.HasPrefix(d.Message, `unexpected ","`) {
		return d, false
	}
	if w := stmtWords(tokens, i); len(w) != 2 || w[0] != "side" {
		return d, false
	}
	names := []string{tokens[prevToken(tokens, i)].Value}
	block := false
	for j := i; j >= 0 && j < len(tokens) && tokens[j].Value == ","; {
		n := nextIndex(tokens, j)
		if n < 0 || tokens[n].Type != tokIdent && tokens[n].Type != tokString {
			return d, false
		}
		names = append(names, tokens[n].Value)
		j = nextIndex(tokens, n)
		block = j >= 0 && tokens[j].Value == "{"
	}
	lines := make([]string, len(names))
	for k, n := range names {
		lines[k] = "`side " + n + "`"
		if block {
			// Their units cannot be shared: unit names are unique.
			lines[k] = "`side " + n + " { ... }`"
		}
	}
	list := strings.Join(lines[:len(lines)-1], ", ") + ", then " + lines[len(lines)-1]
	return errorAt(d.Pos, "unexpected \",\"").WithHint("name each side on its own line: %s", list), true
}

// guardColon explains d when a tie rule's guard ran on to the end of its
// line for want of the ":" before its criterion, `tie when round == 1
// reroll`: the guard reads the criterion as more of its expression.
func guardColon(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	if !strings.Contains(d.Message, `(expected ":" or "{")`) {
		return d, false
	}
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 {
		return d, false
	}
	// The statement's tokens, from its first word to where d is.
	start := i
	for start > 0 && tokens[start-1].Type != tokEOL && tokens[start-1].Value != "{" && tokens[start-1].Value != "}" && tokens[start-1].Value != ";" {
		start--
	}
	words := stmtWords(tokens, i)
	if len(words) < 4 || words[0] != "tie" || words[1] != "when" {
		return d, false
	}
	depth, seen := 0, 0
	for j := start; j < i; j++ {
		t := tokens[j]
		switch {
		case spacing(t):
			continue
		case t.Value == "(" || t.Value == "[":
			depth++
		case t.Value == ")" || t.Value == "]":
			depth--
		}
		seen++
		if seen <= 3 || depth != 0 || t.Type != tokIdent {
			continue // tie, when, and the guard's first word
		}
		switch t.Value {
		case "reroll", "random", "award", "highest", "lowest", "choice":
		default:
			continue
		}
		var guard, rest strings.Builder
		for k := start; k < i; k++ {
			switch {
			case spacing(tokens[k]) && (guard.Len() == 0 || tokens[k].Type == tokComment):
			case k < j:
				guard.WriteString(tokens[k].Value)
			default:
				rest.WriteString(tokens[k].Value)
			}
		}
		fixed := strings.TrimRight(guard.String(), " \t") + ": " + strings.TrimSpace(rest.String())
		return errorAt(t.Pos, "is a \":\" missing before %s? The guard of a tie rule ends with a \":\"", t.Value).WithHint("write `%s`", fixed), true
	}
	return d, false
}

// unquotedName explains d when it blames the second word of a name that
// needs quotes, `side Malleus Deus {` or `side Goliath-Gang`: the grammar
// takes a name's first word only, and what follows reads as a stray word.
func unquotedName(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 {
		return d, false
	}
	blamed := fmt.Sprintf("unexpected %q", tokens[i].Value)
	rest, ok := strings.CutPrefix(d.Message, blamed)
	switch {
	case !ok:
		return d, false
	case d.Hint != "" && d.Hint != stmtEndHint:
		return d, false // a hint that already says what is wrong
	case strings.HasPrefix(rest, " (expected") && !strings.Contains(rest, "):"):
		blamed += rest
	case rest != "":
		return d, false
	}
	words := stmtWords(tokens, i)
	// A special rule names a phase or step too: `on end of step Roll For
	// Priority {`.
	named := len(words) >= 4 && words[0] == "on" && (words[len(words)-2] == "step" || words[len(words)-2] == "phase")
	if !named && (len(words) != 2 || !slices.Contains([]string{"ruleset", "side", "unit", "phase", "step"}, words[0])) {
		return d, false
	}
	first := prevToken(tokens, i)
	if tokens[first].Type != tokIdent {
		return d, false
	}
	// The name runs on over words and numbers to what may follow it, and
	// over a "-" with no space either side.
	glued := func(a, b lexer.Token) bool { return a.Pos.Offset+len(a.Value) == b.Pos.Offset }
	part := func(t lexer.Token) bool {
		return t.Type == tokIdent && !slices.Contains(afterName, t.Value) && !(named && t.Value == "when") || t.Type == tokInt
	}
	last, spaced := first, false
	for n := nextIndex(tokens, last); n >= 0; n = nextIndex(tokens, last) {
		t := tokens[n]
		if m := nextIndex(tokens, n); t.Value == "-" && glued(tokens[last], t) && m >= 0 && glued(t, tokens[m]) && part(tokens[m]) {
			last = m
			continue
		}
		if !part(t) {
			break
		}
		last, spaced = n, true
	}
	if last == first {
		return d, false
	}
	if end := nextIndex(tokens, last); spaced && (words[0] == "unit" || end >= 0 && tokens[end].Value != "{" &&
		tokens[end].Type != tokEOL && tokens[end].Type != tokString && !slices.Contains(afterName, tokens[end].Value) && !(named && tokens[end].Value == "when")) {
		// Words apart are a name of several words unless the line reads
		// otherwise: a unit's flags, an attribute without its "=".
		return d, false
	}
	var name strings.Builder
	for _, t := range tokens[first : last+1] {
		name.WriteString(t.Value)
	}
	what := `a name with "-"`
	if spaced {
		what = "a name with spaces"
	}
	d.Message = blamed
	d.Hint = fmt.Sprintf("%s is written in quotes, as in %q", what, name.String())
	if words[0] == "ruleset" {
		d.Hint += fmt.Sprintf(", or as one word, such as %s", strings.NewReplacer("-", "_", " ", "_").Replace(name.String()))
	}
	return d, true
}

// guardAfter explains a condition written after a tie rule's criterion,
// `tie: reroll when round == 1`, where tokens[i] is its "when" (or "if"):
// the condition comes before the colon.
func guardAfter(tokens []lexer.Token, i int) (string, bool) {
	if i < 0 || tokens[i].Value != "when" && tokens[i].Value != "if" {
		return "", false
	}
	words := stmtWords(tokens, i)
	if len(words) < 3 || words[0] != "tie" || words[1] != ":" {
		return "", false
	}
	colon := i
	for colon > 0 && tokens[colon].Value != ":" {
		colon--
	}
	var crit, cond strings.Builder
	for _, t := range tokens[colon+1 : i] {
		crit.WriteString(t.Value)
	}
	for j := i + 1; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Type != tokComment && tokens[j].Value != "}"; j++ {
		cond.WriteString(tokens[j].Value)
	}
	return tieGuardFix(strings.TrimSpace(crit.String()), cond.String()), true
}

// readyWords explains a ready rule's condition in other words than the
// language's, where tokens[i] is what the grammar stopped at: `ready units
// except A`, `ready units unless A, B`.
func readyWords(tokens []lexer.Token, i int) (string, bool) {
	if i < 0 {
		return "", false
	}
	w := stmtWords(tokens, i)
	if len(w) < 2 || w[0] != "ready" || w[1] != "units" {
		return "", false
	}
	if len(w) == 2 {
		meant := map[string]string{"except": "unless", "but": "unless", "if": "where", "when": "where", "with": "where"}[tokens[i].Value]
		if meant == "" {
			return "", false
		}
		return fmt.Sprintf("a ready rule's condition is `unless CONDITION` or `where CONDITION`: did you mean %s?", meant), true
	}
	if tokens[i].Value != "," || w[2] != "unless" && w[2] != "where" {
		return "", false
	}
	join := map[string]string{"unless": "or", "where": "and"}[w[2]]
	// What binds more loosely than join, in a condition, is bracketed:
	// `where A or B, C` is (A or B) and C.
	looser := []string{"?", "??"}
	if join == "and" {
		looser = append(looser, "or", "||")
	}
	var parts []string
	var part strings.Builder
	depth, loose := 0, false
	flush := func() {
		p := strings.TrimSpace(part.String())
		if loose {
			p = "(" + p + ")"
		}
		parts = append(parts, p)
		part.Reset()
		loose = false
	}
	for j := slices.IndexFunc(tokens[:i], func(t lexer.Token) bool { return t.Pos.Line == tokens[i].Pos.Line && t.Value == w[2] }) + 1; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Type != tokComment; j++ {
		switch v := tokens[j].Value; {
		case v == "(" || v == "[":
			depth++
		case v == ")" || v == "]":
			depth--
		case depth == 0 && v == ",":
			flush()
			continue
		case depth == 0 && slices.Contains(looser, v):
			loose = true
		}
		part.WriteString(tokens[j].Value)
	}
	flush()
	return fmt.Sprintf("conditions are joined with %s: write `ready units %s %s`", join, w[2], strings.Join(parts, " "+join+" ")), true
}

// statusSpaces explains a status of several words, `unit status out of
// action` or `unit Krug status seriously injured`, where tokens[i] is its
// second word: a status is a name, one word.
func statusSpaces(tokens []lexer.Token, i int) (string, bool) {
	if i < 0 || tokens[i].Type != tokIdent {
		return "", false
	}
	w := stmtWords(tokens, i)
	if len(w) < 3 || w[0] != "unit" || !slices.Contains(w, "status") || w[len(w)-1] == "status" || w[len(w)-1] == "," {
		return "", false
	}
	words := []string{w[len(w)-1]}
	for j := i; j < len(tokens) && (tokens[j].Type == tokIdent || spacing(tokens[j])); j++ {
		if k := nextIndex(tokens, j); !spacing(tokens[j]) && k >= 0 && tokens[k].Value == "=" {
			break // `agi = 3`: an attribute, not the status's next word
		}
		if !spacing(tokens[j]) {
			words = append(words, tokens[j].Value)
		}
	}
	return fmt.Sprintf("a status is one word: write %s (several statuses are separated by commas)", strings.Join(words, "_")), true
}

// guardFirst explains a condition written before `tie` on its line,
// `when round == 1 tie: reroll`, where tokens[i] is its "when".
func guardFirst(tokens []lexer.Token, i int) (string, bool) {
	if i < 0 {
		return "", false
	}
	var cond, rest strings.Builder
	tie := false
	for j := i + 1; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Type != tokComment; j++ {
		switch {
		case tie:
			rest.WriteString(tokens[j].Value)
		case tokens[j].Type == tokIdent && tokens[j].Value == "tie":
			tie = true
		default:
			cond.WriteString(tokens[j].Value)
		}
	}
	r := strings.TrimSpace(rest.String())
	if !tie || !strings.HasPrefix(r, ":") {
		return "", false
	}
	return fmt.Sprintf("a tie rule's condition follows `tie`: write `tie when %s: %s`", strings.TrimSpace(cond.String()), strings.TrimSpace(r[1:])), true
}

// tieGuardFix says where the condition of a tie rule goes.
func tieGuardFix(criterion, cond string) string {
	cond = strings.TrimSpace(cond)
	if cond == "" {
		cond = "CONDITION"
	}
	return fmt.Sprintf("a tie rule's condition comes before its colon: write `tie when %s: %s`", cond, criterion)
}

// afterName are the words that may follow a name in the statements that
// declare one.
var afterName = []string{"team", "status", "each", "once", "until"}

// brokenLine starts the message for an expression broken across lines.
const brokenLine = "the expression ends at the end of the line, after"

// danglingOperators are what an expression cannot end with.
var danglingOperators = []string{"+", "-", "*", "/", "%", "**", "==", "!=", "<", ">", "<=", ">=", "&&", "||",
	"??", "!", "?", ".", "?.", "and", "or", "not", "in", "matches", "contains", "startsWith", "endsWith"}

// danglingOperator finds the operator that ends a line of a statement
// with an expression, when the error at tokens[i] is the end of that line
// (`tie when round > 1 and`) or the start of the next (`highest agi +`,
// then `1`, a statement of its own): an expression ends at the end of its
// line, so the author broke it in two.
func danglingOperator(tokens []lexer.Token, i int) (lexer.Token, bool) {
	eol := i
	if tokens[i].Type != tokEOL {
		eol = prevToken(tokens, i)
	}
	if eol < 0 || tokens[eol].Type != tokEOL || tokens[eol].Value != "\n" {
		return lexer.Token{}, false
	}
	op := prevToken(tokens, eol)
	if op < 0 || !slices.Contains(danglingOperators, tokens[op].Value) ||
		tokens[op].Type != tokOp && tokens[op].Type != tokIdent {
		return lexer.Token{}, false
	}
	words := stmtWords(tokens, op)
	if len(words) == 0 {
		return lexer.Token{}, false
	}
	switch words[0] {
	case "tie", "highest", "lowest", "award", "remember", "holder", "on", "set", "ready":
		return tokens[op], true
	}
	return lexer.Token{}, false
}

// continuedLine returns the line that an expression broken after d, a
// brokenLine error, goes on to: an error there is a consequence.
func continuedLine(d Diagnostic, tokens []lexer.Token) (int, bool) {
	if !strings.HasPrefix(d.Message, brokenLine) {
		return 0, false
	}
	if next := nextToken(tokens, d.Pos.Offset+1); next != nil && next.Pos.Line > d.Pos.Line {
		return next.Pos.Line, true
	}
	return 0, false
}

// orderName explains an order's name of several words, `order units as
// turn order` or `as "turn order"`: expressions name an order, so its name
// is one word.
func orderName(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 {
		return d, false
	}
	w := stmtWords(tokens, i)
	if len(w) < 3 || w[0] != "order" || w[2] != "as" {
		return d, false
	}
	var name string
	switch {
	case len(w) == 3 && tokens[i].Type == tokString && strings.HasSuffix(d.Message, "(expected a name)"):
		name, _ = strconv.Unquote(tokens[i].Value)
	case len(w) == 4 && tokens[i].Type == tokIdent && strings.HasSuffix(d.Message, `(expected "{")`) && !slices.Contains(afterName, tokens[i].Value):
		name = w[3] + " " + tokens[i].Value
	default:
		return d, false
	}
	one := strings.Join(strings.Fields(name), "_")
	if one == "" || !identRE.MatchString(one) {
		return d, false
	}
	blamed := describe(tokens[i])
	if tokens[i].Type == tokString {
		blamed = tokens[i].Value // as written, quotes and all
	}
	what := "one word"
	if one == name {
		// `as "priority"`: one word already, only quoted.
		what = "a word without quotes"
	}
	return errorAt(d.Pos, "unexpected %s", blamed).WithHint("an order's name is %s, as expressions name it: write `order %s as %s`", what, w[1], one), true
}

// unquotedText explains a quote or source written without its quotes,
// `quote Roll a D6.`, with the line it meant.
func unquotedText(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || !strings.HasSuffix(d.Message, "(expected a quoted string)") || tokens[i].Type != tokIdent && tokens[i].Type != tokInt {
		return d, false
	}
	w := stmtWords(tokens, i)
	if len(w) != 1 || w[0] != "quote" && w[0] != "source" {
		return d, false
	}
	var text strings.Builder
	for j := i; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Type != tokComment; j++ {
		text.WriteString(tokens[j].Value)
	}
	return errorAt(d.Pos, "unexpected %q", tokens[i].Value).WithHint("the text of a %s is written in double quotes: `%s %s`", w[0], w[0], strconv.Quote(strings.TrimSpace(text.String()))), true
}

// scopeWord explains d when a phase, step or order is given a scope in
// other words than the language's (`phase p every round {`, `order sides
// as o per turn {`): the grammar expects the "{" there, and a phase's or
// step's words would otherwise read as a name with spaces.
func scopeWord(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || !strings.HasSuffix(d.Message, `(expected "{")`) || tokens[i].Type != tokIdent || slices.Contains(afterName, tokens[i].Value) {
		return d, false
	}
	if words := stmtWords(tokens, i); len(words) < 2 || !slices.Contains([]string{"phase", "step", "order"}, words[0]) {
		return d, false
	}
	w := tokens[i].Value
	if prev := prevToken(tokens, i); prev >= 0 && tokens[prev].Value == "once" && (w == "per" || w == "a" || w == "each" || w == "every") {
		// `once per battle`: the words a rulebook uses.
		return errorAt(tokens[i].Pos, "unexpected %q", w).WithHint("`once` already means once per battle (worked out in round 1, kept after): end the scope at `once`"), true
	}
	meant := scopeTypo(w)
	if meant == "" && !slices.Contains([]string{"every", "per", "always"}, w) {
		return d, false // a name's second word, perhaps: `step Move turn {`
	}
	if meant != "" {
		return errorAt(tokens[i].Pos, "unexpected %q (did you mean `%s`?)", w, meant).WithHint("%s", scopeHelp), true
	}
	return errorAt(tokens[i].Pos, "unexpected %q", w).WithHint("%s", scopeHelp), true
}

// scopeTypo returns the scope words that word is a misspelling of
// (`until_changed`, `untill`, `eachround`), or "".
func scopeTypo(word string) string {
	switch strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(word)) {
	case "untilchanged", "untillchanged", "untilchange":
		return "until changed"
	case "eachround", "everyround", "perround":
		return "each round"
	case "oncepergame", "onceperbattle", "onlyonce":
		return "once"
	}
	return map[string]string{"once": "once", "until": "until changed", "each": "each round"}[Suggest(word, []string{"once", "until", "each"})]
}

// scopeError finds the mistake in a scope (each round, once, until changed
// NAMES) that the error at tokens[i] is in or next to. The scope is
// optional, so participle backtracks out of a broken one and complains
// about its first word (expected "{"); what is wrong comes after it.
func scopeError(tokens []lexer.Token, i int) (Diagnostic, bool) {
	if words := stmtWords(tokens, i); len(words) == 0 || !slices.Contains([]string{"phase", "step", "order"}, words[0]) {
		return Diagnostic{}, false // only these have a scope
	}
	// The scope starts at the error, or just before it.
	start := i
	if w := tokens[i].Value; w != "each" && w != "until" {
		start = prevToken(tokens, i)
		if start < 0 || (tokens[start].Value != "each" && tokens[start].Value != "until" && tokens[start].Value != "changed") {
			return Diagnostic{}, false
		}
		if tokens[start].Value == "changed" {
			start = prevToken(tokens, start)
			if start < 0 || tokens[start].Value != "until" {
				return Diagnostic{}, false
			}
		}
	}
	if tokens[start].Type != tokIdent {
		return Diagnostic{}, false
	}
	next := nextIndex(tokens, start)
	if next < 0 {
		return Diagnostic{}, false
	}
	switch tokens[start].Value {
	case "each":
		if tokens[next].Value != "round" {
			return errorAt(tokens[next].Pos, "unexpected %s", describe(tokens[next])).WithHint("%s", scopeHelp), true
		}
	case "until":
		if tokens[next].Value != "changed" {
			return errorAt(tokens[next].Pos, "unexpected %s", describe(tokens[next])).WithHint("expected `until changed NAME, ...`"), true
		}
		if name := nextIndex(tokens, next); name >= 0 && tokens[name].Type != tokIdent {
			return errorAt(tokens[name].Pos, "unexpected %s", describe(tokens[name])).WithHint("expected `until changed NAME, ...`, naming the attributes or statuses to watch"), true
		}
	}
	return Diagnostic{}, false
}

// passClause explains a mistake in an activation's `pass allowed [when
// EXPR]`, where the grammar only says the statement should have ended: a
// `when` with no condition, another word for `when`, or `pass` without
// `allowed`.
func passClause(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || !strings.HasPrefix(d.Message, "unexpected ") {
		return d, false
	}
	words := stmtWords(tokens, i)
	if len(words) == 0 || words[0] != "activation" {
		return d, false
	}
	t := tokens[i]
	afterPass := len(words) >= 2 && words[len(words)-2] == "pass" && words[len(words)-1] == "allowed"
	next := nextIndex(tokens, i)
	lineEnds := next < 0 || tokens[next].Type == tokEOL || tokens[next].Value == "}"
	switch {
	case afterPass && t.Value == "when" && lineEnds:
		return errorAt(t.Pos, "`pass allowed when` needs a condition after it, as in `pass allowed when round >= 2` (to allow passing at any time, drop `when`)"), true
	case afterPass && slices.Contains([]string{"if", "unless", "where", "while", "only"}, t.Value):
		return errorAt(t.Pos, "unexpected %q", t.Value).WithHint("a condition on passing is written `pass allowed when CONDITION`"), true
	case t.Value == "pass" && (next < 0 || tokens[next].Value != "allowed"):
		return errorAt(t.Pos, "unexpected \"pass\"").WithHint("passing is written `pass allowed`, or `pass allowed when CONDITION`"), true
	}
	return d, false
}

// words1 is the first word of the statement that the token at offset is
// in, or "".
func words1(tokens []lexer.Token, offset int) string {
	i := tokenIndex(tokens, offset)
	if i < 0 {
		return ""
	}
	if words := stmtWords(tokens, i); len(words) > 0 {
		return words[0]
	}
	return ""
}

// scriptColon explains a ":" (or, in a roll, an "=") in a scenario's
// statement, where there is no expression to hold a conditional: `roll
// Jay: 4`, `roll Jay=4` and `expect holder: Jay` are written without it
// (only `expect standing NAME:` has a ":").
func scriptColon(d Diagnostic, tokens []lexer.Token, sep string) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 {
		return d, false
	}
	words := stmtWords(tokens, i)
	if opener, _ := blockOpener(tokens, d.Pos.Offset); opener != "round" || len(words) == 0 {
		return d, false
	}
	switch {
	case words[0] == "roll" || words[0] == "random":
	case words[0] == "expect" && !slices.Contains(words, "standing"):
	default:
		return d, false
	}
	// The statement as written, without its colons.
	start := i
	for j := i - 1; j >= 0 && tokens[j].Type != tokEOL && tokens[j].Value != "{" && tokens[j].Value != ";"; j-- {
		start = j
	}
	var b strings.Builder
	for j := start; j < len(tokens); j++ {
		t := tokens[j]
		if t.Type == tokEOL || t.Value == "}" || t.Value == ";" || t.Type == tokComment {
			break
		}
		if t.Value == sep {
			b.WriteString(" ")
			continue
		}
		if spacing(t) {
			if b.Len() > 0 && !strings.HasSuffix(b.String(), " ") {
				b.WriteString(" ")
			}
			continue
		}
		b.WriteString(t.Value)
	}
	fixed := strings.Join(strings.Fields(b.String()), " ")
	return errorAt(d.Pos, "unexpected %q", sep).WithHint("a scenario's `%s` is written without it: `%s`", words[0], fixed), true
}

// guardWords are the words a rule author may write for `when`.
var guardWords = []string{"if", "unless", "where", "while", "only"}

// guardWord explains d when a tie rule's or a special rule's condition
// begins with another word than `when` (`tie if round == 1: reroll`):
// the grammar's "(expected ":" or "{")" leaves `when` out, as it is
// optional. In `on start of round if ...` the word reads as a name of the
// round, and the grammar blames the word after it.
func guardWord(d Diagnostic, tokens []lexer.Token) (Diagnostic, bool) {
	i := tokenIndex(tokens, d.Pos.Offset)
	if i < 0 || !strings.HasPrefix(d.Message, "unexpected ") {
		return d, false
	}
	words := stmtWords(tokens, i)
	t := tokens[i]
	switch {
	case len(words) == 1 && words[0] == "tie" && slices.Contains(guardWords, t.Value):
		return errorAt(t.Pos, "unexpected %q", t.Value).WithHint("a tie rule's condition is written `tie when CONDITION: ...`"), true
	case len(words) < 3 || words[0] != "on" || !strings.HasSuffix(d.Message, `(expected "{")`):
		return d, false
	case slices.Contains(guardWords, t.Value):
	case len(words) == 5 && words[3] == "round" && slices.Contains(guardWords, words[4]):
		t = tokens[prevToken(tokens, i)]
	default:
		return d, false
	}
	return errorAt(t.Pos, "unexpected %q", t.Value).WithHint("a special rule's condition is written `when CONDITION`, before its `{`"), true
}

// inExpression reports whether tokens[i], an "=" that is a syntax error,
// follows an expression: in a statement that has one before any "=" (a
// guard, a value, an award, a readiness condition), or after the "=" of
// one whose value is an expression (remember, holder).
func inExpression(tokens []lexer.Token, i int) bool {
	words := stmtWords(tokens, i)
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "tie", "highest", "lowest", "award", "on":
		return true
	case "ready":
		return len(words) > 1 && words[1] == "units"
	case "remember", "holder":
		return slices.Contains(words, "=")
	case "activation":
		return slices.Contains(words, "when") // pass allowed when EXPR
	}
	return false
}

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

// spacing is whitespace or a comment: what the grammar elides.
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
