package dsl

import (
	"regexp"
	"slices"
	"strings"
)

// Participle says what it expected as the rest of the grammar rule, such
// as `("alternate" | "sequential" | "unit_order") "by" <ident> ...`. A rule
// author needs only what could come next: "alternate", "sequential" or
// "unit_order". firstOf works that out from the grammar text, in
// participle's notation: it is the part of depwording.go's reading of
// participle's words that is about its notation, held to it by the same
// tests.

var expectedRE = regexp.MustCompile(`\(expected (.+)\)$`)

// shortenExpected replaces a long "(expected GRAMMAR)" at the end of msg by
// the words that could start GRAMMAR.
func shortenExpected(msg string) string {
	m := expectedRE.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg
	}
	grammar := msg[m[2]:m[3]]
	if !strings.ContainsAny(grammar, " |") {
		if w, ok := friendlyWord[grammar]; ok { // a node such as Ident
			return msg[:m[0]] + "(expected " + w + ")"
		}
		return msg
	}
	words, ok := firstOf(grammar)
	if !ok || len(words) == 0 {
		return msg
	}
	return msg[:m[0]] + "(expected " + orList(words) + ")"
}

func orList(words []string) string {
	switch len(words) {
	case 1:
		return words[0]
	case 2:
		return words[0] + " or " + words[1]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// friendlyWord names a grammar symbol for a rule author.
var friendlyWord = map[string]string{
	"<ident>": "a name", "<string>": "a quoted string", "<int>": "a number", "<float>": "a number",
	"<dice>": "dice such as d6", "<eol>": "end of line", "Expr": "an expression", "Role": "a role such as winner",
	"Criterion": "a criterion", "Assign": "NAME = VALUE", `"\n"`: "end of line", "NameInt": "NAME N",
	"Ident": "a name", "NameAt": "a name or a quoted string", "FaceSpec": "a face or card, such as crown, 7 or 1..13",
}

type grammarParser struct {
	toks []string
	i    int
}

var grammarTokRE = regexp.MustCompile(`"(?:\\.|[^"\\])*"|\(\?[!=]|[()|?*+!]|[^\s()|?*+!"]+`)

// firstOf returns the words that can start grammar, or false if it cannot
// tell.
func firstOf(grammar string) ([]string, bool) {
	p := &grammarParser{toks: grammarTokRE.FindAllString(grammar, -1)}
	alts, ok := p.alternatives()
	if !ok || p.i != len(p.toks) {
		return nil, false
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range alts.first {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	if seen["a number"] {
		// A minus where a number may come is the number's sign.
		out = slices.DeleteFunc(out, func(w string) bool { return w == `"-"` })
	}
	return out, true
}

// firstSet is what can start a piece of grammar, and whether it can also
// match nothing.
type firstSet struct {
	first    []string
	nullable bool
}

func (p *grammarParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *grammarParser) alternatives() (firstSet, bool) {
	var out firstSet
	for {
		seq, ok := p.sequence()
		if !ok {
			return out, false
		}
		out.first = append(out.first, seq.first...)
		out.nullable = out.nullable || seq.nullable
		if p.peek() != "|" {
			return out, true
		}
		p.i++
	}
}

func (p *grammarParser) sequence() (firstSet, bool) {
	out := firstSet{nullable: true}
	for {
		switch p.peek() {
		case "", "|", ")":
			return out, true
		}
		item, ok := p.item()
		if !ok {
			return out, false
		}
		if out.nullable {
			out.first = append(out.first, item.first...)
			out.nullable = item.nullable
		}
	}
}

func (p *grammarParser) item() (firstSet, bool) {
	var atom firstSet
	switch t := p.peek(); {
	case t == "(?!" || t == "(?=":
		p.i++
		if _, ok := p.alternatives(); !ok || p.peek() != ")" {
			return atom, false
		}
		p.i++
		return firstSet{nullable: true}, true // a lookahead matches nothing
	case t == "(":
		p.i++
		inner, ok := p.alternatives()
		if !ok || p.peek() != ")" {
			return atom, false
		}
		p.i++
		atom = inner
	case t == "?" || t == "*" || t == "+" || t == "!":
		return atom, false
	default:
		p.i++
		w := t
		if f, ok := friendlyWord[t]; ok {
			w = f
		}
		atom = firstSet{first: []string{w}}
	}
	switch p.peek() {
	case "?", "*":
		p.i++
		atom.nullable = true
	case "+", "!":
		p.i++
	}
	return atom, true
}
