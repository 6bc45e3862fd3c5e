package main

// Tests of what makes the command line pleasant in a shell: --version,
// the suggestions for a mistyped command or flag, colour only where it is
// wanted, and completion.

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

func TestDidYouMean(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"rnu", "mesbg"}, `turnorder: unknown command "rnu"; did you mean run?` + "\n"},
		{[]string{"hepl"}, `unknown command "hepl"; did you mean help?`},
		{[]string{"help", "chekc"}, `turnorder help: unknown command "chekc"; did you mean check?`},
		{[]string{"run", "mesbg", "--roudns", "3"}, "turnorder run: unknown flag --roudns; did you mean --rounds?\n"},
		{[]string{"run", "mesbg", "-roudns=3"}, "unknown flag --roudns; did you mean --rounds?"},
		{[]string{"fmt", "--ww", "x.rules"}, "unknown flag --ww; did you mean -w?"},
		{[]string{"--verison"}, "turnorder: unknown flag --verison; did you mean --version?"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			expectation{code: exitUsage, stderr: []string{tt.want}, notStderr: []string{"flag provided but not defined"}}.
				check(t, runCmd(t, "", tt.args...))
		})
	}
	// Nothing close: the commands are listed instead.
	expectation{code: exitUsage, stderr: []string{`unknown command "frobnicate" (commands: check, completion,`}, notStderr: []string{"did you mean"}}.
		check(t, runCmd(t, "", "frobnicate"))
}

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
		{[]string{""}, []string{"help", "check", "completion", "fmt", "list", "odds", "play", "run", "test", "version"}},
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

// asMain is set in the environment of this test binary run as turnorder,
// for the shell to call back into.
const asMain = "TURNORDER_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
	}
	os.Exit(m.Run())
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
