package dsl

import (
	"fmt"
	"sort"
	"strings"
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
type Diagnostic struct {
	Severity Severity
	Pos      Pos
	Message  string
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

// String is "file:line:col: severity: message". A diagnostic with no
// position (about sides a host passed, say) leaves out what it lacks.
func (d Diagnostic) String() string {
	switch {
	case d.Pos.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s: %s", d.Pos.Filename, d.Pos.Line, d.Pos.Column, d.Severity, d.Message)
	case d.Pos.Filename != "":
		return fmt.Sprintf("%s: %s: %s", d.Pos.Filename, d.Severity, d.Message)
	}
	return fmt.Sprintf("%s: %s", d.Severity, d.Message)
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
// file's text (diagnostics for other files get no snippet).
func (ds Diagnostics) Render(src string) string {
	var b strings.Builder
	lines := strings.Split(src, "\n")
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
		if d.Pos.Line >= 1 && d.Pos.Line <= len(lines) {
			line := strings.TrimRight(lines[d.Pos.Line-1], "\r")
			b.WriteString("    ")
			b.WriteString(strings.ReplaceAll(line, "\t", " "))
			b.WriteString("\n    ")
			col := d.Pos.Column - 1
			if col > len([]rune(line)) {
				col = len([]rune(line))
			}
			b.WriteString(strings.Repeat(" ", max(col, 0)))
			b.WriteString("^\n")
		}
	}
	return b.String()
}
