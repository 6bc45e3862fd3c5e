package dsl

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Checks that the grammar cannot make: numbers that do not fit, and dice.

// checkNumbers reports every whole number too large for an int, wherever it
// is, and replaces it in text by a small one (padded with spaces, so every
// position stays true). Left in, such a number makes participle fail while
// storing it, with Go's strconv message at the wrong token, or backtrack
// and report a token that is fine; an expression would fail in expr-lang
// with a caret after it.
func checkNumbers(tokens []lexer.Token, text []byte) Diagnostics {
	var out Diagnostics
	if !slices.ContainsFunc(tokens, func(t lexer.Token) bool { return t.Type == tokInt && len(t.Value) >= len("9223372036854775807") }) {
		return nil // no number that may be too large: no need for the copy below
	}
	// The tokens that mean something, to see what is around a number.
	var sig []lexer.Token
	for _, t := range tokens {
		if t.Type != tokWhitespace && t.Type != tokComment {
			sig = append(sig, t)
		}
	}
	for i, t := range sig {
		if t.Type != tokInt {
			continue
		}
		if _, err := strconv.Atoi(t.Value); errors.Is(err, strconv.ErrRange) {
			if neg, ok := attrValue(sig, i); ok {
				// The limit that matters is the attribute's, which a
				// smaller number (9007199254740993) is told, not int's,
				// unless the attribute holds no number at all.
				number := t.Value
				eq := i - 1
				if neg {
					number, eq = "-"+number, eq-1
				}
				if what, typ := attrTypeAt(sig, eq); typ == "string" || typ == "bool" {
					out = append(out, errorAt(t.Pos, "%s: %s", what, notANumber(typ, number)))
				} else {
					out = append(out, errorAt(t.Pos, "%s", attrRange(number)))
				}
			} else if name, ok := unitCountOf(sig, i); ok {
				// Say the range that matters here, as a count in range
				// too large is told (checkUnitCounts), not int's.
				out = append(out, errorAt(t.Pos, "unit %s * %s: the count of units is 1 to %d", name, t.Value, MaxUnitCount))
			} else {
				out = append(out, errorAt(t.Pos, "this number is too large (the largest is %d)", math.MaxInt))
			}
			text[t.Pos.Offset] = '1'
			blank(text, t.Pos.Offset+1, t.Pos.Offset+len(t.Value))
		}
	}
	return out
}

// attrRange says that number, as written, is beyond what an int attribute
// holds: -2^53 to 2^53, where criteria compare numbers exactly. The
// runtime says it of a smaller number out of range (9007199254740993) in
// the same words; a test in cmd/turnorder keeps them the same.
func attrRange(number string) string {
	return fmt.Sprintf("%s is out of range for a whole-number attribute, which holds -2^53 to 2^53 (9007199254740992), the numbers criteria compare exactly", number)
}

// notANumber says that number, as written, is no value of an attribute
// of type typ (string or bool), in the compiler's words for a smaller
// number (literalValue in runtime): a string attribute's is quoted.
func notANumber(typ, number string) string {
	if typ == "bool" {
		return "want true or false, got " + number
	}
	// The runtime's literalValue says it of a number in range, in the
	// same words.
	return fmt.Sprintf("want a string (in quotes, or a word), got %s: a number for a string attribute must be quoted, %q", number, number)
}

// attrTypeAt returns, for the "=" at sig[eq] of an attribute's value, what
// the value is of as the compiler names it (`default of name`, `attribute
// name`) and the attribute's declared type, if the file declares it with
// one type only: a declaration's own (`side attribute name string =
// N`), or for a value set elsewhere (`name = N`, `set name of Jay = N`)
// that of the declarations of its name in the file. It returns "" for the
// type where the file does not say.
func attrTypeAt(sig []lexer.Token, eq int) (what, typ string) {
	first := eq
	for first > 0 && sig[first-1].Type != tokEOL && !(sig[first-1].Type == tokOp && (sig[first-1].Value == "{" || sig[first-1].Value == "}")) {
		first--
	}
	word := func(k int) string {
		if k < 0 || k >= len(sig) {
			return ""
		}
		return sig[k].Value
	}
	if (word(first) == "side" || word(first) == "unit") && word(first+1) == "attribute" && first+4 == eq {
		return "default of " + word(first+2), word(first + 3)
	}
	name := word(eq - 1)
	if word(first) == "set" {
		name = word(first + 1)
	} else if eq < 1 || sig[eq-1].Type != tokIdent {
		return "", ""
	}
	for k := 0; k+3 < len(sig); k++ {
		if sig[k].Value == "attribute" && sig[k+1].Value == name && sig[k+2].Type == tokIdent && (word(k-1) == "side" || word(k-1) == "unit") {
			switch t := sig[k+2].Value; {
			case typ == "":
				typ = t
			case typ != t:
				return "", "" // declared twice, of two types
			}
		}
	}
	return "attribute " + name, typ
}

// attrValue reports whether the number sig[i] is the whole value of an
// attribute (`agi = N`, `set agi of Jay = -N`, an attribute's default),
// and whether a minus sign precedes it: `=`, perhaps `-`, the number, and
// the end of the value (a line's, a block's, or the "{" of `side Jay agi
// = N {`), in a statement other than `remember`, `holder =`
// and `expect event ... = N` (whose numbers are of no attribute).
func attrValue(sig []lexer.Token, i int) (neg, ok bool) {
	op := func(k int, v string) bool {
		return k >= 0 && k < len(sig) && sig[k].Type == tokOp && sig[k].Value == v
	}
	eq := i - 1
	if op(eq, "-") {
		neg, eq = true, eq-1
	}
	if !op(eq, "=") {
		return false, false
	}
	if next := i + 1; next < len(sig) && sig[next].Type != tokEOL && sig[next].Type != tokIdent && !op(next, "}") && !op(next, "{") {
		return false, false // more of an expression follows
	}
	first := eq
	for first > 0 && sig[first-1].Type != tokEOL && !op(first-1, "{") {
		first--
	}
	if v := sig[first].Value; v == "remember" || v == "holder" || v == "expect" {
		return false, false
	}
	return neg, true
}

// unitCountOf reports whether the number sig[i] is the count of a unit
// setup, `unit NAME * N`, and the unit's name as written.
func unitCountOf(sig []lexer.Token, i int) (string, bool) {
	if i < 3 || sig[i-1].Type != tokOp || sig[i-1].Value != "*" || sig[i-3].Value != "unit" {
		return "", false
	}
	if name := sig[i-2]; name.Type == tokIdent || name.Type == tokString {
		return name.Value, true
	}
	return "", false
}

// Dice limits: NdS is N dice (1 to 100) of S sides (1 to 1000).
const (
	maxDice  = 100
	maxFaces = 1000
)

// anyDiceRE matches dice in either case: rulebooks write D6 and 2D6.
var anyDiceRE = regexp.MustCompile(`^([0-9]*)[dD]([0-9]+)$`)

// checkExprDice reports dice inside expressions. Dice are rolled only by a
// roll criterion; in an expression, `d6` is a name that cannot exist (no
// attribute can be called that), so the compiler would only say "unknown
// name". It needs each Expr's tokens, so it runs before fillExprSources.
func checkExprDice(f *File) Diagnostics {
	var out Diagnostics
	checked := map[*Expr]bool{}
	report := func(e *Expr, msg func(dice string) string) {
		if e == nil || checked[e] {
			return
		}
		checked[e] = true
		for _, t := range e.Tokens {
			if t.Type == tokDice {
				out = append(out, errorAt(t.Pos, "%s", msg(strings.ToLower(t.Value))))
				return
			}
		}
	}
	Walk(f, func(n Node) {
		switch n := n.(type) {
		case *AwardCrit:
			if awardsRoll(n) {
				// `award lowest roll d6`: a roll criterion awarded,
				// which the compiler explains (AwardOfCriterion) with
				// the line meant, rather than the dice in it.
				checked[n.Expr] = true
			}
		case *ValueCrit:
			report(n.Expr, func(dice string) string {
				return fmt.Sprintf("dice are rolled with `roll`: write `%s roll %s`", n.Dir, dice)
			})
		case *RollCrit:
			if n.Modifier != nil && !signedTokens(n.Modifier.Tokens) {
				// Not a modifier but mangled dice, such as "(d6)":
				// checkRolls reports the roll as a whole.
				checked[n.Modifier] = true
				return
			}
			report(n.Modifier, func(string) string {
				return "a roll's modifier cannot roll dice: roll them all at once, as in 2d6"
			})
		case *Expr:
			report(n, func(dice string) string {
				return "dice are rolled only by a criterion such as `highest roll " + dice + "`"
			})
		}
	})
	return out
}

// awardsRoll reports whether a is an award of a roll criterion, as
// criterionMeant reads one: `award lowest roll d6`, `award lowest(d6)`,
// `award lowest d6 + 1`, perhaps with a guard after it.
func awardsRoll(a *AwardCrit) bool {
	if a.Expr == nil || len(a.Expr.Parts) < 2 {
		return false
	}
	p := a.Expr.Parts
	if !isDirection(p[0].Tok) {
		return false
	}
	if k := slices.IndexFunc(p, func(x *exprPart) bool { return x.Tok == "when" || x.Tok == "if" }); k > 1 {
		p = p[:k] // a guard after it, which checkTieGuards reports
	}
	return p[1].Tok == "roll" || anyDiceRE.MatchString(p[1].Tok) || len(p) == 2 && p[1].Group != nil && p[1].Group.Paren != nil
}

// signedTokens reports whether an expression's first token is + or -.
func signedTokens(tokens []lexer.Token) bool {
	for _, t := range tokens {
		switch t.Type {
		case tokWhitespace, tokComment, tokEOL:
			continue
		}
		return t.Value == "+" || t.Value == "-"
	}
	return false
}

// checkRolls reports rolls whose dice are not NdS, and modifiers that do
// not start with + or -. The grammar takes any word after "roll" so that
// `highest roll 6d` is an error about dice, not an expression called
// "roll 6d"; a bad roll's message quotes it as written. Dice written in
// capitals, as rulebooks do, are made lowercase, the form the runtime and
// the formatter use. The modifier of a roll in guarded, a tie rule's whose
// guard is written after it, is that guard: checkTieGuards reports it.
func checkRolls(f *File, guarded map[*RollCrit]bool) Diagnostics {
	var out Diagnostics
	dice := declaredDice(f)
	Walk(f, func(n Node) {
		r, ok := n.(*RollCrit)
		if !ok || dice[r.Dice] {
			// A declared die's roll is the compiler's to check.
			return
		}
		pos := dicePos(f.Source, r)
		signed := r.Modifier == nil || guarded[r] || strings.HasPrefix(r.Modifier.Source, "+") || strings.HasPrefix(r.Modifier.Source, "-")
		written := r.Dice
		if !signed {
			// The roll as written, from the dice to the end of the modifier.
			written = r.Dice + " " + r.Modifier.Source
			if end := r.Modifier.Pos().Offset + len(r.Modifier.Source); pos.Offset <= end && end <= len(f.Source) {
				written = f.Source[pos.Offset:end]
			}
		}
		m := anyDiceRE.FindStringSubmatch(r.Dice)
		switch {
		case written == "":
			out = append(out, errorAt(pos, "roll needs dice, such as d6 or 2d6"))
		case m != nil && !signed:
			out = append(out, errorAt(pos, "bad roll %q: a roll's modifier can only be + or - an expression, such as %s + 1",
				written, strings.ToLower(r.Dice)))
		case m == nil:
			if fix := fixDice(written); fix != "" {
				out = append(out, errorAt(pos, "bad dice %q: write %s", written, fix))
			} else if meant := Suggest(written, slices.Sorted(maps.Keys(dice))); meant != "" {
				// A declared die's name misspelt: say so, not how to write NdS.
				out = append(out, errorAt(pos, "bad dice %q: no die, deck or bag is called %s; did you mean %s? (or write NdS, such as d6 or 2d6)", written, written, meant))
			} else {
				out = append(out, errorAt(pos, "bad dice %q: write NdS (N dice of S sides), such as d6 or 2d6", written))
			}
		case !diceInRange(m):
			out = append(out, errorAt(pos, "bad dice %q: roll 1 to %d dice of 1 to %d sides, such as d6 or 2d6",
				written, maxDice, maxFaces))
		default:
			r.Dice = strings.ToLower(r.Dice)
		}
	})
	return out
}

// fixDice returns the dice that a mangled roll was meant to be, written in
// spaces or brackets ("d 6", "(d6)"), or "" if it cannot tell.
func fixDice(written string) string {
	s := strings.Join(strings.Fields(written), "")
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = s[1 : len(s)-1]
	}
	if m := anyDiceRE.FindStringSubmatch(s); m != nil && diceInRange(m) {
		return strings.ToLower(s)
	}
	return ""
}

// diceInRange reports whether dice matched by anyDiceRE are within limits.
func diceInRange(m []string) bool {
	n := 1 // "d6" is one die
	if m[1] != "" {
		var err error
		if n, err = strconv.Atoi(m[1]); err != nil {
			return false
		}
	}
	faces, err := strconv.Atoi(m[2])
	return err == nil && n >= 1 && n <= maxDice && faces >= 1 && faces <= maxFaces
}

// dicePos is where a roll's dice are (or should be): after the word roll.
func dicePos(src string, r *RollCrit) Pos {
	pos := r.Pos()
	i := strings.Index(src[r.Pos().Offset:], "roll")
	if i < 0 {
		return pos
	}
	off := r.Pos().Offset + i + len("roll")
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	pos.Column += off - r.Pos().Offset
	pos.Offset = off
	return pos
}

// MaxUnitCount bounds `unit NAME * N`: more is not a tabletop battle.
const MaxUnitCount = 1000

// checkUnitCounts reports `unit NAME * N` with N out of range, which would
// otherwise make no units, or fewer than written.
func checkUnitCounts(f *File) Diagnostics {
	var out Diagnostics
	Walk(f, func(n Node) {
		if u, ok := n.(*UnitSetup); ok && u.Count != nil && (*u.Count < 1 || *u.Count > MaxUnitCount) {
			out = append(out, errorAt(u.Pos(), "unit %s * %d: the count of units is 1 to %d", u.Name, *u.Count, MaxUnitCount))
		}
	})
	return out
}

// checkActivations moves a default written before `pass allowed` into
// Default, where the one written after goes, and reports what the grammar
// reads but the author did not mean: a default written in both places,
// and one written after a condition on passing. A condition runs to the
// end of the line, so `pass allowed when EXPR default last` takes
// `default last` for the end of EXPR, which expr-lang would report as an
// unexpected name. It needs each Expr's tokens, so it runs before
// fillExprSources.
func checkActivations(f *File) Diagnostics {
	var out Diagnostics
	Walk(f, func(n Node) {
		s, ok := n.(*ActivationStmt)
		if !ok {
			return
		}
		if s.PassWhen != nil {
			if d, ok := trailingDefault(s); ok {
				out = append(out, d)
			}
		}
		if s.DefaultFirst == nil {
			return
		}
		if s.Default != nil {
			out = append(out, errorAt(s.Default.Pos(), "activation has two defaults, `default %s` and `default %s` (keep one)",
				s.DefaultFirst, s.Default))
			return
		}
		s.Default, s.DefaultFirst = s.DefaultFirst, nil
	})
	return out
}

// byClause is ` by NAME` for an activation's order, or "" when it has
// none.
func byClause(by *Ident) string {
	if by == nil {
		return ""
	}
	return " by " + string(by.Name)
}

// trailingDefault reports a condition on passing that ends in `default
// NAME`: two names in a row, which no expression is.
func trailingDefault(s *ActivationStmt) (Diagnostic, bool) {
	var toks []lexer.Token
	for _, t := range s.PassWhen.Tokens {
		if !spacing(t) && t.Type != tokEOL {
			toks = append(toks, t)
		}
	}
	n := len(toks)
	if n < 2 || toks[n-2].Value != "default" || toks[n-2].Type != tokIdent || toks[n-1].Type != tokIdent {
		return Diagnostic{}, false
	}
	return errorAt(toks[n-2].Pos, "`default %s` after a condition on passing is read as part of the condition, which runs to the end of the line: "+
		"write it before `pass allowed`, as in `activation %s%s default %s pass allowed when ...`",
		toks[n-1].Value, s.Mode, byClause(s.By), toks[n-1].Value), true
}

// checkAwardNot reports `award no X` and `award !X`: putting someone last
// is `award not X`, and neither is an expression the compiler would
// explain. When X is itself a criterion (`award no lowest(agi)`), the
// message gives the line meant in the end, which the compiler would
// otherwise only ask for once this one was fixed.
func checkAwardNot(f *File) Diagnostics {
	var out Diagnostics
	ties := tieActions(f)
	Walk(f, func(n Node) {
		a, ok := n.(*AwardCrit)
		if !ok || a.Not || a.Expr == nil || len(a.Expr.Parts) < 2 {
			return
		}
		if t := ties[a]; t != nil {
			if at, _ := guardWhen(a.Expr.Source, false); at >= 0 {
				return // checkTieGuards writes the whole line
			}
		}
		if word := a.Expr.Parts[0].Tok; word == "no" || word == "!" {
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(a.Expr.Source), word))
			if crit, meant, note, ok := criterionMeant(true, a.Expr.Parts[1:], rest); ok {
				value := strings.TrimSpace(strings.TrimPrefix(meant, string(Direction(crit).Opposite())))
				out = append(out, errorAt(a.Expr.Pos(), "unexpected %q: %s is a criterion, not a function to award: to put the one with the %s %s last, write `%s`%s",
					word, crit, crit, value, tieLine(ties[a], "", meant), note))
				return
			}
			out = append(out, errorAt(a.Expr.Pos(), "unexpected %q: to put the one named last, write `award not %s`", word, rest))
		}
	})
	return out
}

// tieActions maps each criterion that is the action of a one-line tie
// rule, `tie [when C]: CRITERION`, to its rule, so that a message about
// the criterion can write the whole line.
func tieActions(f *File) map[Criterion]*TieRule {
	ties := map[Criterion]*TieRule{}
	Walk(f, func(n Node) {
		if t, ok := n.(*TieRule); ok && t.Action != nil {
			ties[t.Action] = t
		}
	})
	return ties
}

// tieLine writes criterion as the action of tie rule t, with its guard and
// cond joined by "and", or as it is if t is nil and there is no cond.
func tieLine(t *TieRule, cond, criterion string) string {
	if t != nil && t.When != nil {
		if cond == "" {
			cond = strings.TrimSpace(t.When.Source)
		} else {
			cond = andGuard(strings.TrimSpace(t.When.Source)) + " and " + andGuard(cond)
		}
	}
	switch {
	case cond != "":
		return "tie when " + cond + ": " + criterion
	case t != nil:
		return "tie: " + criterion
	}
	return criterion
}

// criterionMeant reads what follows `award` (`not` aside), given as its
// expression's parts and their source, as a criterion written as a
// function: `lowest(count(units))`, `lowest agi`. It returns the word
// (highest or lowest), the criterion meant (with not, the opposite
// direction: the one with the lowest value last is the highest first),
// and a note when which value was meant is the author's to say.
func criterionMeant(not bool, parts []*exprPart, src string) (word, meant, note string, ok bool) {
	if len(parts) < 2 {
		return "", "", "", false
	}
	word = parts[0].Tok
	if !isDirection(word) {
		return "", "", "", false
	}
	value := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(src), word))
	if g := parts[1].Group; len(parts) == 2 && g != nil && g.Paren != nil {
		value = strings.TrimSpace(value[1 : len(value)-1]) // lowest(X) is lowest X
		if slices.ContainsFunc(g.Paren.Inner, func(in *exprInner) bool { return in.Tok == "," }) {
			// lowest(A, B): `lowest A, B` would not compile, and which
			// value was meant is the author's to say.
			value, note = "VALUE", fmt.Sprintf(" (a criterion sorts by one value, not %s)", value)
		}
	}
	meant = word
	if not {
		meant = string(Direction(word).Opposite())
	}
	return word, meant + " " + rollValue(value), note, true
}

// rollValue writes the value of a criterion that an award was meant to be
// as a roll when it is one, so that the line suggested is not refused in
// turn: `roll(d6)`, `roll d6`, `D6` and `d6 + 1` are `roll d6`, `roll d6`,
// `roll d6` and `roll d6 + 1`. Any other value is returned as it is.
func rollValue(value string) string {
	rest, isRoll := strings.CutPrefix(value, "roll")
	if !isRoll || rest != "" && identByte(rest[0]) { // `rolls`: a name
		rest, isRoll = value, false
	}
	rest = strings.TrimSpace(rest)
	if fix := fixDice(rest); fix != "" {
		return "roll " + fix
	}
	if f := strings.Fields(rest); len(f) > 0 && anyDiceRE.MatchString(f[0]) {
		return "roll " + strings.ToLower(f[0]) + rest[len(f[0]):]
	}
	if isRoll {
		return strings.TrimSpace("roll " + rest)
	}
	return value
}

// isDirection reports whether word is highest or lowest, which starts a
// criterion: an award of one was meant to be the criterion.
func isDirection(word string) bool {
	d := Direction(word)
	return d == Highest || d == Lowest
}

// AwardOfCriterion explains an award of a criterion, `tie: award
// lowest(count(units))`, in tie rule t (nil for an award of its own):
// highest and lowest are criteria, not functions. It returns the message,
// which writes the criterion line meant, and false if a is not such an
// award. The compiler asks only when the award does not compile, so a host
// function called lowest still can be awarded.
func AwardOfCriterion(a *AwardCrit, t *TieRule) (string, bool) {
	if a == nil || a.Expr == nil {
		return "", false
	}
	word, meant, note, ok := criterionMeant(a.Not, a.Expr.Parts, a.Expr.Source)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("`award %s` names a subject, and %s is a criterion, not a function: write `%s`%s", strings.TrimSpace(a.Expr.Source), word, tieLine(t, "", meant), note), true
}

// checkTieGuards reports a tie rule's condition written after its
// criterion, `tie: award not previous.holder when round > 1` or `tie:
// lowest agi when round == 1`: the criterion's expression runs to the end
// of the line, so the compiler would only say an operator is missing
// before `when` (and of a roll, that its modifier has no + or -). Criteria
// without an expression (reroll, random, choice) fail to parse there, and
// guardAfter explains them. It returns the rolls it reported, which
// checkRolls leaves alone.
func checkTieGuards(f *File) (Diagnostics, map[*RollCrit]bool) {
	var out Diagnostics
	rolls := map[*RollCrit]bool{}
	Walk(f, func(n Node) {
		t, ok := n.(*TieRule)
		if !ok {
			return
		}
		var e *Expr
		var what func(before string, parts []*exprPart) (crit, why, note string)
		switch a := t.Action.(type) {
		case *AwardCrit:
			e = a.Expr
			what = func(before string, parts []*exprPart) (string, string, string) {
				not := a.Not
				if w := parts[0].Tok; !not && len(parts) > 1 && (w == "no" || w == "!") {
					// `award no X when ...`: checkAwardNot leaves it here.
					not, parts, before = true, parts[1:], strings.TrimSpace(strings.TrimPrefix(before, w))
				}
				if word, meant, note, ok := criterionMeant(not, parts, before); ok {
					// `award lowest agi when ...`: say the line meant in
					// the end, not one the compiler would refuse next.
					return meant, fmt.Sprintf(", and %s is a criterion, not a function to award", word), note
				}
				if not {
					return "award not " + before, "", ""
				}
				return "award " + before, "", ""
			}
		case *ValueCrit:
			e = a.Expr
			what = func(before string, _ []*exprPart) (string, string, string) {
				return string(a.Dir) + " " + rollValue(before), "", "" // `lowest d6`: checkExprDice says why
			}
		case *RollCrit:
			e = a.Modifier
			what = func(before string, _ []*exprPart) (string, string, string) {
				return strings.TrimSpace(string(a.Dir) + " roll " + a.Dice + " " + before), "", ""
			}
		}
		if e == nil {
			return
		}
		_, roll := t.Action.(*RollCrit)
		// A roll's modifier may be nothing but the guard: `highest roll
		// d6 when round == 1`.
		at, word := guardWhen(e.Source, roll)
		if at < 0 {
			return
		}
		// The part that is the guard's word: not a field of that name
		// (`previous.when`), which guardWhen passes over too.
		k := -1
		for i, p := range e.Parts {
			if p.Tok == word && (i > 0 || roll) && (i == 0 || e.Parts[i-1].Tok != "." && e.Parts[i-1].Tok != "?.") {
				k = i
				break
			}
		}
		if k < 0 || k == 0 && !roll {
			return
		}
		crit, why, note := what(strings.TrimSpace(e.Source[:at]), e.Parts[:k])
		cond := strings.TrimSpace(e.Source[at+len(word):])
		if cond == "" {
			cond = "CONDITION"
		}
		pos := e.Pos()
		pos.Offset += at
		pos.Column += utf8.RuneCountInString(e.Source[:at])
		out = append(out, errorAt(pos, "unexpected %q: a tie rule's condition comes before its colon%s: write `%s`%s",
			word, why, tieLine(t, cond, crit), note))
		if roll {
			rolls[t.Action.(*RollCrit)] = true
		}
	})
	return out, rolls
}

// guardWhen returns where in an expression's source the word "when" (or
// "if") is, outside strings and brackets, and which word it is, or -1: a
// "when" in a name ("say when ready") is not a guard, nor is one that
// starts the expression, unless first allows it.
func guardWhen(src string, first bool) (int, string) {
	depth := 0
	var quote byte
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case depth == 0 && (i > 0 || first) && (i == 0 || !identByte(src[i-1])):
			for _, w := range []string{"when", "if"} {
				if strings.HasPrefix(src[i:], w) && (i+len(w) == len(src) || !identByte(src[i+len(w)])) {
					return i, w
				}
			}
		}
	}
	return -1, ""
}

func identByte(c byte) bool {
	return c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// andGuard brackets a condition that binds more loosely than the "and"
// it is joined with: `A or B` and C is (A or B) and C.
func andGuard(cond string) string {
	if looseOp.MatchString(cond) {
		return "(" + cond + ")"
	}
	return cond
}

// looseOp finds an operator that binds more loosely than "and".
var looseOp = regexp.MustCompile(`\bor\b|\|\||\?`)

// checkTeamAssign reports `side A team = Red`: team is a clause of the
// side's line, not an attribute, so the runtime would say only that no
// attribute team is declared.
func checkTeamAssign(f *File) Diagnostics {
	var out Diagnostics
	Walk(f, func(n Node) {
		s, ok := n.(*SideSetup)
		if !ok || s.Team != nil {
			return
		}
		for _, a := range s.Attrs {
			if a.Name == "team" && a.Value != nil {
				out = append(out, errorAt(a.Pos(), "a side's team is written without \"=\": `side %s team %s`", name(s.Name), a.Value))
			}
		}
	})
	return out
}
