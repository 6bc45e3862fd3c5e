package dsl_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/dsltest"
)

// TestErrors parses every chunk of testdata/errors/*.rules and checks that
// the parser reports exactly the errors its "###" markers expect, on the
// lines they are on.
func TestErrors(t *testing.T) {
	dsltest.RunFiles(t, "testdata/errors/*.rules", 45, func(t *testing.T, file string, c dsltest.Chunk) {
		if len(c.Want) == 0 {
			t.Errorf("%s:%d: chunk expects no error; error chunks need a ### marker", file, c.Line)
		}
		diags := parseChunk(t, file, c)
		checkPositions(t, file, diags)
		dsltest.Check(t, file, c, diags)
	})
}

// TestKnownGaps runs testdata/gaps/*.rules: malformed input the parser
// still accepts (or reports badly). Its markers say what a rule author
// should be told. The test passes while a gap is open; once the parser
// reports what a chunk's markers expect, it fails, asking for the chunk to
// move into testdata/errors.
func TestKnownGaps(t *testing.T) {
	files, _ := filepath.Glob("testdata/gaps/*.rules")
	for _, file := range files {
		for _, c := range dsltest.Chunks(t, file) {
			t.Run(fmt.Sprintf("%s:%d", filepath.Base(file), c.Line), func(t *testing.T) {
				diags := parseChunk(t, file, c)
				checkPositions(t, file, diags)
				if len(c.Want) == 0 {
					t.Fatalf("%s:%d: a gap chunk needs a ### marker", file, c.Line)
				}
				if m := dsltest.Mismatches(file, c, diags); len(m) > 0 {
					t.Logf("still a gap:\n%s", strings.Join(m, "\n"))
					return
				}
				t.Errorf("%s:%d: gap closed: the parser now reports what this chunk expects; move it into testdata/errors",
					file, c.Line)
			})
		}
	}
}

// parseChunk parses one chunk, turning a panic into a test failure at the
// chunk's position.
func parseChunk(t *testing.T, file string, c dsltest.Chunk) (diags dsl.Diagnostics) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s:%d: Parse panicked: %v", file, c.Line, r)
		}
	}()
	f, diags := dsl.Parse(file, []byte(c.Source))
	if f == nil && !diags.HasErrors() {
		t.Errorf("%s:%d: Parse returned no file and no error", file, c.Line)
	}
	return diags
}

func checkPositions(t *testing.T, file string, diags dsl.Diagnostics) {
	t.Helper()
	for _, d := range diags {
		if d.Pos.Line < 1 || d.Pos.Column < 1 {
			t.Errorf("%s: diagnostic without a position: %v", file, d)
		}
		if d.Pos.Filename != file {
			t.Errorf("%s: diagnostic names file %q: %v", file, d.Pos.Filename, d)
		}
	}
}

func TestEmptyInput(t *testing.T) {
	for _, src := range []string{"", "\n", "\n\n  \n", "# only a comment", "# a\n\n# b\n", ";;\n;"} {
		f, diags := dsl.Parse("empty.rules", []byte(src))
		if f != nil || len(diags) != 1 {
			t.Errorf("Parse(%q) = %v, %v; want nil and one error", src, f, diags)
			continue
		}
		d := diags[0]
		if d.Severity != dsl.Error || d.Pos.Line != 1 || d.Pos.Column != 1 || !strings.Contains(d.Message, "empty file") {
			t.Errorf("Parse(%q): got %v, want an empty-file error at 1:1", src, d)
		}
	}
}

func TestRender(t *testing.T) {
	pos := func(line, col int) dsl.Pos { return dsl.Pos{Filename: "r.rules", Line: line, Column: col} }
	const src = "ruleset x {\n  sides two\n\tsides 2\n  quote \"Éowyn\" frob\n}"
	tests := []struct {
		name  string
		diags dsl.Diagnostics
		want  string
	}{{
		name:  "caret under the column",
		diags: dsl.Diagnostics{dsl.Errorf(pos(2, 9), "unexpected %q (expected a number)", "two")},
		want: "r.rules:2:9: error: unexpected \"two\" (expected a number)\n" +
			"      sides two\n" +
			"            ^\n",
	}, {
		name:  "first column",
		diags: dsl.Diagnostics{dsl.Errorf(pos(1, 1), "unexpected \"ruleset\"")},
		want: "r.rules:1:1: error: unexpected \"ruleset\"\n" +
			"    ruleset x {\n" +
			"    ^\n",
	}, {
		name:  "tab shown as one space",
		diags: dsl.Diagnostics{dsl.Errorf(pos(3, 2), "duplicate sides")},
		want: "r.rules:3:2: error: duplicate sides\n" +
			"     sides 2\n" +
			"     ^\n",
	}, {
		name:  "columns count characters, not bytes",
		diags: dsl.Diagnostics{dsl.Errorf(pos(4, 17), "unexpected \"frob\"")},
		want: "r.rules:4:17: error: unexpected \"frob\"\n" +
			"      quote \"Éowyn\" frob\n" +
			"                    ^\n",
	}, {
		name:  "column past the end of the line",
		diags: dsl.Diagnostics{dsl.Errorf(pos(5, 9), "unexpected end of file")},
		want: "r.rules:5:9: error: unexpected end of file\n" +
			"    }\n" +
			"     ^\n",
	}, {
		name:  "line past the end of the source has no snippet",
		diags: dsl.Diagnostics{dsl.Errorf(pos(9, 1), "unexpected end of file")},
		want:  "r.rules:9:1: error: unexpected end of file\n",
	}, {
		name:  "no position: no snippet and no 0:0",
		diags: dsl.Diagnostics{dsl.Errorf(dsl.Pos{}, "ruleset mesbg needs 2 sides, got 3")},
		want:  "error: ruleset mesbg needs 2 sides, got 3\n",
	}, {
		name:  "a file but no line",
		diags: dsl.Diagnostics{dsl.Warnf(dsl.Pos{Filename: "r.rules"}, "no example")},
		want:  "r.rules: warning: no example\n",
	}, {
		name: "several, with a warning",
		diags: dsl.Diagnostics{
			dsl.Errorf(pos(2, 9), "unexpected \"two\""),
			dsl.Warnf(pos(1, 9), "ruleset has no title"),
		},
		want: "r.rules:2:9: error: unexpected \"two\"\n" +
			"      sides two\n" +
			"            ^\n" +
			"r.rules:1:9: warning: ruleset has no title\n" +
			"    ruleset x {\n" +
			"            ^\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.diags.Render(src); got != tt.want {
				t.Errorf("Render:\n got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestRenderSnippet checks the source lines a terminal could not show as
// they are: wide characters, control bytes, a byte order mark, and lines
// too long to show whole.
func TestRenderSnippet(t *testing.T) {
	long := strings.Repeat("x", 300)
	tests := []struct {
		name, src string
		line, col int
		want      string
	}{{
		name: "wide characters take two cells",
		src:  `highest "日本" + agi`, line: 1, col: 17,
		want: "    highest \"日本\" + agi\n" +
			"                      ^\n",
	}, {
		name: "a combining mark takes none",
		src:  "quote \"e\u0301\" frob", line: 1, col: 12,
		want: "    quote \"e\u0301\" frob\n" +
			"              ^\n",
	}, {
		name: "control bytes and bad UTF-8 show as ?",
		src:  "sides \x01\xff 2", line: 1, col: 10,
		want: "    sides ?? 2\n" +
			"             ^\n",
	}, {
		name: "a byte order mark is not shown",
		src:  "\ufeffsidez 2", line: 1, col: 1,
		want: "    sidez 2\n" +
			"    ^\n",
	}, {
		name: "a long line is cut around the caret",
		src:  long + " frob " + long, line: 1, col: 302,
		want: "    …" + strings.Repeat("x", 49) + " frob " + strings.Repeat("x", 45) + "…\n" +
			"     " + strings.Repeat(" ", 50) + "^\n",
	}, {
		name: "a cut does not start in the middle of a wide character",
		src:  strings.Repeat("日", 100) + "b" + strings.Repeat("x", 100), line: 1, col: 102,
		want: "    …" + strings.Repeat("日", 24) + "b" + strings.Repeat("x", 51) + "…\n" +
			"    " + strings.Repeat(" ", 50) + "^\n", // under the first x
	}, {
		name: "a zero-width character at the start of the line takes no cell",
		src:  "\u200bsides two", line: 1, col: 8,
		want: "    \u200bsides two\n" +
			"          ^\n",
	}, {
		name: "near its start, a long line is cut at the end only",
		src:  "frob " + long, line: 1, col: 1,
		want: "    frob " + strings.Repeat("x", 95) + "…\n" +
			"    ^\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dsl.Errorf(dsl.Pos{Filename: "r.rules", Line: tt.line, Column: tt.col}, "m")
			got := dsl.Diagnostics{d}.Render(tt.src)
			_, got, _ = strings.Cut(got, "\n") // the message line is TestRender's
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Render (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRenderParseError renders a real parse error end to end.
func TestRenderParseError(t *testing.T) {
	src := "ruleset x {\n  sides two\n}\n"
	_, diags := dsl.Parse("x.rules", []byte(src))
	want := "x.rules:2:9: error: unexpected \"two\" (expected a number)\n" +
		"      sides two\n" +
		"            ^\n"
	if got := diags.Render(src); got != want {
		t.Errorf("Render:\n got:\n%s\nwant:\n%s", got, want)
	}
	// A byte order mark changes no position.
	_, diags = dsl.Parse("x.rules", []byte("\ufeff"+src))
	if got := diags.Render("\ufeff" + src); got != want {
		t.Errorf("Render, after a byte order mark:\n got:\n%s\nwant:\n%s", got, want)
	}
}

// TestChunkFormat checks the dsltest helper itself on a small file.
func TestChunkFormat(t *testing.T) {
	const text = "# ### 1:1 \"empty\" ### 5 `brace`\n" + // 1
		"---\n" + // 2
		"ruleset x {\n" + // 3
		"  sides two   # ### `number` ### \"two\"\n" + // 4
		"}\n" + // 5
		"\n" + // 6
		"---  \n" + // 7
		"ruleset y {\n" + // 8
		"\n" // 9
	file := filepath.Join(t.TempDir(), "t.rules")
	if err := os.WriteFile(file, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	chunks := dsltest.Chunks(t, file)
	if len(chunks) != 3 {
		t.Fatalf("got %d chunks, want 3", len(chunks))
	}
	type want struct {
		line   int
		source string
		marks  []string // "line:col:pattern"
	}
	wants := []want{
		{1, "# ### 1:1 \"empty\" ### 5 `brace`", []string{"1:1:empty", "5:0:brace"}},
		{3, "\n\nruleset x {\n  sides two   # ### `number` ### \"two\"\n}", []string{"4:0:number", "4:0:two"}},
		{8, strings.Repeat("\n", 7) + "ruleset y {", nil},
	}
	for i, c := range chunks {
		w := wants[i]
		var marks []string
		for _, e := range c.Want {
			marks = append(marks, fmt.Sprintf("%d:%d:%s", e.Line, e.Column, e.Pattern))
		}
		if c.Line != w.line || c.Source != w.source || fmt.Sprint(marks) != fmt.Sprint(w.marks) {
			t.Errorf("chunk %d = {%d %q %v}, want {%d %q %v}", i, c.Line, c.Source, marks, w.line, w.source, w.marks)
		}
	}

	// The second chunk: "two" is reported once, so only one of the two
	// markers can be matched; the other is a mismatch.
	_, diags := dsl.Parse(file, []byte(chunks[1].Source))
	if m := dsltest.Mismatches(file, chunks[1], diags); len(m) != 1 || !strings.Contains(m[0], ":4: no diagnostic matches") {
		t.Errorf("Mismatches = %q, want one unmatched marker on line 4", m)
	}
	// The third chunk expects nothing, so its error is unexpected.
	_, diags = dsl.Parse(file, []byte(chunks[2].Source))
	if m := dsltest.Mismatches(file, chunks[2], diags); len(m) != 1 || !strings.Contains(m[0], ":8:12: unexpected error: unexpected end of file") {
		t.Errorf("Mismatches = %q, want one unexpected end-of-file error at 8:12", m)
	}
	// Warnings nobody asked for are not failures.
	warn := dsl.Diagnostics{dsl.Warnf(dsl.Pos{Line: 8, Column: 1}, "odd")}
	if m := dsltest.Mismatches(file, chunks[2], warn); len(m) != 0 {
		t.Errorf("Mismatches(warning) = %q, want none", m)
	}
}

// A host sends compile errors to an editor or a browser as JSON: each
// diagnostic is the object the CLI's documents hold, with its severity,
// and reads back as it was.
func TestDiagnosticJSON(t *testing.T) {
	ds := dsl.Diagnostics{
		dsl.Errorf(dsl.Pos{Filename: "db:r", Offset: 71, Line: 5, Column: 15}, "unknown name unitz (did you mean units?)"),
		dsl.Warnf(dsl.Pos{Filename: "db:r", Line: 4, Column: 5}, "order o can end with subjects still tied"),
		dsl.Errorf(dsl.Pos{}, "a side needs a name"),
	}
	data, err := json.Marshal(ds)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"file":"db:r","line":5,"column":15,"severity":"error","message":"unknown name unitz (did you mean units?)"},` +
		`{"file":"db:r","line":4,"column":5,"severity":"warning","message":"order o can end with subjects still tied"},` +
		`{"file":"","line":0,"column":0,"severity":"error","message":"a side needs a name"}]`
	if string(data) != want {
		t.Errorf("diagnostics as JSON:\n%s\nwant\n%s", data, want)
	}
	var back dsl.Diagnostics
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	ds[0].Pos.Offset = 0 // not in the JSON
	if back.Error() != ds.Error() || back[1].Severity != dsl.Warning || back[0].Pos != ds[0].Pos {
		t.Errorf("read back:\n%v\nwant\n%v", back, ds)
	}
	if err := json.Unmarshal([]byte(`{"severity":"fatal"}`), &back[0]); err == nil {
		t.Error("severity fatal: no error")
	}
}
