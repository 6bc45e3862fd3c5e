package main

import (
	"strings"
	"testing"
)

// withTerminal makes run take every stream for a terminal, as if it wrote
// to one, and clears NO_COLOR and TERM, for the test to set.
func withTerminal(t *testing.T) {
	saved := isTTY
	isTTY = func(any) bool { return true }
	t.Cleanup(func() { isTTY = saved })
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
}

func TestColour(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.rules", "ruleset bad \"Bad\" {\n  sides 2\n  phase p { order sides as o { highest agl } }\n}\n")
	check := []string{"check", bad}
	const red = "\x1b[1;31merror\x1b[0m: unknown name agl"

	t.Run("terminal", func(t *testing.T) {
		withTerminal(t)
		r := runCmd(t, "", check...)
		expectation{code: 1, stderr: []string{red}}.check(t, r)
		// The source line and caret stay plain.
		if n := strings.Count(r.stderr, "\x1b["); n != 2 {
			t.Errorf("%d escapes, want the label's 2:\n%q", n, r.stderr)
		}
	})
	t.Run("NO_COLOR", func(t *testing.T) {
		withTerminal(t)
		t.Setenv("NO_COLOR", "1")
		expectation{code: 1, stderr: []string{"bad.rules:3:40: error: unknown name agl"}, notStderr: []string{"\x1b["}}.
			check(t, runCmd(t, "", check...))
	})
	t.Run("never", func(t *testing.T) {
		withTerminal(t)
		for _, args := range [][]string{append([]string{"--color=never"}, check...), append(check, "--color", "never")} {
			expectation{code: 1, notStderr: []string{"\x1b["}}.check(t, runCmd(t, "", args...))
		}
	})
	t.Run("not a terminal", func(t *testing.T) {
		t.Setenv("NO_COLOR", "")
		expectation{code: 1, stderr: []string{": error: unknown name agl"}, notStderr: []string{"\x1b["}}.
			check(t, runCmd(t, "", check...))
	})
	t.Run("always", func(t *testing.T) {
		t.Setenv("NO_COLOR", "1")
		for _, args := range [][]string{append([]string{"--color=always"}, check...), append(check, "--color=always")} {
			expectation{code: 1, stderr: []string{red}}.check(t, runCmd(t, "", args...))
		}
	})
	t.Run("play's prompts", func(t *testing.T) {
		r := runCmd(t, "4\n2\n1\n", "play", "mesbg", "--rounds", "1", "--color=always")
		expectation{code: 0, stdout: []string{"\x1b[1mRound 1, priority: Jay rolls d6: \x1b[0m4\n"}}.check(t, r)
		r = runCmd(t, "4\n2\n1\n", "play", "mesbg", "--rounds", "1")
		expectation{code: 0, stdout: []string{"Round 1, priority: Jay rolls d6: 4\n"}, notStdout: []string{"\x1b["}}.check(t, r)
	})
	t.Run("bad value", func(t *testing.T) {
		expectation{code: exitError, stderr: []string{`invalid value "sometimes" for --color: want auto, always or never`}}.
			check(t, runCmd(t, "", "--color=sometimes", "list"))
		expectation{code: exitError, stderr: []string{`invalid value "sometimes" for --color: want auto, always or never`}}.
			check(t, runCmd(t, "", "list", "--color=sometimes"))
	})
}
