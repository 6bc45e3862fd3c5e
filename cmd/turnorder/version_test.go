package main

import (
	"strings"
	"testing"
)

func TestDashDashVersion(t *testing.T) {
	want := runCmd(t, "", "version")
	for _, args := range [][]string{{"--version"}, {"-version"}, {"--color=never", "--version"}} {
		got := runCmd(t, "", args...)
		expectation{code: 0, stdout: []string{"turnorder ", " (go"}}.check(t, got)
		if got.stdout != want.stdout {
			t.Errorf("%q prints %q, version prints %q", args, got.stdout, want.stdout)
		}
	}
}

func TestVersion(t *testing.T) {
	r := runCmd(t, "", "version")
	expectation{code: 0, stdout: []string{"turnorder ", " (go"}}.check(t, r)
	if strings.Count(r.stdout, "\n") != 1 {
		t.Errorf("version is not one line: %q", r.stdout)
	}
}
