package rulesets_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/rulesets"
)

// A name that is not bundled is fs.ErrNotExist, so that a host taking the
// name from a user (a bot's command) can tell "no such ruleset" from a
// bundled one that fails, and fall back to a file of its own.
func TestUnknownNameIsErrNotExist(t *testing.T) {
	tests := []struct {
		name string
		call func(string) error
	}{
		{"Read", func(n string) error { _, err := rulesets.Read(n); return err }},
		{"Load", func(n string) error { _, err := rulesets.Load(n); return err }},
		{"Parse", func(n string) error { _, err := rulesets.Parse(n); return err }},
	}
	for _, tt := range tests {
		for _, name := range []string{"nope", "../mesbg", ""} {
			t.Run(tt.name+"/"+name, func(t *testing.T) {
				err := tt.call(name)
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s(%q): %v; want an error that is fs.ErrNotExist", tt.name, name, err)
				}
				if err == nil {
					return
				}
				want := `unknown ruleset "` + name + `": the bundled rulesets are agi, mesbg, morturi, necromunda (or give the path of a .rules file)`
				if rulesets.IsPath(name) {
					want = name + ": no such file or directory" // a path is read from the disk
				}
				if diff := cmp.Diff(want, err.Error()); diff != "" {
					t.Errorf("message (-want +got):\n%s", diff)
				}
			})
		}
	}
	// A typo of a bundled name is told which it may be.
	_, err := rulesets.Parse("mesgb")
	if want := `unknown ruleset "mesgb" (did you mean mesbg?): the bundled rulesets are agi, mesbg, morturi, necromunda (or give the path of a .rules file)`; err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Parse(mesgb): %v; want %s (fs.ErrNotExist)", err, want)
	}
	for _, name := range rulesets.Names() {
		if _, err := rulesets.Parse(name); err != nil {
			t.Errorf("Parse(%q): %v", name, err)
		}
	}
}
