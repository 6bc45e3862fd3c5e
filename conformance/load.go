package conformance

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// Finding the ruleset a scenario names: in its own file, a file beside
// it, or a bundled one (loaded through package rulesets).

// RulesetOf returns the `ruleset` statement of sc that counts (the last;
// nil if there is none) and, if the ruleset it names is declared in f,
// that declaration, which comes before any other ruleset of that name.
func RulesetOf(f *dsl.File, sc *dsl.Scenario) (use *dsl.UseRuleset, own *dsl.Ruleset) {
	for _, st := range sc.Body {
		if u, ok := st.(*dsl.UseRuleset); ok {
			use = u
		}
	}
	if use == nil {
		return nil, nil
	}
	for _, rs := range f.Rulesets() {
		if rs.Name == use.Name.Name {
			return use, rs
		}
	}
	return use, nil
}

func load(f *dsl.File, use *dsl.UseRuleset, own *dsl.Ruleset, opts Options) (*runtime.Program, error) {
	if own != nil {
		return runtime.CompileRuleset(f, own, opts.Compile...)
	}
	if opts.Load != nil {
		return opts.Load(use.Name.String(), use.Pos().Filename)
	}
	return Load(use.Name.String(), use.Pos().Filename, opts.Compile...)
}

// Load loads the ruleset that a scenario in fromFile names with `ruleset
// NAME`: the file NAME, relative to fromFile's directory, or the bundled
// ruleset NAME (see RulesetPath and rulesets.Load).
func Load(name, fromFile string, opts ...runtime.Option) (*runtime.Program, error) {
	return loadFS(nil, name, fromFile, opts...)
}

// loadFS is Load for a scenario in fsys (nil: the disk): a relative path
// is read from fsys, relative to fromFile's directory there.
func loadFS(fsys fs.FS, name, fromFile string, opts ...runtime.Option) (*runtime.Program, error) {
	ref := RulesetPath(name, fromFile)
	switch {
	case ref == "":
		ref = name
	case filepath.IsAbs(name):
		fsys = nil // an absolute path is on the disk
	case fsys != nil:
		ref = path.Join(path.Dir(fromFile), name)
	}
	p, err := rulesets.LoadFS(fsys, ref, opts...)
	if _, unread := errors.AsType[*rulesets.ReadError](err); unread {
		err = fmt.Errorf("ruleset %s: %w", name, err)
	}
	return p, err
}

// RulesetPath returns the file that a scenario in fromFile names with
// `ruleset NAME`: NAME relative to fromFile's directory, or NAME itself if
// it is absolute. It returns "" if NAME is not a path (rulesets.IsPath),
// which is a bundled ruleset's name.
func RulesetPath(name, fromFile string) string {
	if !rulesets.IsPath(name) {
		return ""
	}
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(filepath.Dir(fromFile), name)
}
