package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// writeJSON prints the document of run, odds or test --json: indented by
// two spaces, with <, > and & as they are, ending in a newline.
func writeJSON(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// The documents `turnorder run --json` and `turnorder test --json` print.
// docs/json.md describes every field; change them only compatibly (add,
// never rename or remove).

type runDoc struct {
	Ruleset string                 `json:"ruleset"`
	Seed    uint64                 `json:"seed"`
	Rounds  []*runtime.RoundResult `json:"rounds"` // as the runtime encodes them: one shape for CLI and Go API
	// FailedRound is the round that stopped with an error, up to the
	// error: the transcript shows those events, and a program must see
	// them too. It is left out when no round failed.
	FailedRound *failedRoundDoc `json:"failed_round,omitempty"`
	ErrorsDoc
}

// failedRoundDoc is the part of a round played before its error.
type failedRoundDoc struct {
	Round  int             `json:"round"`
	Events []runtime.Event `json:"events"`
}

// ErrorsDoc ends every document: the errors that made the command fail,
// both as lines (test's has always had them) and as objects, for a
// program to read without parsing the lines. The documents embed it, so
// its name is exported for the tests' cmp.Diff.
type ErrorsDoc struct {
	Errors      []string  `json:"errors"`
	Diagnostics []diagDoc `json:"diagnostics"`
}

// diagDoc is an error of a document's "errors" as an object.
//
// Message is the whole text, hint included, as standard error shows it;
// Hint repeats the hint for an editor that shows it as a fix.
type diagDoc struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
	Message   string `json:"message"`
	Hint      string `json:"hint,omitempty"`
}

// errorsJSON lists the errors of ds, as lines and as objects. One at no
// place in a file is its message alone, as it follows "turnorder CMD: "
// on stderr.
func errorsJSON(ds dsl.Diagnostics) ErrorsDoc {
	ds = errorsOnly(ds)
	d := ErrorsDoc{Errors: []string{}, Diagnostics: diagsJSON(ds)}
	for _, e := range ds {
		line := e.String()
		if e.Pos.Filename == "" && e.Pos.Line == 0 {
			line = e.Text()
		}
		d.Errors = append(d.Errors, line)
	}
	return d
}

// diagsJSON lists ds as objects.
func diagsJSON(ds dsl.Diagnostics) []diagDoc {
	out := []diagDoc{}
	for _, e := range ds {
		out = append(out, diagDoc{File: e.Pos.Filename, Line: e.Pos.Line, Column: e.Pos.Column,
			EndLine: e.End.Line, EndColumn: e.End.Column, Message: e.Text(), Hint: e.Hint})
	}
	return out
}

// checkDoc is the document of check --json. Problems is what an editor
// reads: every error and warning in one list, each with its severity and
// both ends. Warnings, errors and diagnostics are what the document had
// before it.
type checkDoc struct {
	Files    []checkedDoc `json:"files"`
	Problems []problemDoc `json:"problems"`
	Warnings []diagDoc    `json:"warnings"`
	ErrorsDoc
}

// problemDoc is an error or a warning of check --json's problems.
type problemDoc struct {
	File     string  `json:"file"`
	Severity string  `json:"severity"`
	Start    spotDoc `json:"start"`
	End      spotDoc `json:"end"`
	Message  string  `json:"message"`
	Hint     string  `json:"hint,omitempty"`
}

// spotDoc is a place in a file: a line and a column (in characters),
// both from 1; both 0 for a problem at no place in a file.
type spotDoc struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// problemJSON is d as a problem. Where d does not say where its text ends,
// the end is that of the word d starts at, read in src, the text of its
// file (or one character on, or the end of the line, for no word), so
// that an editor always has a range to mark.
func problemJSON(d dsl.Diagnostic, src []byte) problemDoc {
	p := problemDoc{File: d.Pos.Filename, Severity: d.Severity.String(),
		Start:   spotDoc{d.Pos.Line, d.Pos.Column},
		End:     spotDoc{d.End.Line, d.End.Column},
		Message: d.Text(), Hint: d.Hint}
	if d.End.Line == 0 {
		p.End = spotDoc{d.Pos.Line, wordEnd(src, d.Pos)}
	}
	return p
}

// wordEnd is the column just past the word that starts at pos in src.
func wordEnd(src []byte, pos dsl.Pos) int {
	if pos.Line < 1 || pos.Column < 1 {
		return pos.Column
	}
	lines := bytes.SplitN(src, []byte("\n"), pos.Line+1)
	if len(lines) < pos.Line {
		return pos.Column
	}
	line := []rune(strings.TrimSuffix(string(lines[pos.Line-1]), "\r"))
	col := pos.Column - 1
	if col >= len(line) {
		return pos.Column
	}
	end := col
	for end < len(line) && (line[end] == '_' || unicode.IsLetter(line[end]) || unicode.IsDigit(line[end])) {
		end++
	}
	if end == col {
		end++
	}
	return end + 1
}

// checkedDoc is one file check read.
type checkedDoc struct {
	File    string `json:"file"`
	OK      bool   `json:"ok"`
	Summary string `json:"summary"` // for a clean file: what it holds, and its warnings
}

// finishJSON prints doc, which a command's errors end, and returns the
// command's exit status.
func (e *env) finishJSON(doc any, status int) int {
	if err := writeJSON(e.stdout, doc); err != nil {
		fmt.Fprintf(e.stderr, "%s%v\n", e.prefix(), err)
		return exitError
	}
	return status
}

type testDoc struct {
	Passed    int           `json:"passed"`
	Failed    int           `json:"failed"`
	Scenarios []scenarioDoc `json:"scenarios"`
	ErrorsDoc
}

type scenarioDoc struct {
	File     string       `json:"file"`
	Line     int          `json:"line"`
	Title    string       `json:"title"`
	Passed   bool         `json:"passed"`
	Quotes   []string     `json:"quotes"`
	Failures []failureDoc `json:"failures"`
}

type failureDoc struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Round  int    `json:"round"`
	Field  string `json:"field"`
	Diff   string `json:"diff"`
	Want   any    `json:"want"`
	Got    any    `json:"got"`
	// Message is the failure as test prints it after its position.
	Message string `json:"message"`
}

func scenarioJSON(file string, sc *dsl.Scenario, res conformance.Result) scenarioDoc {
	d := scenarioDoc{File: file, Line: sc.Pos().Line, Title: string(sc.Title), Passed: res.Passed(),
		Quotes: []string{}, Failures: []failureDoc{}}
	for _, st := range sc.Body {
		if q, ok := st.(*dsl.QuoteStmt); ok {
			d.Quotes = append(d.Quotes, string(q.Text))
		}
	}
	for _, f := range res.Failures {
		d.Failures = append(d.Failures, failureDoc{File: f.Pos.Filename, Line: f.Pos.Line, Column: f.Pos.Column,
			Round: f.Round, Field: f.Field, Diff: f.Diff, Want: f.Want, Got: f.Got, Message: f.Message()})
	}
	return d
}
