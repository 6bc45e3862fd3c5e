// Package rulesets holds the bundled .rules files, one per source text,
// embedded so that Go programs and the turnorder tool can load them by name
// ("mesbg") without touching the file system.
package rulesets

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
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

// Source returns the text of a bundled ruleset and its file name. A name
// that is not bundled is an error that errors.Is finds as fs.ErrNotExist.
func Source(name string) (filename string, src []byte, err error) {
	filename = path.Join("rulesets", name+".rules")
	src, err = fs.ReadFile(files, name+".rules")
	if err != nil {
		msg := fmt.Sprintf("no bundled ruleset %q (bundled: %s)", name, strings.Join(Names(), ", "))
		if s := dsl.Suggest(name, Names()); s != "" {
			msg = fmt.Sprintf("no bundled ruleset %q: did you mean %s? (bundled: %s)", name, s, strings.Join(Names(), ", "))
		}
		return "", nil, notBundled{msg}
	}
	return filename, src, nil
}

// notBundled is the error for a name that is not bundled: fs.ErrNotExist
// with a message that lists the bundled names.
type notBundled struct{ msg string }

func (e notBundled) Error() string { return e.msg }
func (e notBundled) Unwrap() error { return fs.ErrNotExist }

// Parse parses a bundled ruleset. A name that is not bundled is an error
// that errors.Is finds as fs.ErrNotExist.
func Parse(name string) (*dsl.File, error) {
	filename, src, err := Source(name)
	if err != nil {
		return nil, err
	}
	f, diags := dsl.Parse(filename, src)
	if diags.HasErrors() {
		return nil, diags
	}
	return f, nil
}
