// Package dsltest reads chunked error testdata for the .rules language, in
// the style of go.starlark.net's chunkedfile.
//
// A testdata file holds many small, independent inputs ("chunks"),
// separated by lines that consist of "---". A chunk says which diagnostics
// it expects with markers: a line ending in
//
//	### "regexp"
//
// expects a diagnostic on that line whose text (message and hint) matches
// the Go regexp.
// Because '#' starts a comment in .rules files, the marker is simply a
// trailing comment:
//
//	ruleset x {
//	  sides two   # ### `expected a number`
//	}
//
// The pattern is a Go string literal, double-quoted or back-quoted (the
// back-quoted form is handy when the line itself holds an unterminated
// string). One line may hold several markers, `### "a" ### "b"`; each must
// be matched by a different diagnostic. The first "###" on a line starts
// its markers, even inside a string literal, and anything after them other
// than another marker is an error in the testdata. A marker can also name
// the position it expects explicitly, as LINE or LINE:COL before the
// pattern:
//
//	# ### 1:1 "empty file"
//
// which is how a chunk that is not first in its file expects the error an
// empty input reports at line 1, column 1. Lines are those of the testdata
// file. An explicit position also lets a marker sit on an earlier line when
// the text of the line with the error would not be a comment (after an
// unclosed bracket, '#' is not a comment).
//
// A pattern is matched against a diagnostic's message and its hint
// together, as Diagnostic.Text puts them on one line of output: a hint is
// part of what the author is told, and a marker that covers it checks it.
//
// Every marker must be matched, and every error diagnostic must be matched
// by a marker; warnings that no marker asks for are ignored.
//
// Each chunk's Source keeps the line numbers of the testdata file: the
// lines before it are replaced by empty lines. Trailing blank lines are
// dropped and the last line has no newline, so that "unexpected end of file"
// is reported on the chunk's last line, where a marker can sit.
package dsltest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/dsl"
)

// Chunk is one independent input of a chunked testdata file.
type Chunk struct {
	// Source is the chunk's text, preceded by one empty line for every
	// line of the file before it, so positions in it are positions in the
	// file.
	Source string
	// Line is the chunk's first line in the file (from 1).
	Line int
	// Want lists the diagnostics the chunk's markers expect.
	Want []Expectation
}

// Expectation is one "### ..." marker: a diagnostic on Line (and, when
// Column is not zero, at Column) whose text, message and hint, matches
// Pattern.
type Expectation struct {
	Line    int
	Column  int // 0: any column
	Pattern *regexp.Regexp
}

// Chunks reads filename and splits it into chunks. A malformed marker or an
// unreadable file stops the test.
func Chunks(t testing.TB, filename string) []Chunk {
	t.Helper()
	data, err := os.ReadFile(filename)
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := split(filename, string(data))
	if err != nil {
		t.Fatal(err)
	}
	return chunks
}

// split does the work of Chunks.
func split(filename, text string) ([]Chunk, error) {
	lines := strings.Split(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1] // the file's final newline
	}
	var chunks []Chunk
	start := 0 // index of the current chunk's first line
	flush := func(end int) error {
		c := Chunk{Line: start + 1}
		body := lines[start:end]
		for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
			body = body[:len(body)-1]
		}
		for i, line := range body {
			want, err := markers(line, start+i+1)
			if err != nil {
				return fmt.Errorf("%s:%d: %v", filename, start+i+1, err)
			}
			c.Want = append(c.Want, want...)
		}
		c.Source = strings.Repeat("\n", start) + strings.Join(body, "\n")
		chunks = append(chunks, c)
		return nil
	}
	for i, line := range lines {
		if strings.TrimRight(line, " \t\r") == "---" {
			if err := flush(i); err != nil {
				return nil, err
			}
			start = i + 1
		}
	}
	if err := flush(len(lines)); err != nil {
		return nil, err
	}
	return chunks, nil
}

// markers parses the "###" markers on one line (line number n).
func markers(line string, n int) ([]Expectation, error) {
	i := strings.Index(line, "###")
	if i < 0 {
		return nil, nil
	}
	var out []Expectation
	rest := line[i:]
	for {
		rest = strings.TrimLeft(rest, " \t\r")
		if rest == "" {
			return out, nil
		}
		if !strings.HasPrefix(rest, "###") {
			return nil, fmt.Errorf("unexpected text after marker: %q", rest)
		}
		rest = strings.TrimLeft(rest[3:], " \t")
		e := Expectation{Line: n}
		if j := strings.IndexAny(rest, "\"`"); j > 0 {
			pos := strings.TrimSpace(rest[:j])
			l, c, hasCol := strings.Cut(pos, ":")
			ln, err := strconv.Atoi(l)
			col := 0
			if err == nil && hasCol {
				col, err = strconv.Atoi(c)
				if col < 1 {
					err = fmt.Errorf("column %d", col)
				}
			}
			if err != nil || ln < 1 {
				return nil, fmt.Errorf("bad marker position %q (want LINE or LINE:COL)", pos)
			}
			e.Line, e.Column = ln, col
			rest = rest[j:]
		}
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return nil, fmt.Errorf("marker wants a quoted regexp, got %q", rest)
		}
		pattern, err := strconv.Unquote(quoted)
		if err != nil {
			return nil, fmt.Errorf("bad marker %s: %v", quoted, err)
		}
		if e.Pattern, err = regexp.Compile(pattern); err != nil {
			return nil, fmt.Errorf("bad marker regexp %s: %v", quoted, err)
		}
		out = append(out, e)
		rest = rest[len(quoted):]
	}
}

// Check reports, as test errors at filename:line, every expectation of c
// that no diagnostic matches and every error diagnostic that no expectation
// asked for.
func Check(t testing.TB, filename string, c Chunk, diags dsl.Diagnostics) {
	t.Helper()
	for _, msg := range Mismatches(filename, c, diags) {
		t.Error(msg)
	}
}

// Mismatches is Check's verdict as a list of messages, empty when the
// diagnostics are exactly what c expects.
func Mismatches(filename string, c Chunk, diags dsl.Diagnostics) []string {
	var msgs []string
	used := make([]bool, len(diags))
	for _, w := range c.Want {
		found := false
		for i, d := range diags {
			if used[i] || d.Pos.Line != w.Line || (w.Column != 0 && d.Pos.Column != w.Column) {
				continue
			}
			if w.Pattern.MatchString(d.Text()) {
				used[i], found = true, true
				break
			}
		}
		if found {
			continue
		}
		where := fmt.Sprintf("%s:%d", filename, w.Line)
		if w.Column != 0 {
			where += fmt.Sprintf(":%d", w.Column)
		}
		msg := fmt.Sprintf("%s: no diagnostic matches %q", where, w.Pattern)
		for i, d := range diags {
			if !used[i] && d.Pos.Line == w.Line {
				msg += fmt.Sprintf("\n\ton this line, at column %d: %s: %s", d.Pos.Column, d.Severity, d.Text())
			}
		}
		msgs = append(msgs, msg)
	}
	for i, d := range diags {
		if used[i] || d.Severity != dsl.Error {
			continue
		}
		msgs = append(msgs, fmt.Sprintf("%s:%d:%d: unexpected error: %s", filename, d.Pos.Line, d.Pos.Column, d.Text()))
	}
	return msgs
}

// RunFiles runs test as a subtest for every chunk of every file matching
// glob, named "file.rules:LINE", and fails if there are fewer than min
// chunks in all (so that a moved testdata directory cannot pass by
// running nothing).
func RunFiles(t *testing.T, glob string, min int, test func(t *testing.T, file string, c Chunk)) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s (%v)", glob, err)
	}
	total := 0
	for _, file := range files {
		for _, c := range Chunks(t, file) {
			total++
			t.Run(fmt.Sprintf("%s:%d", filepath.Base(file), c.Line), func(t *testing.T) { test(t, file, c) })
		}
	}
	if total < min {
		t.Errorf("only %d chunks in %s; keep at least %d", total, glob, min)
	}
}
