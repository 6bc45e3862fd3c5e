package dsl

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite testdata/format/*.golden from Format's output")

// TestFormatGolden formats each testdata/format/*.rules file and compares
// the result with the .golden file next to it.
func TestFormatGolden(t *testing.T) {
	inputs, err := filepath.Glob("testdata/format/*.rules")
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no testdata/format/*.rules inputs")
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, diags := FormatSource(in, src)
			if diags.HasErrors() {
				t.Fatalf("input does not parse:\n%s", diags.Render(string(src)))
			}
			golden := strings.TrimSuffix(in, ".rules") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./dsl -run TestFormatGolden -update)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("Format(%s) mismatch (-want +got):\n%s", in, diff)
			}
		})
	}
}

// parsedRulesFiles returns every .rules file in the repository that parses
// without errors. Files that do not parse are deliberately malformed test
// inputs (or someone else's work in progress), which Format never sees.
func parsedRulesFiles(t testing.TB) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != ".." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".rules") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if _, diags := Parse(path, src); diags.HasErrors() {
			t.Logf("skipping %s: it does not parse", path)
			return nil
		}
		files[path] = src
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("found no .rules files that parse")
	}
	return files
}

func mustParse(t *testing.T, name string, src []byte) *File {
	t.Helper()
	f, diags := Parse(name, src)
	if diags.HasErrors() {
		t.Fatalf("%s does not parse:\n%s", name, diags.Render(string(src)))
	}
	return f
}

// TestFormatIdempotent checks that formatted output is a fixed point.
func TestFormatIdempotent(t *testing.T) {
	for path, src := range parsedRulesFiles(t) {
		t.Run(path, func(t *testing.T) {
			once := Format(mustParse(t, path, src))
			twice := Format(mustParse(t, path+" (formatted)", once))
			if diff := cmp.Diff(string(once), string(twice)); diff != "" {
				t.Errorf("formatting twice changed the output (-once +twice):\n%s", diff)
			}
		})
	}
}

// TestShippedFilesAreFormatted checks that the .rules files the project
// ships (the bundled rulesets, the conformance scenarios, the examples) are
// in the canonical layout, so that `turnorder fmt -l .` lists none of them.
// Files under testdata are kept as they are, some in another layout on
// purpose.
func TestShippedFilesAreFormatted(t *testing.T) {
	for path, src := range parsedRulesFiles(t) {
		if slices.Contains(strings.Split(filepath.ToSlash(path), "/"), "testdata") {
			continue
		}
		t.Run(path, func(t *testing.T) {
			if diff := cmp.Diff(string(src), string(Format(mustParse(t, path, src)))); diff != "" {
				t.Errorf("%s is not formatted (-file +formatted):\n%s", path, diff)
			}
		})
	}
}

// exprTokens compares expressions by their tokens: the spaces between
// them are layout, which Format may change (`d6 +agi` is printed
// `d6 + agi`).
var exprTokens = cmp.Transformer("exprTokens", func(e Expr) []string {
	var toks []string
	for _, p := range e.Parts {
		toks = appendPart(toks, p)
	}
	return toks
})

// astOpts compares ASTs by meaning: positions and the file text change with
// layout.
var astOpts = cmp.Options{
	cmpopts.IgnoreTypes(lexer.Position{}),
	cmpopts.IgnoreFields(File{}, "Source"),
	exprTokens,
}

// TestFormatKeepsAST checks that formatting changes only layout: the file
// parses back to the same AST, with the same comments in the same order.
func TestFormatKeepsAST(t *testing.T) {
	for path, src := range parsedRulesFiles(t) {
		t.Run(path, func(t *testing.T) {
			want := mustParse(t, path, src)
			got := mustParse(t, path+" (formatted)", Format(want))
			// File.Comments is compared too: positions are ignored, so it
			// checks each comment's text and their order.
			if diff := cmp.Diff(want, got, astOpts); diff != "" {
				t.Errorf("Parse(Format(f)) differs from f (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFormatWithoutSource formats an AST that has no source text, as one
// built in code would: expressions are printed from their tokens.
func TestFormatWithoutSource(t *testing.T) {
	const in = "testdata/format/rulestmts.rules"
	src, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	want := mustParse(t, in, src)
	bare := mustParse(t, in, src)
	bare.Source, bare.Comments = "", nil
	Walk(bare, func(n Node) {
		if e, ok := n.(*Expr); ok {
			e.Source = ""
		}
	})
	got := mustParse(t, "formatted", Format(bare))

	// Expressions are re-spaced, so compare their tokens.
	opts := cmp.Options{
		cmpopts.IgnoreTypes(lexer.Position{}),
		cmpopts.IgnoreFields(File{}, "Source", "Comments"),
		exprTokens,
	}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("Parse(Format(f without source)) differs (-want +got):\n%s", diff)
	}
}

// TestFormatOddTrees checks that trees the parser cannot produce print
// without panicking.
func TestFormatOddTrees(t *testing.T) {
	type bogus struct{ Decl }
	f := &File{Decls: []Decl{
		nil,
		&Ruleset{Name: "r", Body: []RuleStmt{nil, (*SidesStmt)(nil), &PhaseStmt{Name: "p"}}},
		&bogus{},
		&Scenario{Title: "s", Body: []ScenarioStmt{&RoundBlock{Number: 1, Body: []RoundStmt{&Expect{}}}}},
	}}
	got := string(Format(f))
	for _, want := range []string{"ruleset r {", "phase p {", "cannot print", "expect\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("Format output lacks %q:\n%s", want, got)
		}
	}
	if Format(nil) != nil {
		t.Error("Format(nil) is not nil")
	}
}

func TestFormatSourceRefusesBrokenFiles(t *testing.T) {
	src := []byte("ruleset ok {\n  sides 2\n}\n\nruleset broken {\n  sides\n}\n")
	out, diags := FormatSource("broken.rules", src)
	if out != nil {
		t.Errorf("FormatSource formatted a file with errors:\n%s", out)
	}
	if !diags.HasErrors() {
		t.Error("FormatSource reported no error for a broken file")
	}
}

// FormatName writes a name as fmt does, and FormatExpect an expect
// statement on one line, as a report of an unmet expectation quotes them.
func TestFormatNameAndExpect(t *testing.T) {
	for name, want := range map[string]string{
		"Jay": "Jay", "Malleus Deus": `"Malleus Deus"`, "d6": `"d6"`, "pass": `"pass"`, "la1": "la1",
	} {
		if got := FormatName(Name(name)); got != want {
			t.Errorf("FormatName(%q) = %s, want %s", name, got, want)
		}
	}
	src := `scenario "s" {
  ruleset mesbg
  round 1 {
    expect order   "Malleus Deus" ,Jay
    expect activations la1, pass  "Malleus Deus"
    expect no event decision Rob by "Malleus Deus"
    expect standing bidding: Rob, Jay
  }
}
`
	f, diags := Parse("s.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	Walk(f, func(n Node) {
		if e, ok := n.(*Expect); ok {
			got = append(got, FormatExpect(e))
		}
	})
	want := []string{
		`expect order "Malleus Deus", Jay`,
		`expect activations la1, pass "Malleus Deus"`,
		`expect no event decision Rob by "Malleus Deus"`,
		`expect standing bidding: Rob, Jay`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("FormatExpect (-want +got):\n%s", diff)
	}
}

// FuzzFormat checks, on whatever parses, the promises of `turnorder fmt`,
// which rewrites an author's file in place: the output parses, to the same
// rules with the same comments in the same order, and formatting it again
// changes nothing.
//
//	go test ./dsl -run '^$' -fuzz FuzzFormat -fuzztime 60s
func FuzzFormat(f *testing.F) {
	for _, src := range parsedRulesFiles(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, diags := Parse("fuzz.rules", src)
		if want == nil || diags.HasErrors() {
			return
		}
		once := Format(want)
		got, diags := Parse("formatted.rules", once)
		if got == nil || diags.HasErrors() {
			t.Fatalf("the formatted file does not parse:\n%s\n%s", diags.Render(string(once)), once)
		}
		if diff := cmp.Diff(want, got, astOpts); diff != "" {
			t.Fatalf("Parse(Format(f)) differs from f (-want +got):\n%s\nformatted:\n%s", diff, once)
		}
		if twice := Format(got); string(twice) != string(once) {
			t.Fatalf("formatting twice changed the output (-once +twice):\n%s", cmp.Diff(string(once), string(twice)))
		}
	})
}
