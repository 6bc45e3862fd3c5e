package dsl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"
)

// A statement that is no statement of the block it is in: unknown, and
// perhaps a typo of one that is, or known, and belonging in another
// block (often because a "}" is missing or one too many).

// unknownStatement says that word starts no statement of the block that
// opener opens, and what does.
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
	"on": inRuleset, "example": inRuleset,
	"activation": {[]string{"ruleset", "phase", "step"}, "directly inside a ruleset, a phase or a step"},
	"step":       inPhase, "order": inPhase, "hook": inPhase,
	"highest": inOrder, "lowest": inOrder, "award": inOrder, "choice": inOrder, "tie": inOrder,
	"random": {[]string{"order", "tie", "round"}, "inside an order"},
	"reroll": {[]string{"order", "tie"}, "inside a tie rule"},
	"set":    {[]string{"on", "round"}, "inside an `on` rule or a scenario round"},
	"holder": {[]string{"on"}, "inside an `on` rule"},
	"first":  {[]string{"on"}, "inside an `on` rule"},
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
