// Package rulesets holds the bundled .rules files, one per source text,
// embedded so that Go programs and the turnorder tool can load them by name
// ("mesbg") without touching the file system, and is the one loader of
// rulesets: Read finds a ruleset's text by bundled name or path, Compile
// turns a text into a runtime.Program with its diagnostics, and Load does
// both. The turnorder command, the conformance runner and the examples
// all load rulesets through it.
package rulesets

import (
	"embed"
	"io/fs"
	"slices"
	"strings"
)

//go:embed *.rules
var files embed.FS

// Names lists the bundled rulesets, sorted.
func Names() []string {
	entries, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".rules"); ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
