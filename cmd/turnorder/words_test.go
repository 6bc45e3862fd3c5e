package main

// Tests of the words the commands share.

import (
	"path/filepath"
	"testing"
)

// The command a stop prints to resume the battle can be pasted into a
// shell: a path with spaces or quotes is quoted.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"necromunda":           "necromunda",
		"/tmp/a-b/battle.json": "/tmp/a-b/battle.json",
		"my battle.json":       "'my battle.json'",
		"Jay's.json":           `'Jay'\''s.json'`,
		"":                     "''",
	} {
		if got := shellWord(in); got != want {
			t.Errorf("shellWord(%q) = %s, want %s", in, got, want)
		}
	}
	// As the stop says it.
	dir := t.TempDir()
	part := filepath.Join(dir, "my battle.json")
	r := runCmd(t, "4\n2\nsave "+part+"\nquit\n", "play", "necromunda", "--setup", gangsSetup(t, dir))
	expectation{code: 0, stderr: []string{"resume it with `turnorder play necromunda --resume '" + part + "'`\n"}}.check(t, r)
}
