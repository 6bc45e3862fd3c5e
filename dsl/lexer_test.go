package dsl

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/google/go-cmp/cmp"
)

// regexpLexer is the language's lexer as participle's regexp rules, the
// definition the hand-written rulesLexer must agree with, token for token
// and error for error.
var regexpLexer = lexer.MustStateful(lexer.Rules{
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
		{Name: "Dice", Pattern: `[0-9]*d[0-9]+\b|[0-9]+D[0-9]+\b`},
		{Name: "Float", Pattern: `[0-9]+\.[0-9]+`},
		{Name: "Int", Pattern: `[0-9]+`},
		{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
		{Name: "EOL", Pattern: `[\n;]`},
		{Name: "Op", Pattern: `==|!=|<=|>=|&&|\|\||\?\?|\?\.|\*\*|\.\.|[-+*/%<>!?|&^.,:=(){}\[\]]`},
		{Name: "Whitespace", Pattern: `[ \t\r]+`},
	},
})

// lexed is a token as the two lexers are compared: by the name of its kind,
// since each definition numbers kinds its own way.
type lexed struct {
	Kind, Value string
	Pos         lexer.Position
}

// lexAll lexes src with def to the end or the first error.
func lexAll(t *testing.T, def lexer.Definition, src string) (toks []lexed, err string) {
	t.Helper()
	names := lexer.SymbolsByRune(def)
	lx, e := def.(lexer.StringDefinition).LexString("f.rules", src)
	if e != nil {
		t.Fatal(e)
	}
	for {
		tok, e := lx.Next()
		if e != nil {
			le := e.(interface {
				Position() lexer.Position
				Message() string
			})
			return toks, le.Position().String() + ": " + le.Message()
		}
		toks = append(toks, lexed{names[tok.Type], tok.Value, tok.Pos})
		if tok.EOF() {
			return toks, ""
		}
	}
}

func checkLexers(t *testing.T, src string) {
	t.Helper()
	wantToks, wantErr := lexAll(t, regexpLexer, src)
	gotToks, gotErr := lexAll(t, rulesLexer, src)
	if diff := cmp.Diff(wantToks, gotToks); diff != "" {
		t.Errorf("tokens of %q differ from the regexp rules' (-want +got):\n%s", src, diff)
	}
	if gotErr != wantErr {
		t.Errorf("lexing %q: error %q, the regexp rules give %q", src, gotErr, wantErr)
	}
}

// lexerCases are the corners of the rules: each kind's first and last
// characters, what is almost dice, escapes, brackets and comments, and
// text that no token starts.
var lexerCases = []string{
	"", "\n", ";", "# a comment\nx", "#", "(#)", "[#.agi > 3]", "filter(units, #.agi > 3) # done",
	"((x)) ) ] (", "a?.b ?? c ** 2 .. 3", "== != <= >= && || ?? ?. ** ..", "-+*/%<>!?|&^.,:=(){}[]",
	"d6 D6 2D6 2d6 d66 d6x d6_ 2d6d6 12d 1d 0d0 d 2D d6é 3D6. 1d6.5",
	"1.5 1. 1..3 1.5.3 .5 007 12ab",
	`"a" "a\"b" "a\\" "\n" "unclosed`, `'raw' 'it\'s' '\`, "\"a\\\nb\"", "\"caf\xe9\" \"\xff\"",
	"x\t \r\ny", "\r\n", "@", "a @ b", "`code`", "$x", "~", "\\", "é", "\x00", "\xff",
	"\"abcdefghijklmnopqrstuvwxyz", "@\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9",
	"quote \"It's #1\" # and (this", "roll d6 (a # b\n c)", "]]]",
}

func TestLexerMatchesRules(t *testing.T) {
	for _, src := range lexerCases {
		checkLexers(t, src)
	}
	// Every file the project has: rulesets, examples, scenarios, testdata.
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rules") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checkLexers(t, string(src))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func FuzzLexer(f *testing.F) {
	// Small seeds: the regexp rules take time in proportion to the text
	// left at each token.
	for _, src := range lexerCases {
		f.Add(src)
	}
	chunked, _ := filepath.Glob("testdata/errors/*.rules")
	for _, file := range chunked {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, para := range strings.Split(string(src), "\n\n") {
			f.Add(para)
		}
	}
	f.Fuzz(func(t *testing.T, src string) { checkLexers(t, src) })
}

// BenchmarkLex lexes the bundled necromunda scenarios (18 KB) with the
// hand-written lexer and with the regexp rules it replaced:
//
//	go test ./dsl -run '^$' -bench Lex -benchmem
//
// The figures are in docs/benchmarks.md.
func BenchmarkLex(b *testing.B) {
	src, err := os.ReadFile("../conformance/scenarios/necromunda.rules")
	if err != nil {
		b.Fatal(err)
	}
	for _, def := range []struct {
		name string
		def  lexer.StringDefinition
	}{{"hand-written", rulesLexer}, {"regexp", regexpLexer}} {
		b.Run(def.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				lx, _ := def.def.LexString("necromunda.rules", string(src))
				for {
					tok, err := lx.Next()
					if err != nil {
						b.Fatal(err)
					}
					if tok.EOF() {
						break
					}
				}
			}
		})
	}
}

// BenchmarkParse parses each bundled ruleset and scenario file.
func BenchmarkParse(b *testing.B) {
	files, _ := filepath.Glob("../rulesets/*.rules")
	scenarios, _ := filepath.Glob("../conformance/scenarios/*.rules")
	for _, file := range append(files, scenarios...) {
		src, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(strings.TrimPrefix(file, "../"), ".rules"), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ds := Parse(file, src); ds.HasErrors() {
					b.Fatal(ds)
				}
			}
		})
	}
}
