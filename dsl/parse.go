package dsl

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Limits checked before parsing. Participle is a recursive-descent parser
// with no depth guard, so deeply nested input must be refused up front.
const (
	MaxSourceBytes = 1 << 20
	MaxDepth       = 64
	maxSyntaxErrs  = 10
)

// The lexer has one state for rule text and one for the inside of
// brackets, where '#' is expr-lang's "current element" rather than the start
// of a comment, as in `filter(units, #.agi > 3)`.
var rulesLexer = lexer.MustStateful(lexer.Rules{
	"Root": {
		{Name: "Comment", Pattern: `#[^\n]*`},
		{Name: "Open", Pattern: `[(\[]`, Action: lexer.Push("Inner")},
		lexer.Include("Common"),
	},
	"Inner": {
		{Name: "Hash", Pattern: `#`},
		{Name: "Open", Pattern: `[(\[]`, Action: lexer.Push("Inner")},
		{Name: "Close", Pattern: `[)\]]`, Action: lexer.Pop()},
		lexer.Include("Common"),
	},
	"Common": {
		{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
		{Name: "RawString", Pattern: `'(\\.|[^'\\\n])*'`},
		{Name: "Dice", Pattern: `[0-9]*d[0-9]+\b`},
		{Name: "Float", Pattern: `[0-9]+\.[0-9]+`},
		{Name: "Int", Pattern: `[0-9]+`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "EOL", Pattern: `[\n;]`},
		{Name: "Op", Pattern: `==|!=|<=|>=|&&|\|\||\?\?|\?\.|\*\*|\.\.|[-+*/%<>!?|&^.,:=(){}\[\]]`},
		{Name: "Whitespace", Pattern: `[ \t\r]+`},
	},
})

var parserOptions = []participle.Option{
	participle.Lexer(rulesLexer),
	participle.Elide("Whitespace", "Comment"),
	participle.UseLookahead(4),
	participle.Union[Decl](&Ruleset{}, &Scenario{}, &SideSetup{}),
	participle.Union[RuleStmt](&SourceStmt{}, &QuoteStmt{}, &SidesStmt{}, &AttrDecl{}, &StatusDecl{},
		&RememberStmt{}, &PhaseStmt{}, &ActivationStmt{}, &HandlerStmt{}, &ExampleStmt{}),
	participle.Union[PhaseItem](&StepStmt{}, &OrderStmt{}, &ReadyStmt{}, &HookStmt{}, &QuoteStmt{}),
	participle.Union[Criterion](&TieRule{}, &RollCrit{}, &ValueCrit{}, &RandomCrit{}, &RerollCrit{},
		&AwardCrit{}, &ChoiceCrit{}, &QuoteStmt{}),
	participle.Union[Action](&SetAction{}, &ReadyAction{}, &HolderAction{}, &QuoteStmt{}),
	participle.Union[SetupStmt](&SideSetup{}),
	participle.Union[SideItem](&UnitSetup{}, &Assign{}),
	participle.Union[ScenarioStmt](&UseRuleset{}, &QuoteStmt{}, &PolicyStmt{}, &SeedStmt{}, &SideSetup{}, &RoundBlock{}),
	participle.Union[RoundStmt](&RollScript{}, &RandomScript{}, &ChooseScript{}, &SetScript{},
		&StatusScript{}, &ReadyScript{}, &RemoveScript{}, &ActivateScript{}, &Expect{}, &QuoteStmt{}),
}

var parser = participle.MustBuild[File](parserOptions...)

// Parse parses one .rules file. It returns the file (possibly partial) and
// every syntax error it found: a syntax error stops the parse of the
// top-level declaration it is in, and parsing resumes at the next one; an
// unclosed bracket is reported, removed, and parsing goes on as written.
func Parse(filename string, src []byte) (*File, Diagnostics) {
	if len(src) > MaxSourceBytes {
		return nil, Diagnostics{errorAt(Pos{Filename: filename, Line: 1, Column: 1},
			"file is %d bytes; the limit is %d", len(src), MaxSourceBytes)}
	}
	tokens, diags := lex(filename, src)
	if diags != nil {
		return nil, diags
	}
	if d := checkDepth(tokens); d != nil {
		return nil, Diagnostics{*d}
	}
	if onlyTrivia(tokens) {
		return nil, Diagnostics{errorAt(Pos{Filename: filename, Line: 1, Column: 1},
			"empty file: expected a ruleset, a scenario or sides")}
	}

	text := []byte(string(src))
	var errs Diagnostics
	var file *File
	bracketLines := map[int]bool{} // lines with an unclosed bracket, reported and removed
	for {
		f, err := parser.ParseBytes(filename, text)
		if err == nil {
			file = f
			break
		}
		d := refine(fromParseError(filename, err), tokens, text)
		if strings.HasPrefix(d.Message, `unexpected ":"`) {
			d.Message += " (to use a conditional a ? b : c here, put it in parentheses)"
		}
		if n := len(errs); n > 0 && errs[n-1] == d {
			return nil, errs // no progress: the same error again
		}
		if len(errs) >= maxSyntaxErrs {
			return nil, errs
		}
		if open := unclosed(tokens); open != nil && open.Pos == d.Pos {
			// Everything after an unclosed bracket is inside it. Report
			// it, remove it, and parse the rest of the file as written.
			errs = append(errs, d)
			text[open.Pos.Offset] = ' '
			bracketLines[open.Pos.Line] = true
			tokens, _ = lex(filename, text)
			continue
		}
		if bracketLines[d.Pos.Line] && blankLine(text, d.Pos.Offset) {
			continue // what is left of that line after its bracket went
		}
		errs = append(errs, d)
		start, end, ok := declSpan(tokens, d.Pos.Offset)
		if !ok {
			return nil, errs
		}
		// Blank out the broken declaration, keeping newlines so every
		// position after it stays true, and parse the rest again.
		for i := start; i < end; i++ {
			if text[i] != '\n' {
				text[i] = ' '
			}
		}
	}
	file.Source = string(src)
	for _, t := range tokens {
		if t.Type == tokenType("Comment") {
			file.Comments = append(file.Comments, Comment{Pos: t.Pos, Text: strings.TrimRight(t.Value, " \t\r")})
		}
	}
	fillExprSources(file, string(text)) // what was parsed: without a bracket recovery removed
	errs = append(errs, checkDice(file)...)
	if len(errs) > 0 {
		return file, errs
	}
	return file, nil
}

var symbols = rulesLexer.Symbols()

func tokenType(name string) lexer.TokenType { return symbols[name] }

func lex(filename string, src []byte) ([]lexer.Token, Diagnostics) {
	lx, err := rulesLexer.LexString(filename, string(src))
	if err != nil {
		return nil, Diagnostics{fromParseError(filename, err)}
	}
	var out []lexer.Token
	for {
		t, err := lx.Next()
		if err != nil {
			return nil, Diagnostics{fromParseError(filename, err)}
		}
		if t.EOF() {
			return out, nil
		}
		out = append(out, t)
	}
}

func onlyTrivia(tokens []lexer.Token) bool {
	for _, t := range tokens {
		switch t.Type {
		case tokenType("Comment"), tokenType("Whitespace"), tokenType("EOL"):
		default:
			return false
		}
	}
	return true
}

// checkDepth refuses input nested deeper than MaxDepth brackets.
func checkDepth(tokens []lexer.Token) *Diagnostic {
	depth := 0
	for _, t := range tokens {
		if t.Type != tokenType("Op") && t.Type != tokenType("Open") && t.Type != tokenType("Close") {
			continue
		}
		switch t.Value {
		case "{", "(", "[":
			depth++
			if depth > MaxDepth {
				d := errorAt(t.Pos, "nesting is deeper than %d levels", MaxDepth)
				return &d
			}
		case "}", ")", "]":
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// declSpan finds the byte span of the top-level declaration around offset:
// from its first token to the brace that closes it (or the end of input).
func declSpan(tokens []lexer.Token, offset int) (start, end int, ok bool) {
	depth := 0
	start = -1
	for i, t := range tokens {
		if t.Type == tokenType("Comment") || t.Type == tokenType("Whitespace") || t.Type == tokenType("EOL") {
			continue
		}
		if depth == 0 && start < 0 {
			start = t.Pos.Offset
		}
		if t.Type == tokenType("Op") {
			switch t.Value {
			case "{":
				depth++
			case "}":
				depth--
				if depth <= 0 {
					depth = 0
					end = t.Pos.Offset + 1
					if offset >= start && offset < end {
						return start, end, true
					}
					start = -1
				}
			}
		}
		// A declaration keyword at depth 0 starts a new declaration, so a
		// missing brace does not swallow the whole file.
		if depth > 0 && t.Type == tokenType("Ident") && (t.Value == "ruleset" || t.Value == "scenario") &&
			i > 0 && atLineStart(tokens, i) && t.Pos.Column == 1 && offset <= t.Pos.Offset && offset >= start {
			return start, t.Pos.Offset, true
		}
	}
	if start >= 0 && offset >= start {
		last := tokens[len(tokens)-1]
		return start, last.Pos.Offset + len(last.Value), true
	}
	return 0, 0, false
}

// blankLine blanks the line around offset, unless it opens or closes a
// block (blanking that would unbalance the braces), and reports whether
// it did.
func blankLine(text []byte, offset int) bool {
	start := bytes.LastIndexByte(text[:offset], '\n') + 1
	end := offset + bytes.IndexByte(text[offset:], '\n')
	if end < offset {
		end = len(text)
	}
	line := text[start:end]
	if bytes.ContainsAny(line, "{}") || len(bytes.TrimSpace(line)) == 0 {
		return false
	}
	for i := range line {
		line[i] = ' '
	}
	return true
}

func atLineStart(tokens []lexer.Token, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch tokens[j].Type {
		case tokenType("Whitespace"):
			continue
		case tokenType("EOL"):
			return true
		default:
			return false
		}
	}
	return true
}

func fromParseError(filename string, err error) Diagnostic {
	if pe, ok := err.(participle.Error); ok {
		pos := pe.Position()
		if pos.Filename == "" {
			pos.Filename = filename
		}
		if pos.Line == 0 {
			pos.Line, pos.Column = 1, 1
		}
		return errorAt(pos, "%s", friendly(pe.Message()))
	}
	return errorAt(Pos{Filename: filename, Line: 1, Column: 1}, "%s", err.Error())
}

// friendly rewrites participle's messages in a rule author's words.
func friendly(msg string) string {
	msg = shortenExpected(msg)
	msg = strings.NewReplacer(
		`"\n"`, "end of line",
		`"<EOF>"`, "end of file",
		"<eol>", "end of line",
		"<ident>", "a name",
		"<string>", "a quoted string",
		"<int>", "a number",
		"<dice>", "dice such as d6 or 2d6",
		"(expected Expr)", "(expected an expression)",
		"(expected Criterion)", "(expected a criterion)",
	).Replace(msg)
	if strings.HasPrefix(msg, "unexpected token") {
		msg = strings.Replace(msg, "unexpected token", "unexpected", 1)
	}
	// The lexer stops where no token starts; quoting the rest of the file
	// says nothing a rule author can use.
	if quoted, ok := strings.CutPrefix(msg, "lexer: invalid input text "); ok {
		rest, err := strconv.Unquote(quoted)
		switch {
		case err != nil || rest == "":
		case rest[0] == '"':
			msg = `this string is not closed (a string ends with " on the same line)`
		case rest[0] == '`':
			msg = "this string is not closed (a raw string ends with `)"
		default:
			r, _ := utf8.DecodeRuneInString(rest)
			msg = fmt.Sprintf("unexpected %q: no name, number or symbol of the language starts with it", r)
		}
	}
	return msg
}

// fillExprSources sets Expr.Source to the exact text of each expression.
func fillExprSources(f *File, src string) {
	Walk(f, func(n any) {
		e, ok := n.(*Expr)
		if !ok || len(e.Tokens) == 0 {
			return
		}
		first, last := -1, -1
		for i, t := range e.Tokens {
			if t.Type == tokenType("Whitespace") || t.Type == tokenType("Comment") || t.Type == tokenType("EOL") {
				continue
			}
			if first < 0 {
				first = i
			}
			last = i
		}
		if first < 0 {
			return
		}
		from := e.Tokens[first].Pos.Offset
		to := e.Tokens[last].Pos.Offset + len(e.Tokens[last].Value)
		e.Pos = e.Tokens[first].Pos
		e.Source = src[from:to]
		e.Tokens = nil
	})
}

// Strings is a helper for error messages: names joined with ", ".
func Strings[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

var _ = fmt.Sprintf

// checkDice reports rolls whose dice are not NdS. The grammar takes any
// word after "roll" so that `highest roll 6d` is an error about dice, not
// an expression called "roll 6d".
func checkDice(f *File) Diagnostics {
	var out Diagnostics
	Walk(f, func(n any) {
		r, ok := n.(*RollCrit)
		if !ok {
			return
		}
		text := r.Dice
		if r.Modifier != nil && !strings.HasPrefix(r.Modifier.Source, "+") && !strings.HasPrefix(r.Modifier.Source, "-") {
			text += r.Modifier.Source
			r.Modifier = nil
		} else if diceRE.MatchString(text) {
			return
		}
		pos := r.Pos
		if i := strings.Index(f.Source[r.Pos.Offset:], "roll"); i >= 0 {
			off := r.Pos.Offset + i + len("roll")
			for off < len(f.Source) && (f.Source[off] == ' ' || f.Source[off] == '\t') {
				off++
			}
			pos.Column += off - r.Pos.Offset
			pos.Offset = off
		}
		if text == "" {
			out = append(out, errorAt(pos, "roll needs dice, such as d6 or 2d6"))
			return
		}
		out = append(out, errorAt(pos, "bad dice %q: write NdS, such as d6 or 2d6", text))
	})
	return out
}
