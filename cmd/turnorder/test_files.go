package main

// The files test runs: those its arguments name, or the bundled suite.

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
)

// scenarioFile is one file to run: the name it is shown and parsed under,
// and its text.
type scenarioFile struct {
	name string
	src  []byte
	err  error // reading it failed

	// Set by parse, before any scenario runs, so that --with can be checked
	// against the rulesets the scenarios take.
	f     *dsl.File
	diags dsl.Diagnostics
}

// parse parses the file, if it could be read.
func (sf *scenarioFile) parse() {
	if sf.err == nil {
		sf.f, sf.diags = dsl.Parse(sf.name, sf.src)
	}
}

// suiteDir is how the bundled suite's files are named in the output, so
// that a failure's position points at the file in the repository.
const suiteDir = "conformance"

// testFiles expands test's arguments. No argument is the bundled suite; a
// bundled ruleset's name that is not a file is its scenarios in the suite.
func testFiles(args []string) ([]scenarioFile, error) {
	if len(args) == 0 {
		return suiteFiles(func(string) bool { return true })
	}
	var out []scenarioFile
	for _, arg := range args {
		if _, err := os.Stat(arg); err != nil && isBundled(arg) {
			bundled, err := suiteFiles(func(p string) bool { return path.Base(p) == arg+".rules" })
			if err != nil {
				return nil, err
			}
			if len(bundled) == 0 {
				return nil, fmt.Errorf("the bundled suite has no scenarios for %s", arg)
			}
			out = append(out, bundled...)
			continue
		}
		names, err := rulesFiles([]string{arg}, func(arg string, err error) error {
			return fmt.Errorf("%s (and no bundled ruleset has that name; bundled: %s)", pathError(err), bundledList())
		})
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			rs, err := rulesets.ReadFile(name)
			out = append(out, scenarioFile{name: name, src: rs.Text, err: err})
		}
	}
	// A file named twice (test mesbg mesbg, or a file and its folder) runs once.
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(f scenarioFile) bool {
		dup := seen[f.name]
		seen[f.name] = true
		return dup
	}), nil
}

func suiteFiles(keep func(string) bool) ([]scenarioFile, error) {
	var out []scenarioFile
	err := fs.WalkDir(conformance.Suite(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rules") || !keep(p) {
			return err
		}
		src, err := fs.ReadFile(conformance.Suite(), p)
		out = append(out, scenarioFile{name: path.Join(suiteDir, p), src: src, err: err})
		return nil
	})
	return out, err
}
