package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// completions returns what `turnorder __complete words...` offers.
func completions(t *testing.T, words ...string) []string {
	t.Helper()
	r := runCmd(t, "", append([]string{completeCommand}, words...)...)
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("__complete %q: status %d, stderr %q", words, r.code, r.stderr)
	}
	return strings.Fields(r.stdout)
}

func TestComplete(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, ".", "house.rules", "")
	writeFile(t, ".", "notes.txt", "")
	if err := os.Mkdir("more", 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, "more", "duel.rules", "")
	for _, tt := range []struct {
		words []string
		want  []string
	}{
		{[]string{"run", "m"}, []string{"mesbg", "morturi", "more/"}},
		{[]string{"r"}, []string{"run"}},
		{[]string{""}, []string{"help", "check", "completion", "fmt", "list", "lsp", "odds", "play", "run", "test", "version"}},
		{[]string{"help", "c"}, []string{"check", "completion"}},
		{[]string{"--"}, []string{"--color", "--help", "--version"}},
		{[]string{"--color", "a"}, []string{"auto", "always"}},
		{[]string{"--color", "never", "run", "me"}, []string{"mesbg"}},
		{[]string{"--color=never", "r"}, []string{"run"}},
		{[]string{"run", "--ro"}, []string{"--rounds"}},
		{[]string{"fmt", "-"}, []string{"--color", "-d", "--help", "-l", "-w"}},
		{[]string{"run", "mesbg", "--setup", ""}, []string{"house.rules", "more/"}},
		{[]string{"run", "mesbg", "--setup", "more/"}, []string{"more/duel.rules"}},
		{[]string{"play", "mesbg", "--save", "n"}, []string{"notes.txt"}},
		{[]string{"run", "mesbg", "--rounds", ""}, nil},
		{[]string{"run", "--color=n"}, []string{"--color=never"}},
		{[]string{"run", "--color", "=", "n"}, []string{"never"}}, // as bash splits it
		{[]string{"check", "h"}, []string{"house.rules"}},
		{[]string{"completion", ""}, []string{"bash", "fish", "zsh"}},
		{[]string{"list", ""}, nil},
		{[]string{"frob", ""}, nil},
	} {
		got := completions(t, tt.words...)
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tt.want))
		if !slices.Equal(got, want) {
			t.Errorf("__complete %q = %q, want %q", tt.words, got, want)
		}
	}
}

func TestCompletionScripts(t *testing.T) {
	for _, sh := range shells {
		r := runCmd(t, "", "completion", sh)
		expectation{code: 0, stdout: []string{"turnorder __complete"}}.check(t, r)
	}
	expectation{code: exitUsage, stderr: []string{"name a shell: bash, fish or zsh"}}.check(t, runCmd(t, "", "completion", "csh"))
	for _, sh := range []string{"bash", "zsh"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Logf("%s is not installed: its script's syntax is not checked", sh)
			continue
		}
		script := filepath.Join(t.TempDir(), "turnorder."+sh)
		writeFile(t, filepath.Dir(script), filepath.Base(script), runCmd(t, "", "completion", sh).stdout)
		if out, err := exec.Command(sh, "-n", script).CombinedOutput(); err != nil {
			t.Errorf("%s -n rejects the script: %v\n%s", sh, err, out)
		}
	}
}

// The bash script, sourced, completes `turnorder run m` with mesbg and
// morturi: bash calls the function as it would for <TAB>, with COMP_WORDS
// and COMP_CWORD set, and this test binary answers as turnorder.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "turnorder")); err != nil {
		t.Fatal(err)
	}
	script := writeFile(t, t.TempDir(), "turnorder.bash", runCmd(t, "", "completion", "bash").stdout)
	for _, tt := range []struct {
		line string
		want string
	}{
		{"turnorder run m", "mesbg morturi"},
		{"turnorder ru", "run"},
		{"turnorder run mesbg --rou", "--rounds"},
		{"turnorder run mesbg --color ne", "never"},
		{"turnorder run mesbg --setup examples/setups/a", "examples/setups/armies.rules"},
		{"turnorder check ex", "examples/"},
	} {
		words := strings.Fields(tt.line)
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", `
source "$1" || exit 1
shift
COMP_WORDS=("$@")
COMP_CWORD=$(( $# - 1 ))
_turnorder
echo "${COMPREPLY[*]}"`, "bash", script)
		cmd.Args = append(cmd.Args, words...)
		cmd.Env = append(os.Environ(), asMain+"=1", "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		cmd.Dir = "../.."
		cmd.Stderr = io.Discard
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", tt.line, err)
		}
		if got := strings.TrimSpace(string(out)); got != tt.want {
			t.Errorf("%s<TAB> offers %q, want %q", tt.line, got, tt.want)
		}
	}
}
