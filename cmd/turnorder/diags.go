package main

// Diagnostics as the commands print them: the way a compiler does, with
// the source line and a caret, and the errors a runtime error carries.

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// writeDiags prints diagnostics the way a compiler does, sorted by
// position, each with its source line and a caret. A diagnostic with no
// position (such as a side count from --sides) is printed after prefix, or
// after its file name if it has one.
func writeDiags(w io.Writer, ds dsl.Diagnostics, src []byte, prefix string) {
	ds = slices.Clone(ds)
	ds.Sort()
	// Each run of diagnostics with positions is rendered at once: Render
	// finds each one's line from the one before, where one at a time it
	// would look from the start of the file for each.
	text := string(src)
	run := 0
	for i, d := range ds {
		if d.Pos.Line != 0 {
			continue
		}
		io.WriteString(w, ds[run:i].Render(text))
		run = i + 1
		if d.Pos.Filename != "" {
			fmt.Fprintf(w, "%s: %s: %s\n", d.Pos.Filename, d.Severity, d.Text())
		} else {
			fmt.Fprintf(w, "%s%s\n", prefix, d.Text())
		}
	}
	io.WriteString(w, ds[run:].Render(text))
}

// ruleDiag returns err as a diagnostic at the rule that caused it, if a
// rule did. What err says around the rule's error (such as "round 3: ")
// leads the message, so nothing is lost; an error that adds words after
// it is not rewritten.
func ruleDiag(err error) (dsl.Diagnostic, bool) {
	var re *runtime.RuleError
	if !errors.As(err, &re) || re.Pos.Line == 0 {
		return dsl.Diagnostic{}, false
	}
	outer, ok := strings.CutSuffix(err.Error(), re.Error())
	if !ok {
		return dsl.Diagnostic{}, false
	}
	d := re.Diagnostic()
	d.Message = outer + d.Message
	return d, true
}

// asDiags returns err's diagnostics, if it is a dsl.Diagnostics.
func asDiags(err error) (dsl.Diagnostics, bool) {
	var ds dsl.Diagnostics
	if errors.As(err, &ds) {
		return ds, true
	}
	return nil, false
}

func countErrors(ds dsl.Diagnostics) (errs, warns int) {
	for _, d := range ds {
		if d.Severity == dsl.Error {
			errs++
		} else {
			warns++
		}
	}
	return errs, warns
}

// diagsOf returns err's diagnostics, or err as one error at pos if it is
// not a dsl.Diagnostics.
func diagsOf(err error, pos dsl.Pos) dsl.Diagnostics {
	if ds, ok := asDiags(err); ok {
		return ds
	}
	return dsl.Diagnostics{dsl.Errorf(pos, "%v", err)}
}

func errorsOnly(ds dsl.Diagnostics) dsl.Diagnostics {
	var out dsl.Diagnostics
	for _, d := range ds {
		if d.Severity == dsl.Error {
			out = append(out, d)
		}
	}
	return out
}

// writeNote prints a note the way writeDiags prints a diagnostic, with the
// source line (src is the text of pos's file) and a caret.
func writeNote(w io.Writer, pos dsl.Pos, src []byte, msg string) {
	rendered := dsl.Diagnostics{{Pos: pos}}.Render(string(src))
	_, snippet, _ := strings.Cut(rendered, "\n")
	fmt.Fprintf(w, "%s:%d:%d: note: %s\n%s", pos.Filename, pos.Line, pos.Column, msg, snippet)
}

func countErrorsOnly(ds dsl.Diagnostics) int {
	errs, _ := countErrors(ds)
	return errs
}
