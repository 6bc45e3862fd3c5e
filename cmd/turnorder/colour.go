package main

// Colour on a terminal: the labels of diagnostics on standard error, and
// play's prompts on standard output.

import (
	"bytes"
	"io"
	"os"

	"github.com/turnorder/turnorder/internal/colour"
)

// isTTY reports whether a stream is a terminal; tests stand in for one.
var isTTY = colour.IsTerminal

// setColour decides, for each stream, whether it gets colour under mode m.
// Standard error is wrapped rather than each diagnostic's printer told,
// so that every diagnostic gets the same colours, whichever code prints
// it, and code that prints them need not know.
func (e *env) setColour(m colour.Mode) {
	e.style = colour.Style{On: colour.Enabled(m, isTTY(e.stdout), os.Getenv)}
	if colour.Enabled(m, isTTY(e.stderr), os.Getenv) {
		e.stderr = &labelWriter{w: e.stderr, style: colour.Style{On: true}}
	}
}

// labelWriter colours the severity label of each diagnostic's first line
// ("file:3:7: error: ..."), the line a compiler's diagnostic starts
// with; its source line and caret are indented, and left alone.
type labelWriter struct {
	w     io.Writer
	style colour.Style
	mid   bool // the last write ended in the middle of a line
}

var labels = []struct {
	text  []byte
	paint func(colour.Style, string) string
}{
	{[]byte(": error: "), colour.Style.Error},
	{[]byte(": warning: "), colour.Style.Warning},
	{[]byte(": note: "), colour.Style.Note},
}

func (lw *labelWriter) Write(p []byte) (int, error) {
	var out []byte
	for rest := p; len(rest) > 0; {
		line, after, nl := bytes.Cut(rest, []byte("\n"))
		if !lw.mid && len(line) > 0 && line[0] != ' ' {
			line = lw.paint(line)
		}
		out = append(out, line...)
		if nl {
			out = append(out, '\n')
		}
		lw.mid = !nl
		rest = after
	}
	if _, err := lw.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// paint colours the first label in line.
func (lw *labelWriter) paint(line []byte) []byte {
	at, which := -1, -1
	for i, l := range labels {
		if j := bytes.Index(line, l.text); j >= 0 && (at < 0 || j < at) {
			at, which = j, i
		}
	}
	if at < 0 {
		return line
	}
	l := labels[which]
	word := string(l.text[2 : len(l.text)-2])
	var b []byte
	b = append(b, line[:at+2]...)
	b = append(b, l.paint(lw.style, word)...)
	b = append(b, line[at+len(l.text)-2:]...)
	return b
}
