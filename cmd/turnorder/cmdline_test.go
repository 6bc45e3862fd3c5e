package main

import (
	"strings"
	"testing"
)

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

func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args      []string
		pos       string
		rounds    int
		json      bool
		wantError bool
	}{
		{[]string{"mesbg"}, "mesbg", 3, false, false},
		{[]string{"mesbg", "--rounds", "5", "--json"}, "mesbg", 5, true, false},
		{[]string{"--json", "mesbg", "-rounds=2"}, "mesbg", 2, true, false},
		{[]string{"--rounds", "2", "a", "b"}, "a b", 2, false, false},
		{[]string{"--", "--json"}, "--json", 3, false, false},
		{[]string{"a", "--", "-b", "--rounds", "4"}, "a -b --rounds 4", 3, false, false},
		{[]string{"a", "--nope"}, "", 3, false, true},
	}
	for _, tt := range tests {
		fs := newFlags("t")
		rounds := fs.Int("rounds", 3, "")
		js := fs.Bool("json", false, "")
		pos, err := parseInterspersed(fs, tt.args)
		if (err != nil) != tt.wantError {
			t.Errorf("%q: err = %v", tt.args, err)
			continue
		}
		if err != nil {
			continue
		}
		if got := strings.Join(pos, " "); got != tt.pos || *rounds != tt.rounds || *js != tt.json {
			t.Errorf("%q: got %q rounds=%d json=%v; want %q %d %v", tt.args, got, *rounds, *js, tt.pos, tt.rounds, tt.json)
		}
	}
}
