package dsl

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/google/go-cmp/cmp"
)

// These tests hold participle to the wording depwording.go reads. Each
// feeds the real parser real input: if an upgrade of participle words
// what it expected otherwise, or writes its grammar in another notation,
// they fail here, naming what changed, instead of the messages for rule
// authors quietly losing what they say.

// unexpectedToken parses src with parse and returns the error participle
// gives, which must be an unexpected token.
func unexpectedToken(t *testing.T, parse memberParser, src string) *participle.UnexpectedTokenError {
	t.Helper()
	err := parse("w.rules", src)
	var u *participle.UnexpectedTokenError
	if !errors.As(err, &u) {
		t.Fatalf("parsing %q: got %T %v, want a *participle.UnexpectedTokenError", src, err, err)
	}
	return u
}

func TestParticipleExpectedWording(t *testing.T) {
	tests := []struct {
		name, src string
		parse     memberParser
		grammar   string   // what participleExpected cuts out of the message
		first     []string // what firstOf reads in it
	}{{
		name:    "a token symbol",
		src:     "sides\n",
		parse:   member[*SidesStmt](),
		grammar: `<int> (".." <int>?)?`,
	}, {
		name:    "a quoted word",
		src:     "ruleset x {\n  sides 2\n  sidez 3\n}",
		parse:   strictMember[*File](),
		grammar: `"}"`,
	}, {
		name:    "alternatives, options and repeats",
		src:     "activation whenever by priority",
		parse:   member[*ActivationStmt](),
		grammar: `("alternate" | "sequential" | "unit_order" | "draw") ("by" Ident)? ("default" Ident)? (("pass" "allowed") ("when" Expr)?)? ("default" Ident)?`,
		first:   []string{`"alternate"`, `"sequential"`, `"unit_order"`, `"draw"`},
	}, {
		name:    "a negative lookahead",
		src:     "on middle of round {\n}",
		parse:   member[*HandlerStmt](),
		grammar: `((("start" | "end") "of" ("round" | "phase" | "step") ((?! "when") NameAt)?) | ("hook" Ident)) ("when" Expr)? "{" <eol>* (Action <eol>*)* "}"`,
		first:   []string{`"start"`, `"end"`, `"hook"`},
	}, {
		name:    "a production's name",
		src:     "tie\n",
		parse:   member[*TieRule](),
		grammar: `((":" Criterion) | ("{" <eol>* (Criterion <eol>*)* "}"))`,
		first:   []string{`":"`, `"{"`},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := unexpectedToken(t, tt.parse, tt.src)
			got, ok := participleExpected(u)
			if !ok {
				t.Fatalf("participleExpected cannot read %q", u.Message())
			}
			if diff := cmp.Diff(tt.grammar, got); diff != "" {
				t.Errorf("participle's expected grammar changed (-want +got):\n%s", diff)
			}
			if tt.first == nil {
				return
			}
			first, ok := firstOf(got)
			if !ok {
				t.Fatalf("firstOf cannot read participle's notation in %q", got)
			}
			if diff := cmp.Diff(tt.first, first); diff != "" {
				t.Errorf("firstOf(%q) (-want +got):\n%s", got, diff)
			}
		})
	}
}

// Every grammar participle reports for the error corpus is one that
// firstOf reads, and every token symbol in it is one friendlyWord names:
// a new symbol or a change of notation would reach a rule author as
// participle's own text.
func TestParticipleNotationInCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.rules")
	if err != nil || len(files) == 0 {
		t.Fatalf("no error corpus: %v", err)
	}
	seen := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range strings.Split(string(data), "\n---\n") {
			_, err := parser.ParseString(file, chunk)
			var u *participle.UnexpectedTokenError
			if !errors.As(err, &u) {
				continue
			}
			grammar, ok := participleExpected(u)
			if !ok {
				if want := fmt.Sprintf("unexpected token %q", u.Unexpected); u.Message() != want {
					t.Errorf("%s: participleExpected cannot read %q", u.Position(), u.Message())
				}
				continue
			}
			seen++
			if _, ok := firstOf(grammar); !ok {
				t.Errorf("%s: firstOf cannot read participle's grammar %q", u.Position(), grammar)
			}
			for _, sym := range grammarTokRE.FindAllString(grammar, -1) {
				if strings.HasPrefix(sym, "<") && friendlyWord[sym] == "" {
					t.Errorf("%s: participle writes a token symbol %s that friendlyWord does not name", u.Position(), sym)
				}
			}
		}
	}
	if seen < 20 {
		t.Errorf("only %d errors of the corpus say what participle expected; the test reads too few to guard the notation", seen)
	}
}

// Participle hands back the lexer's error and a Capture's as they are, or
// wrapped so that errors.As finds them, at the right position.
func TestParticipleKeepsOwnErrors(t *testing.T) {
	_, err := parser.ParseString("w.rules", "ruleset x {\n  sides @\n}")
	var le *lexError
	if !errors.As(err, &le) {
		t.Fatalf("a lexical error came back as %T %v, want a *lexError inside", err, err)
	}
	if le.pos.Line != 2 || le.pos.Column != 9 || !strings.HasPrefix(le.sample, "@") {
		t.Errorf("lexical error at %v of %q, want 2:9 of \"@...\"", le.pos, le.sample)
	}

	_, err = parser.ParseString("w.rules", "ruleset x \"a\\qb\" {\n  sides 2\n}")
	var ee *escapeError
	var pe participle.Error
	if !errors.As(err, &ee) || !errors.As(err, &pe) {
		t.Fatalf("a bad escape came back as %T %v, want an *escapeError inside a participle.Error", err, err)
	}
	if ee.esc != `\q` || pe.Position().Line != 1 {
		t.Errorf("bad escape %q at %v, want \\q on line 1", ee.esc, pe.Position())
	}
}
