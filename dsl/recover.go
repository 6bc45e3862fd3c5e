package dsl

import "github.com/alecthomas/participle/v2/lexer"

// Statement-level error recovery. Statements inside a block are separated
// by ends of line (or ';'), so a statement with a syntax error can be set
// aside, blanked out, without changing how anything around it parses: the
// next parse then finds the next independent mistake. That only holds
// while every "{" has its "}": with a brace missing or one too many, what
// looks like the next statement may be the tail of a broken one, so
// stmtSpan refuses and the caller falls back to setting aside the whole
// declaration.

// stmt is one statement: the byte span from its first token to the end of
// line, ';' or '}' that ends it (exclusive), and how many blocks deep it
// is (0 for a top-level declaration).
type stmt struct {
	start, end, level int
}

// statements splits tokens into statements. ok is false when the braces
// or brackets are not balanced.
func statements(tokens []lexer.Token) (stmts []stmt, ok bool) {
	open := []int{-1} // open[level]: start of the statement being read at that level, or -1
	level, brackets := 0, 0
	end := func(at int) {
		if open[level] >= 0 {
			stmts = append(stmts, stmt{open[level], at, level})
			open[level] = -1
		}
	}
	for _, t := range tokens {
		switch t.Type {
		case tokWhitespace, tokComment:
			continue
		}
		if brackets > 0 { // inside ( ) or [ ]: newlines and braces are the expression's
			switch t.Type {
			case tokOpen:
				brackets++
			case tokClose:
				brackets--
			}
			continue
		}
		switch {
		case t.Type == tokEOL:
			end(t.Pos.Offset)
		case t.Type == tokOp && t.Value == "}":
			if level == 0 {
				return nil, false // a "}" too many
			}
			end(t.Pos.Offset)
			open = open[:level]
			level-- // the statement that opened the block goes on after it
		default:
			if open[level] < 0 {
				open[level] = t.Pos.Offset
			}
			switch {
			case t.Type == tokOpen:
				brackets++
			case t.Type == tokOp && t.Value == "{":
				level++
				open = append(open, -1)
			}
		}
	}
	if level != 0 || brackets != 0 {
		return nil, false
	}
	if len(tokens) > 0 {
		last := tokens[len(tokens)-1]
		end(last.Pos.Offset + len(last.Value))
	}
	return stmts, true
}

// stmtSpan returns the byte span of the innermost statement inside a block
// that holds offset (an error at the end of a statement's line is in that
// statement), with any block it opens. A block whose "{" was put on the
// next line, which is itself a mistake, is taken along, so that its
// statements are not then reported as out of place. ok is false for an
// offset in no such statement, such as the end of the file, and when the
// braces are not balanced.
func stmtSpan(tokens []lexer.Token, offset int) (start, end int, ok bool) {
	stmts, ok := statements(tokens)
	if !ok {
		return 0, 0, false
	}
	best := -1
	for i, s := range stmts {
		if s.level > 0 && s.start <= offset && offset <= s.end && (best < 0 || s.level > stmts[best].level) {
			best = i
		}
	}
	if best < 0 {
		return 0, 0, false
	}
	s := stmts[best]
	if next := nextToken(tokens, s.end); next != nil && next.Type == tokOp && next.Value == "{" {
		for _, n := range stmts {
			if n.start == next.Pos.Offset && n.level == s.level {
				s.end = n.end
				break
			}
		}
	}
	return s.start, s.end, true
}

// balanced reports whether every "{" has its "}" (and every bracket its
// closing one), so that statements can be told apart.
func balanced(tokens []lexer.Token) bool {
	_, ok := statements(tokens)
	return ok
}

// declStart reports whether a top-level declaration starts at the first
// token at or after offset (a declaration word at the start of a line), or
// nothing does: where recovery from a broken declaration can pick up again.
func declStart(tokens []lexer.Token, offset int) bool {
	t := nextToken(tokens, offset)
	if t == nil {
		return true
	}
	switch t.Value {
	case "ruleset", "scenario", "side":
		return t.Type == tokIdent && t.Pos.Column == 1
	}
	return false
}

// nextToken returns the first token at or after offset that is not
// whitespace, a comment or an end of line, or nil.
func nextToken(tokens []lexer.Token, offset int) *lexer.Token {
	for i := firstAtOrAfter(tokens, offset); i < len(tokens); i++ {
		t := &tokens[i]
		if spacing(*t) || t.Type == tokEOL {
			continue
		}
		return t
	}
	return nil
}
