package main

// Helpers that the command's tests share: running the command in-process,
// writing input files, and checking a run against what it should print.

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// asMain is set in the environment of this test binary run as turnorder,
// for the shell to call back into (see TestBashCompletion).
const asMain = "TURNORDER_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// result is what one call of run produced.
type result struct {
	code           int
	stdout, stderr string
}

func runCmd(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// writeFile writes a file under dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// expectation is a table test's check of one result.
type expectation struct {
	code      int
	stdout    []string // substrings of stdout
	stderr    []string // substrings of stderr
	notStdout []string
	notStderr []string
	oneLine   bool // stderr is a single line
}

func (x expectation) check(t *testing.T, r result) {
	t.Helper()
	if r.code != x.code {
		t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, x.code, r.stdout, r.stderr)
	}
	for _, s := range x.stdout {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	for _, s := range x.notStdout {
		if strings.Contains(r.stdout, s) {
			t.Errorf("stdout has %q:\n%s", s, r.stdout)
		}
	}
	for _, s := range x.stderr {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
	for _, s := range x.notStderr {
		if strings.Contains(r.stderr, s) {
			t.Errorf("stderr has %q:\n%s", s, r.stderr)
		}
	}
	if x.oneLine && strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr is not one line:\n%s", r.stderr)
	}
	for _, s := range []string{"panic", "goroutine"} {
		if strings.Contains(r.stdout+r.stderr, s) {
			t.Errorf("output mentions %q:\nstdout:\n%s\nstderr:\n%s", s, r.stdout, r.stderr)
		}
	}
}
