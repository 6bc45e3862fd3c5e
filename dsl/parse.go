package dsl

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Limits checked before parsing. Participle is a recursive-descent parser
// with no depth guard, so deeply nested input must be refused up front.
const (
	// MaxSourceBytes is far more than a rules file needs (the bundled ones
	// are under 20 KiB), and small enough that any file, however
	// pathological, is parsed and compiled in about a second: a parse costs
	// about a microsecond a byte, most of it participle's.
	MaxSourceBytes = 256 << 10
	MaxDepth       = 64
	// maxSyntaxErrs bounds error recovery: each error found costs one more
	// parse of the file, and after a score of them more are rarely news.
	maxSyntaxErrs = 20
	// recoveryBytes bounds the same work by the size of the file: a large
	// file is parsed again only a few times (one at the limit, twice).
	recoveryBytes = 2 * MaxSourceBytes
)

var parserOptions = []participle.Option{
	participle.Lexer(rulesLexer),
	participle.Elide("Whitespace", "Comment"),
	participle.UseLookahead(4),
	participle.Union[Decl](&Ruleset{}, &Scenario{}, &SideSetup{}),
	participle.Union[RuleStmt](&SourceStmt{}, &QuoteStmt{}, &SidesStmt{}, &AttrDecl{}, &StatusDecl{},
		&RememberStmt{}, &PhaseStmt{}, &ActivationStmt{}, &HandlerStmt{}, &ExampleStmt{}, &RandomizerDecl{}),
	participle.Union[PhaseItem](&StepStmt{}, &OrderStmt{}, &ReadyStmt{}, &HookStmt{}, &ActivationStmt{}, &QuoteStmt{}, &DecideStmt{}),
	participle.Union[Criterion](&TieRule{}, &RollCrit{}, &DrawCrit{}, &ValueCrit{}, &RandomCrit{}, &RerollCrit{},
		&AwardCrit{}, &ChoiceCrit{}, &QuoteStmt{}),
	participle.Union[Action](&SetAction{}, &ReadyAction{}, &HolderAction{}, &FirstAction{}, &ReshuffleAction{}, &QuoteStmt{}),
	participle.Union[SetupStmt](&SideSetup{}),
	participle.Union[SideItem](&UnitSetup{}, &Assign{}),
	participle.Union[ScenarioStmt](&UseRuleset{}, &QuoteStmt{}, &PolicyStmt{}, &SeedStmt{}, &SideSetup{}, &RoundBlock{}),
	participle.Union[RoundStmt](&RollScript{}, &DrawScript{}, &RandomScript{}, &AddScript{}, &ChooseScript{}, &SetScript{},
		&StatusScript{}, &ReadyScript{}, &RemoveScript{}, &ActivateScript{}, &Expect{}, &QuoteStmt{}),
}

var parser = participle.MustBuild[File](parserOptions...)

// bom is the byte order mark, U+FEFF.
const bom = "\ufeff"

// Parse parses one .rules file. It returns the file and every error it
// found (up to a bound), in source order. After a syntax error in a
// statement inside a block, that statement (with any block it opens) is set
// aside and parsing goes on, so that independent mistakes on other lines
// are all reported. A mistake on the line that opens a block sets aside
// only the rest of that line when what is left still opens the block, so
// that the block's own statements can be checked too; failing that, or
// when the mistake is at the "{" itself (`phase p each {`), all of the
// line after the block's word and name (`phase p`, `order sides as o`),
// if what is left opens the block. An error that breaks
// the block structure, such as a missing "}", usually sets aside the whole
// top-level declaration instead, and parsing goes on only if the next
// declaration can be found. An unclosed bracket is reported, removed, and
// parsing goes on as written.
//
// When there are errors the file is partial, or nil: it holds only the
// declarations in which no error was found, so that a compiler given it
// does not report the consequences of a mistake already reported.
func Parse(filename string, src []byte) (*File, Diagnostics) {
	// Some editors start a UTF-8 file with a byte order mark. It is not
	// text: positions and File.Source are of what follows it.
	src = bytes.TrimPrefix(src, []byte(bom))
	if len(src) > MaxSourceBytes {
		// Too deep nesting is said first, as of a smaller file: it is
		// the mistake to fix, where the size may only be its consequence.
		if d := scanDepth(filename, string(src)); d != nil {
			return nil, columnsIn(src, Diagnostics{*d})
		}
		return nil, Diagnostics{errorAt(Pos{Filename: filename, Line: 1, Column: 1},
			"file is %d bytes; the limit is %d (%d KiB), far more than a rules file needs", len(src), MaxSourceBytes, MaxSourceBytes>>10)}
	}
	text := []byte(string(src))
	tokens, errs, lexLines, ok := lexRecovering(filename, text)
	if !ok {
		return nil, columnsIn(src, errs)
	}
	if d := checkDepth(tokens); d != nil {
		return nil, Diagnostics{*d}
	}
	if onlyTrivia(tokens) {
		if len(errs) > 0 {
			return nil, columnsIn(src, errs)
		}
		return nil, Diagnostics{errorAt(Pos{Filename: filename, Line: 1, Column: 1},
			"empty file: expected a ruleset, a scenario or sides")}
	}

	if numErrs := checkNumbers(tokens, text); len(numErrs) > 0 {
		errs = append(errs, numErrs...)
		tokens, _ = lex(filename, text) // the numbers were replaced
	}
	file, syntaxErrs, spans, stopped := parseRecovering(filename, text, tokens, lexLines, maxSyntaxErrs-len(errs))
	syntaxErrs = tokenEnds(tokens, atEscapes(tokens, beforeComment(tokens, syntaxErrs)))
	// Where parsing stopped, if it did, comes last, whatever its position.
	last := func(ds Diagnostics) Diagnostics {
		if stopped != nil {
			ds = append(ds, *stopped)
		}
		return ds
	}
	if file == nil {
		return nil, columnsIn(src, last(tidy(append(errs, syntaxErrs...))))
	}
	file.Source = string(src)
	for _, t := range tokens {
		if t.Type == tokComment {
			file.Comments = append(file.Comments, Comment{Span: Span{Pos: t.Pos}, Text: strings.TrimRight(t.Value, " \t\r")})
		}
	}
	errs = append(errs, checkActivations(file)...)
	errs = append(errs, checkExprDice(file)...) // before fillExprSources drops the tokens
	fillExprSources(file, string(text))         // what was parsed: without a bracket recovery removed
	fillEventArgs(file)
	signNegatives(file)
	guardErrs, guarded := checkTieGuards(file)
	errs = append(errs, guardErrs...)
	errs = append(errs, checkRolls(file, guarded)...)
	errs = append(errs, checkFaceValues(file)...)
	errs = append(errs, checkUnitCounts(file)...)
	errs = append(errs, checkAwardNot(file)...)
	errs = append(errs, checkTeamAssign(file)...)
	if len(errs) == 0 && len(syntaxErrs) == 0 {
		return file, nil
	}
	dropBroken(file, errs, spans)
	return file, columnsIn(src, last(tidy(append(errs, syntaxErrs...))))
}

// lexRecovering lexes text, setting aside what no token starts with so
// that the rest of the file is still checked: a run of characters foreign
// to the language, or a string that is not closed (to the end of its
// line, but for the braces that end it and a comment after them, which
// keep the blocks balanced).
// It returns the tokens of what is left, an error for each thing set
// aside, the lines they were on (a parse error on such a line is a
// consequence, not another mistake), and whether it could go on.
//
// After a bracket that is never closed, the rest of the file is lexed as
// the inside of brackets, where '#' does not start a comment: what the
// comments that follow hold (a backtick, an apostrophe) would be reported
// as mistakes. Parsing reports the bracket and removes it, and then they
// are comments again; so an error in what reads as a comment (after a '#'
// on its line), on a later line than such a bracket, is dropped, unless
// some error after the bracket set aside text that held a closing bracket
// (which might have been the one missing).
func lexRecovering(filename string, text []byte) (tokens []lexer.Token, errs Diagnostics, lines map[int]bool, ok bool) {
	var closes []bool // closes[i]: the text set aside for errs[i] held a ")" or "]"
	for {
		tokens, ds := lex(filename, text)
		if ds == nil {
			errs, lines = dropInsideUnclosed(text, tokens, errs, closes, lines)
			return tokens, errs, lines, true
		}
		d := ds[0]
		if len(errs) >= maxSyntaxErrs {
			return nil, append(errs, errorAt(d.Pos, "too many errors: the rest of the file is not checked")), nil, false
		}
		errs = append(errs, d)
		start := d.Pos.Offset
		if start < 0 || start >= len(text) {
			return nil, errs, nil, false
		}
		if lines == nil {
			lines = map[int]bool{}
		}
		lines[d.Pos.Line] = true
		end := foreignEnd(text, start)
		closes = append(closes, bytes.ContainsAny(text[start:end], ")]"))
		blank(text, start, end)
	}
}

// dropInsideUnclosed drops the lexical errors that are only errors because
// a bracket on an earlier line is never closed: see lexRecovering.
func dropInsideUnclosed(text []byte, tokens []lexer.Token, errs Diagnostics, closes []bool, lines map[int]bool) (Diagnostics, map[int]bool) {
	open := unclosed(tokens)
	if open == nil || len(errs) == 0 {
		return errs, lines
	}
	for i, d := range errs {
		if d.Pos.Offset > open.Pos.Offset && closes[i] {
			return errs, lines // the bracket's ")" may be in what was set aside
		}
	}
	kept := errs[:0]
	for _, d := range errs {
		lineStart := bytes.LastIndexByte(text[:d.Pos.Offset], '\n') + 1
		inComment := bytes.IndexByte(text[lineStart:d.Pos.Offset], '#') >= 0
		if d.Pos.Offset > open.Pos.Offset && d.Pos.Line > open.Pos.Line && inComment {
			continue
		}
		kept = append(kept, d)
	}
	if len(kept) == 0 {
		return nil, nil
	}
	lines = map[int]bool{}
	for _, d := range kept {
		lines[d.Pos.Line] = true
	}
	return kept, lines
}

// foreignEnd returns where the text set aside from start ends: see
// lexRecovering. It is always past start.
func foreignEnd(text []byte, start int) int {
	if text[start] == '`' { // a Go or Markdown habit: one mistake to the next backtick
		line := text[start+1:]
		if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		if i := bytes.IndexByte(line, '`'); i >= 0 {
			return start + 1 + i + 1
		}
	}
	if c := text[start]; c == '"' || c == '\'' {
		body := text[start+1:]
		if nl := bytes.IndexByte(body, '\n'); nl >= 0 {
			body = body[:nl]
		}
		// What the author meant for a comment is one, so that the braces
		// before it (the line's own) are kept.
		if i := bytes.Index(body, []byte(" #")); i >= 0 {
			body = body[:i]
		}
		keep := len(body)
		for keep > 0 && strings.IndexByte("{} \t\r", body[keep-1]) >= 0 {
			keep--
		}
		// But a "}" that closes a "{" in the string is text.
		depth := 0
		for _, b := range body[:keep] {
			switch {
			case b == '{':
				depth++
			case b == '}' && depth > 0:
				depth--
			}
		}
		for keep < len(body) && depth > 0 && body[keep] != '{' {
			if body[keep] == '}' {
				depth--
			}
			keep++
		}
		return start + 1 + keep
	}
	end := start
	for end < len(text) {
		r, size := utf8.DecodeRune(text[end:])
		if end > start && r < utf8.RuneSelf && !strings.ContainsRune("@$~`\\", r) && (r >= ' ' || r == '\t' || r == '\n' || r == '\r') {
			break
		}
		end += size
	}
	return end
}

// columnsIn recomputes each diagnostic's column from its offset in src.
// Recovery replaces text by spaces byte for byte, which keeps offsets and
// lines true, but a character of several bytes becomes several columns.
// beforeComment moves an error at the end of a line that ends with a
// comment to just after the line's last token, where what is missing
// belongs, rather than after the comment.
func beforeComment(tokens []lexer.Token, ds Diagnostics) Diagnostics {
	for i := range ds {
		k := tokenIndex(tokens, ds[i].Pos.Offset)
		if k < 0 || tokens[k].Type != tokEOL {
			continue
		}
		j, comment := k-1, false
		for ; j >= 0 && spacing(tokens[j]); j-- {
			comment = comment || tokens[j].Type == tokComment
		}
		if comment && j >= 0 && tokens[j].Type != tokEOL {
			ds[i].Pos.Offset = tokens[j].Pos.Offset + len(tokens[j].Value)
		}
	}
	return ds
}

func columnsIn(src []byte, ds Diagnostics) Diagnostics {
	for i := range ds {
		for _, p := range []*Pos{&ds[i].Pos, &ds[i].End} {
			if p.Offset <= 0 || p.Offset > len(src) {
				continue
			}
			start := bytes.LastIndexByte(src[:p.Offset], '\n') + 1
			p.Column = utf8.RuneCount(src[start:p.Offset]) + 1
		}
	}
	return ds
}

// tokenEnds gives each syntax error that blames a token (a word, a
// number, a symbol; not an end of line) the end of that token as its End,
// for an editor to underline it.
func tokenEnds(tokens []lexer.Token, ds Diagnostics) Diagnostics {
	for i := range ds {
		d := &ds[i]
		k := tokenIndex(tokens, d.Pos.Offset)
		if d.End.Line != 0 || k < 0 {
			continue
		}
		t := tokens[k]
		if t.Type == tokEOL || spacing(t) || strings.Contains(t.Value, "\n") {
			continue
		}
		d.End = Pos{Filename: d.Pos.Filename, Line: t.Pos.Line, Column: t.Pos.Column + utf8.RuneCountInString(t.Value),
			Offset: t.Pos.Offset + len(t.Value)}
	}
	return ds
}

// parseRecovering parses text, recovering from syntax errors as Parse
// describes. It returns the file parsed from what was left (nil if it gave
// up), the errors, the spans of text it set aside (a bracket it removed
// counts as a span of one byte), and, if it stopped before the end, a last
// diagnostic saying so. budget is how many errors it may report: what the
// file's characters left of maxSyntaxErrs.
func parseRecovering(filename string, text []byte, tokens []lexer.Token, quiet map[int]bool, budget int) (f *File, errs Diagnostics, spans [][2]int, stopped *Diagnostic) {
	seen := map[Diagnostic]bool{}
	bracketLines := map[int]bool{} // lines with an unclosed bracket, reported and removed
	relex := func() bool {
		var ds Diagnostics
		tokens, ds = lex(filename, text)
		return ds == nil // blanking never breaks a token, but be safe
	}
	parsed := 0
	// header is a block's opening line cut short at its error, to check
	// the block's statements too; held until the next parse shows whether
	// the cut line still reads as a header.
	var header *headerCut
	for {
		f, err := parser.ParseBytes(filename, text)
		if err == nil {
			return f, errs, spans, nil
		}
		parsed += len(text)
		d := explain(refine(fromParseError(filename, err), tokens, text), tokens)
		if h := header; h != nil {
			header = nil
			if d.Pos.Offset >= h.start && d.Pos.Offset <= h.brace {
				// The line does not read as a header even without the
				// mistake. This error is a consequence of the cut, not the
				// author's: cut the line back to its statement's word and
				// name, if that is shorter, or else set the whole
				// statement aside after all.
				copy(text[h.cut:h.brace], h.saved)
				if h.least > 0 && h.least < h.cut {
					header = &headerCut{start: h.start, cut: h.least, brace: h.brace, end: h.end,
						saved: slices.Clone(text[h.least:h.brace])}
					spans[len(spans)-1] = [2]int{h.least, h.brace}
					blank(text, h.least, h.brace)
				} else {
					spans[len(spans)-1] = [2]int{h.start, h.end}
					blank(text, h.start, h.end)
				}
				if !relex() {
					return nil, errs, spans, nil
				}
				continue
			}
		}
		if seen[d] {
			return nil, errs, spans, nil // no progress: the same error again
		}
		if line, ok := continuedLine(d, tokens); ok {
			// What the broken expression goes on to is not another mistake.
			if quiet == nil {
				quiet = map[int]bool{}
			}
			quiet[line] = true
		}
		// Say so when stopping, or the author would take the list for all
		// there is.
		if len(errs) >= budget {
			stop := errorAt(d.Pos, "too many errors: the rest of the file is not checked")
			return nil, errs, spans, &stop
		}
		if parsed > recoveryBytes {
			stop := errorAt(d.Pos, "the file is too large to look for more errors after these: fix them and check again")
			return nil, errs, spans, &stop
		}
		seen[d] = true
		if open := unclosed(tokens); open != nil && open.Pos == d.Pos {
			// Everything after an unclosed bracket is inside it. Report
			// it (unless its line lost text to a lexical error, which may
			// have held the closing bracket), remove it, and parse the
			// rest of the file as written.
			if !quiet[d.Pos.Line] {
				errs = append(errs, d)
			}
			text[open.Pos.Offset] = ' '
			spans = append(spans, [2]int{open.Pos.Offset, open.Pos.Offset + 1})
			bracketLines[open.Pos.Line] = true
			if !relex() {
				return nil, errs, spans, nil
			}
			continue
		}
		if (bracketLines[d.Pos.Line] || quiet[d.Pos.Line]) && blankLine(text, d.Pos.Offset) {
			if !relex() {
				return nil, errs, spans, nil
			}
			continue // what is left of that line after its bracket went
		}
		if !quiet[d.Pos.Line] {
			errs = append(errs, d)
		}
		start, end, ok := stmtSpan(tokens, d.Pos.Offset)
		if !ok {
			start, end, ok = declSpan(tokens, d.Pos.Offset)
			if ok && !balanced(tokens) && !declStart(tokens, end) {
				// A brace is missing or one too many, and no declaration
				// starts where this one was cut off: what follows is the
				// remains of the broken structure, and any error in it
				// would be a consequence of this one. Leave it unchecked.
				end = len(text)
			}
		}
		if !ok {
			return nil, errs, spans, nil
		}
		if brace := openingBrace(tokens, start, end); brace != nil && brace.Pos.Line == d.Pos.Line &&
			brace.Pos.Offset >= d.Pos.Offset && d.Pos.Offset > start && end <= len(text) {
			// The mistake is on the line that opens a block, as in
			// `phase p each round oops {`: cut the line from the mistake
			// to its "{", so that the block's statements are checked too.
			// A mistake at the "{" itself, such as a scope left
			// unfinished (`phase p each {`), is cut from after the
			// statement's name.
			least := headerLeast(tokens, start, brace.Pos.Offset)
			cut := d.Pos.Offset
			if cut == brace.Pos.Offset {
				cut = least
			}
			if cut > start && cut < brace.Pos.Offset {
				header = &headerCut{start: start, cut: cut, brace: brace.Pos.Offset, end: end, least: least,
					saved: slices.Clone(text[cut:brace.Pos.Offset])}
				start, end = cut, brace.Pos.Offset
			}
		}
		// Blank out the broken statement or declaration, keeping newlines
		// so every position after it stays true, and parse again.
		blank(text, start, end)
		spans = append(spans, [2]int{start, end})
		if !relex() {
			return nil, errs, spans, nil
		}
	}
}

// headerCut is the opening line of a block statement, text[start:end],
// blanked from cut to its "{" at brace; saved is what was there. least,
// if not 0, is where the line can be cut at the shortest: after the
// statement's word and name (headerLeast).
type headerCut struct {
	start, cut, brace, end, least int
	saved                         []byte
}

// headerWords is how many words open each kind of block before what is
// optional (a scope, a title, a team, a guard): the shortest line that
// still opens it, `phase p {`, `order sides as o {`, `tie {`.
var headerWords = map[string]int{"ruleset": 2, "phase": 2, "step": 2, "order": 4, "tie": 1,
	"side": 2, "scenario": 2, "round": 2}

// headerLeast returns the offset just after the words that open the
// block whose statement starts at start and whose "{" is at brace, as
// headerWords counts them, or 0 if the line has no more than those words
// (nothing to cut) or is no such block. Whether what is left reads as the
// block's opening is for the next parse to tell: it is not checked here.
func headerLeast(tokens []lexer.Token, start, brace int) int {
	n, end := 0, 0
	want := 0
	for _, t := range tokens {
		if t.Pos.Offset < start || spacing(t) {
			continue
		}
		if t.Pos.Offset >= brace || t.Type == tokEOL {
			break
		}
		if n == 0 {
			want = headerWords[t.Value]
			if want == 0 || t.Type != tokIdent {
				return 0
			}
		}
		if n++; n == want {
			end = t.Pos.Offset + len(t.Value)
		} else if n > want {
			return end // a word after them: the line can be cut there
		}
	}
	return 0
}

// openingBrace returns the "{" that opens the block of the statement
// text[start:end], or nil if it has none: the first one outside brackets.
func openingBrace(tokens []lexer.Token, start, end int) *lexer.Token {
	brackets := 0
	for i := range tokens {
		t := &tokens[i]
		if t.Pos.Offset < start || spacing(*t) {
			continue
		}
		if t.Pos.Offset >= end {
			break
		}
		switch {
		case t.Type == tokOpen:
			brackets++
		case t.Type == tokClose:
			brackets--
		case brackets == 0 && t.Type == tokOp && t.Value == "{":
			return t
		case brackets == 0 && t.Type == tokOp && t.Value == "}":
			return nil
		}
	}
	return nil
}

// blank replaces text[start:end] by spaces, keeping its newlines.
func blank(text []byte, start, end int) {
	for i := start; i < end && i < len(text); i++ {
		if text[i] != '\n' {
			text[i] = ' '
		}
	}
}

// tidy sorts diagnostics into source order and drops repeats.
func tidy(ds Diagnostics) Diagnostics {
	ds.Sort()
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && d == ds[i-1] {
			continue
		}
		if nd, ok := applyHints(finished, newHintSite(d, nil, nil)); ok {
			d = nd
		}
		out = append(out, d)
	}
	return out
}

var (
	expectedWords = regexp.MustCompile(`^unexpected "([A-Za-z_]\w*)" \(expected ((?:"\w+"(?:, | or )?)+)\)$`)
	quotedWord    = regexp.MustCompile(`"(\w+)"`)
)

// meantOfExpected is the hint for msg, a grammar's `unexpected "choose"
// (expected "chooses" or "is")`, that names the word listed that the one
// written is a typo of (`activation alternating`, `order side as`), or "".
func meantOfExpected(msg string) string {
	m := expectedWords.FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	var words []string
	for _, w := range quotedWord.FindAllStringSubmatch(m[2], -1) {
		words = append(words, w[1])
	}
	if s := Suggest(m[1], words); s != "" && s != m[1] {
		return fmt.Sprintf("did you mean %s?", s)
	}
	return ""
}

// dropBroken removes from f every declaration that holds one of errs or
// overlaps a span that recovery set aside. What is left of one (a
// statement set aside, a bracket removed, bad dice) would only make a
// compiler report the same mistake again in other words, or report its
// consequences. A syntax error is not itself a reason: one that says a "}"
// is missing is placed on the next declaration, which is whole.
func dropBroken(f *File, errs Diagnostics, spans [][2]int) {
	kept := f.Decls[:0]
	for _, d := range f.Decls {
		var from, to Pos
		switch d := d.(type) {
		case *Ruleset:
			from, to = d.Pos(), d.End()
		case *Scenario:
			from, to = d.Pos(), d.End()
		case *SideSetup:
			from, to = d.Pos(), d.End()
		}
		broken := slices.ContainsFunc(spans, func(s [2]int) bool { return s[0] < to.Offset && s[1] > from.Offset })
		for _, e := range errs {
			if e.Severity == Error && e.Pos.Offset >= from.Offset && e.Pos.Offset < to.Offset {
				broken = true
				break
			}
		}
		if !broken {
			kept = append(kept, d)
		}
	}
	f.Decls = kept
}

func lex(filename string, src []byte) ([]lexer.Token, Diagnostics) {
	text := string(src)
	// Count the tokens first, so that they are stored once: grown by
	// append, the tokens of a large file were a good part of all a parse
	// allocated. Lexing is cheap next to that, and a lexical error (which
	// recovery lexes the file again for) is found without storing any.
	n := 0
	count := &scanner{src: text}
	for count.pos.Offset < len(text) {
		_, size := count.scan(text[count.pos.Offset:])
		if size == 0 {
			break
		}
		count.pos.Offset += size
		n++
	}
	lx, err := rulesLexer.LexString(filename, text)
	if err != nil {
		return nil, Diagnostics{fromParseError(filename, err)}
	}
	out := make([]lexer.Token, 0, n)
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
		case tokComment, tokWhitespace, tokEOL:
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
		if d := nest(t, &depth); d != nil {
			return d
		}
	}
	return nil
}

// scanDepth is checkDepth for a file too large to be lexed into tokens:
// it goes through the tokens without keeping them, stepping over what no
// token starts.
func scanDepth(filename string, text string) *Diagnostic {
	s := &scanner{src: text, pos: lexer.Position{Filename: filename, Line: 1, Column: 1}}
	depth := 0
	for s.pos.Offset < len(text) {
		t, err := s.Next()
		if err != nil {
			s.pos.Offset++
			continue
		}
		if d := nest(t, &depth); d != nil {
			return d
		}
	}
	return nil
}

// nest counts the brackets and braces that t opens or closes in depth, and
// returns an error if it opens one too deep.
func nest(t lexer.Token, depth *int) *Diagnostic {
	if t.Type != tokOp && t.Type != tokOpen && t.Type != tokClose {
		return nil
	}
	switch t.Value {
	case "{", "(", "[":
		if *depth++; *depth > MaxDepth {
			d := errorAt(t.Pos, "nesting is deeper than %d levels", MaxDepth)
			return &d
		}
	case "}", ")", "]":
		if *depth > 0 {
			*depth--
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
		if t.Type == tokEOL && depth == 0 && start >= 0 && declStart(tokens, t.Pos.Offset) {
			// A declaration without a block (a setup file's `side Jay`)
			// ends at the end of its line when another starts on the
			// next, so that an error in it does not swallow the next.
			if offset >= start && offset <= t.Pos.Offset {
				return start, t.Pos.Offset, true
			}
			start = -1
			continue
		}
		if t.Type == tokComment || t.Type == tokWhitespace || t.Type == tokEOL {
			continue
		}
		if depth == 0 && start < 0 {
			start = t.Pos.Offset
		}
		if t.Type == tokOp {
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
		if depth > 0 && t.Type == tokIdent && (t.Value == "ruleset" || t.Value == "scenario") &&
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
		case tokWhitespace:
			continue
		case tokEOL:
			return true
		default:
			return false
		}
	}
	return true
}

// fromParseError turns an error of participle's, or of the lexer's, into
// a diagnostic in a rule author's words. It works from what the errors
// hold as data (the token participle did not expect, the lexer's text,
// a bad escape); what participle expected instead is only in its message,
// which participleExpected reads.
func fromParseError(filename string, err error) Diagnostic {
	var (
		perr   participle.Error
		lexErr *lexError
		escErr *escapeError
		unexp  *participle.UnexpectedTokenError
	)
	if !errors.As(err, &perr) {
		return errorAt(Pos{Filename: filename, Line: 1, Column: 1}, "%s", err.Error())
	}
	pos := perr.Position()
	if pos.Filename == "" {
		pos.Filename = filename
	}
	if pos.Line == 0 {
		pos.Line, pos.Column = 1, 1
	}
	switch {
	case errors.As(err, &lexErr):
		return lexDiagnostic(pos, lexErr.sample)
	case errors.As(err, &escErr):
		// Placed at the escape itself by atEscapes.
		return errorAt(pos, "%s", escErr.message()).WithHint("%s", escapeHint(escErr.esc))
	case errors.As(err, &unexp):
		msg := "unexpected " + unexpectedWords(unexp.Unexpected)
		if grammar, ok := participleExpected(unexp); ok {
			msg += " " + friendlyExpected(grammar)
		}
		return errorAt(pos, "%s", msg)
	}
	return errorAt(pos, "%s", friendlyGrammar(perr.Message()))
}

// unexpectedWords names the token a parse did not expect.
func unexpectedWords(t lexer.Token) string {
	switch {
	case t.EOF():
		return "end of file"
	case t.Type == tokEOL && t.Value == "\n":
		return "end of line"
	}
	return strconv.Quote(t.Value)
}

// friendlyExpected says "(expected GRAMMAR)" with the words that could
// start GRAMMAR, in a rule author's words.
func friendlyExpected(grammar string) string {
	return friendlyGrammar(shortenExpected("(expected " + grammar + ")"))
}

// lexDiagnostic says where no token starts, from sample, the text there:
// quoting the rest of the file says nothing a rule author can use.
func lexDiagnostic(pos Pos, sample string) Diagnostic {
	switch {
	case sample == "":
		return errorAt(pos, "lexer: invalid input text %q", sample)
	case sample[0] == '"':
		return errorAt(pos, "this string is not closed (a string ends with \" on the same line)")
	case sample[0] == '\'':
		return errorAt(pos, "this string is not closed (a string in single quotes ends with ' on the same line)")
	case sample[0] == '`':
		return errorAt(pos, "unexpected '`'").WithHint("write a string in double quotes")
	}
	r, _ := utf8.DecodeRuneInString(sample)
	if strings.ContainsRune("“”„«»‘’‚", r) {
		// Copied from a rulebook, whose quotes are typographic.
		return errorAt(pos, "unexpected %q, a typographic quote", r).WithHint(`write a string in straight double quotes, "..."`)
	}
	return errorAt(pos, "unexpected %q", r).WithHint("no name, number or symbol of the language starts with it")
}

// fillExprSources sets Expr.Source to the exact text of each expression.
func fillExprSources(f *File, src string) {
	Walk(f, func(n Node) {
		e, ok := n.(*Expr)
		if !ok || len(e.Tokens) == 0 {
			return
		}
		first, last := -1, -1
		for i, t := range e.Tokens {
			if spacing(t) || t.Type == tokEOL {
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
		e.Span.Pos = e.Tokens[first].Pos
		e.Source = src[from:to]
		e.Tokens = nil
	})
}

// fillEventArgs sets where the kind and each argument of an `expect
// event`, and of each line of `expect events exactly`, are written, from
// the tokens it was parsed from (the kind follows `event`, or begins the
// line; the arguments follow the kind, up to `by`), and drops the tokens.
func fillEventArgs(f *File) {
	Walk(f, func(n Node) {
		switch e := n.(type) {
		case *EventExpect:
			if len(e.Tokens) > 0 {
				e.KindPos, e.ArgPos = eventArgs(e.Tokens, "event", len(e.Args))
				e.Tokens = nil
			}
		case *EventLine:
			if len(e.Tokens) > 0 {
				e.KindPos, e.ArgPos = eventArgs(e.Tokens, "", len(e.Args))
				e.Tokens = nil
			}
		}
	})
}

// signNegatives moves a scripted negative face or card (NameInt.Neg, a
// chaos bag's -1) into Value: it is a number like any other.
func signNegatives(f *File) {
	Walk(f, func(n Node) {
		if e, ok := n.(*NameInt); ok && e.Neg != nil {
			e.Value, e.Neg = -*e.Neg, nil
		}
	})
}

// eventArgs finds, in the tokens of an event expectation, where its kind
// is (after the word after, or first if after is "") and where each of
// its n arguments is.
func eventArgs(tokens []lexer.Token, after string, n int) (kind Pos, args []Pos) {
	var words []lexer.Token
	for _, t := range tokens {
		if !spacing(t) && t.Type != tokEOL {
			words = append(words, t)
		}
	}
	k := -1
	if after != "" {
		k = slices.IndexFunc(words, func(t lexer.Token) bool { return t.Value == after })
		if k < 0 {
			return Pos{}, nil
		}
	}
	if k+1 < len(words) {
		kind = words[k+1].Pos
	}
	for _, t := range words[min(k+2, len(words)):] {
		if len(args) == n {
			break
		}
		args = append(args, t.Pos)
	}
	return kind, args
}
