package dsl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// The explainers: each recognises one kind of mistake by the tokens around
// a syntax error, and says what the author most likely meant. The hint
// rules of hints.go call them; explain runs those rules on every syntax
// error.

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

// missingCommas reads the statement around tokens[i], where a list of a
// round (`roll Jay 4 Rob 2`, `expect order Jay Rob`) went on without its
// comma, and returns it written with its commas; colon says the mistake
// at tokens[i] is rather the colon after the phase of `expect activations
// in PHASE: ...`.
func missingCommas(tokens []lexer.Token, i int) (fixed string, colon, ok bool) {
	if i < 0 {
		return "", false, false
	}
	words := stmtWords(tokens, i)
	start := 0 // how many words come before the list
	// `expect activations in PHASE: ...`: the phase's name ends with a colon.
	in := len(words) >= 3 && words[0] == "expect" && words[1] == "activations" && words[2] == "in"
	switch {
	case in:
		start = 4
	case len(words) >= 2 && (words[0] == "roll" || words[0] == "random"):
		start = 1
	case len(words) >= 3 && words[0] == "expect" && slices.Contains([]string{"order", "activations", "ready"}, words[1]):
		start = 2
	case len(words) >= 3 && words[1] == "chooses":
		start = 2
	default:
		return "", false, false
	}
	name := func(t lexer.Token) bool { return t.Type == tokIdent || t.Type == tokString }
	if !name(tokens[i]) {
		return "", false, false
	}
	var out []string
	for j := i - 1; j >= 0 && tokens[j].Type != tokEOL && tokens[j].Value != "{"; j-- {
		if !spacing(tokens[j]) {
			out = append(out, tokens[j].Value)
		}
	}
	slices.Reverse(out)
	colon = in && len(out) < start // the mistake is at the phase's name
	prev := out[len(out)-1]
	for j := i; j < len(tokens) && tokens[j].Type != tokEOL && tokens[j].Value != "}"; j++ {
		t := tokens[j]
		if spacing(t) {
			continue
		}
		// An item ends at a roll's number, or at a name but for pass.
		ended := len(out) > start && prev != "," && prev != "pass" &&
			(words[0] == "roll") == (len(prev) > 0 && prev[0] >= '0' && prev[0] <= '9')
		switch {
		case in && len(out) == start && prev != ":" && t.Value != ":":
			out[len(out)-1] += ":"
		case name(t) && ended:
			out[len(out)-1] += ","
		}
		out = append(out, t.Value)
		prev = t.Value
	}
	fixed = strings.NewReplacer(" ,", ",", " :", ":").Replace(strings.Join(out, " "))
	return fixed, colon, true
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
// statement, or in a line of `expect events exactly { ... }`.
func inEventExpect(tokens []lexer.Token, offset int) bool {
	var words []string
	exact := false // in the block of an exact list
	for _, t := range tokens {
		switch {
		case t.Pos.Offset >= offset:
			return exact && len(words) > 0 || len(words) >= 2 && words[0] == "expect" &&
				(words[1] == "event" || words[1] == "no" && len(words) >= 3 && words[2] == "event")
		case t.Value == "{":
			exact = slices.Equal(words, []string{"expect", "events", "exactly"})
			words = words[:0]
		case t.Value == "}":
			exact = false
			words = words[:0]
		case t.Type == tokEOL:
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
// one whose value is an expression (remember, holder, and a special
// rule's first and set).
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
	case "set", "first":
		// A special rule's action; a scenario's set takes a value, not
		// an expression.
		opener, _ := blockOpener(tokens, tokens[i].Pos.Offset)
		return opener == "on" && slices.Contains(words, "=")
	case "activation":
		return slices.Contains(words, "when") // pass allowed when EXPR
	}
	return false
}
