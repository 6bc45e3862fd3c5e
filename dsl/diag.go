package dsl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Severity says whether a diagnostic stops a file from running.
type Severity int

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one message about a .rules file, at a position.
//
// Message says what is wrong; Hint, when there is one, says what the
// author most likely meant or should write instead. They are kept apart
// so that an editor can show the hint as a fix, and put together by Text
// for a line of output.
//
// As JSON it is the object of docs/json.md's diagnostics, with its
// severity: {"file", "line", "column", "severity", "message"}, the
// severity "error" or "warning", and line and column 0 where there is
// no position (as a host would send it to an editor or a browser); "hint",
// "end_line" and "end_column" are there when the diagnostic has them.
type Diagnostic struct {
	Severity Severity
	Pos      Pos
	// End is just past the text the diagnostic is about, where that is
	// known; its Line is 0 where it is not.
	End     Pos
	Message string
	Hint    string
}

// hintSep joins a message and its hint in Text. Before hints were kept
// apart, every hint followed its message after ": ", and the text a rule
// author reads stays as it was.
const hintSep = ": "

// Text is the message and its hint, as one line of output shows them.
func (d Diagnostic) Text() string {
	if d.Hint == "" {
		return d.Message
	}
	return d.Message + hintSep + d.Hint
}

// WithHint returns d with the hint given by format and args.
func (d Diagnostic) WithHint(format string, args ...any) Diagnostic {
	d.Hint = fmt.Sprintf(format, args...)
	return d
}

func errorAt(pos Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: Error, Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// Errorf returns an error diagnostic at pos.
func Errorf(pos Pos, format string, args ...any) Diagnostic { return errorAt(pos, format, args...) }

// Warnf returns a warning diagnostic at pos.
func Warnf(pos Pos, format string, args ...any) Diagnostic {
	return Diagnostic{Severity: Warning, Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// String is "file:line:col: severity: message: hint". A diagnostic with
// no position (about sides a host passed, say) leaves out what it lacks.
func (d Diagnostic) String() string {
	switch {
	case d.Pos.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s: %s", d.Pos.Filename, d.Pos.Line, d.Pos.Column, d.Severity, d.Text())
	case d.Pos.Filename != "":
		return fmt.Sprintf("%s: %s: %s", d.Pos.Filename, d.Severity, d.Text())
	}
	return fmt.Sprintf("%s: %s", d.Severity, d.Text())
}

// Diagnostics is a list of diagnostics. As an error it reads like a
// compiler's output, one line per diagnostic.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// HasErrors reports whether any diagnostic is an error (not a warning).
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns ds as an error if it holds any error, else nil.
func (ds Diagnostics) Err() error {
	if ds.HasErrors() {
		return ds
	}
	return nil
}

// Sort orders diagnostics by file and position.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// Render writes each diagnostic the way a compiler does: the position and
// message, then the source line and a caret under the column. src is the
// text of the file the diagnostics are about: Render does not check their
// file names, so render the diagnostics of each file with its own text.
func (ds Diagnostics) Render(src string) string {
	var b strings.Builder
	// Each diagnostic's line is found from the one before when they are in
	// order, as they usually are: splitting the whole source for each of
	// thousands of diagnostics made rendering them quadratic.
	lineNo, lineStart := 1, 0
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
		if d.Pos.Line < lineNo {
			lineNo, lineStart = 1, 0
		}
		for lineNo < d.Pos.Line {
			nl := strings.IndexByte(src[lineStart:], '\n')
			if nl < 0 {
				break // the file has fewer lines
			}
			lineStart += nl + 1
			lineNo++
		}
		if d.Pos.Line >= 1 && lineNo == d.Pos.Line {
			line := src[lineStart:]
			if nl := strings.IndexByte(line, '\n'); nl >= 0 {
				line = line[:nl]
			}
			line = strings.TrimRight(line, "\r")
			if d.Pos.Line == 1 {
				line = strings.TrimPrefix(line, bom)
			}
			text, caret := snippet(line, d.Pos.Column)
			b.WriteString("    ")
			b.WriteString(text)
			b.WriteString("\n    ")
			b.WriteString(strings.Repeat(" ", caret))
			b.WriteString("^\n")
		}
	}
	return b.String()
}

// snippetWidth is how many terminal cells of a source line a snippet
// shows: a longer line is cut around the caret.
const snippetWidth = 100

// snippet returns line as a terminal shows it, cut to snippetWidth cells
// around column col (counted in characters, from 1), and the cell the
// caret goes under. A tab shows as one space, a character that would
// upset the terminal (a control character, a byte that is not UTF-8) as
// "?", and a wide character (CJK, most emoji) takes two cells, so that the
// caret stays under the character it means.
func snippet(line string, col int) (string, int) {
	var cells []string // the text of each cell; a wide character's second is ""
	zero := ""         // zero-width characters before the first cell
	caret := -1
	i := 0
	for _, r := range line {
		if i == col-1 {
			caret = len(cells)
		}
		i++
		switch w := runeWidth(r); {
		case r == '\t':
			cells = append(cells, " ")
		case r == utf8.RuneError || unicode.IsControl(r):
			cells = append(cells, "?")
		case w == 0 && len(cells) == 0:
			zero += string(r)
		case w == 0:
			cells[len(cells)-1] += string(r)
		case w == 2:
			cells = append(cells, string(r), "")
		default:
			cells = append(cells, string(r))
		}
	}
	if caret < 0 {
		caret = len(cells) // past the end of the line
	}
	if len(cells) > 0 {
		cells[0] = zero + cells[0]
	}
	start, end := 0, len(cells)
	if end > snippetWidth {
		start = max(0, min(caret-snippetWidth/2, len(cells)-snippetWidth))
		if cells[start] == "" {
			start++ // not half of a wide character
		}
		end = min(start+snippetWidth, len(cells))
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	for _, c := range cells[start:end] {
		b.WriteString(c)
	}
	if end < len(cells) {
		b.WriteString("…")
	}
	caret -= start
	if start > 0 {
		caret++ // the "…"
	}
	return b.String(), caret
}

// runeWidth is the number of terminal cells r takes: 0 for a combining or
// format character, 2 for the East Asian wide and fullwidth blocks and
// emoji, 1 for the rest. It is the common blocks, not the full Unicode
// table, which is all a caret needs.
func runeWidth(r rune) int {
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	case r >= 0x1100 && r <= 0x115F, r >= 0x2E80 && r <= 0x303E, r >= 0x3041 && r <= 0x33FF,
		r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF, r >= 0xA000 && r <= 0xA4CF,
		r >= 0xAC00 && r <= 0xD7A3, r >= 0xF900 && r <= 0xFAFF, r >= 0xFE30 && r <= 0xFE4F,
		r >= 0xFF00 && r <= 0xFF60, r >= 0xFFE0 && r <= 0xFFE6, r >= 0x1F300 && r <= 0x1F64F,
		r >= 0x1F900 && r <= 0x1F9FF, r >= 0x20000 && r <= 0x3FFFD:
		return 2
	}
	return 1
}

// diagJSON is a Diagnostic as JSON. Its message is the whole text, the
// hint included, as it always was, so that a reader that knows nothing
// of hints loses nothing; hint repeats the hint for one that shows it
// apart.
type diagJSON struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line,omitempty"`
	EndColumn int    `json:"end_column,omitempty"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	Hint      string `json:"hint,omitempty"`
}

// MarshalJSON encodes the diagnostic as {"file", "line", "column",
// "severity", "message"}, with "hint", "end_line" and "end_column" when it
// has them.
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	return json.Marshal(diagJSON{File: d.Pos.Filename, Line: d.Pos.Line, Column: d.Pos.Column,
		EndLine: d.End.Line, EndColumn: d.End.Column,
		Severity: d.Severity.String(), Message: d.Text(), Hint: d.Hint})
}

// UnmarshalJSON decodes what MarshalJSON encodes. The positions' byte
// offsets are not in it, and are left 0.
func (d *Diagnostic) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil // as encoding/json leaves a struct
	}
	var j diagJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	sev := Error
	switch j.Severity {
	case "error", "":
	case "warning":
		sev = Warning
	default:
		return fmt.Errorf("diagnostic severity %q: want error or warning", j.Severity)
	}
	msg := j.Message
	if j.Hint != "" {
		msg = strings.TrimSuffix(msg, hintSep+j.Hint)
	}
	*d = Diagnostic{Severity: sev, Pos: Pos{Filename: j.File, Line: j.Line, Column: j.Column}, Message: msg, Hint: j.Hint}
	if j.EndLine > 0 {
		d.End = Pos{Filename: j.File, Line: j.EndLine, Column: j.EndColumn}
	}
	return nil
}
