package colour

import "testing"

func TestEnabled(t *testing.T) {
	env := func(vars ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(vars); i += 2 {
				if vars[i] == k {
					return vars[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name     string
		mode     Mode
		terminal bool
		env      func(string) string
		want     bool
	}{
		{"auto on a terminal", Auto, true, env(), true},
		{"auto into a pipe", Auto, false, env(), false},
		{"NO_COLOR on a terminal", Auto, true, env("NO_COLOR", "1"), false},
		{"NO_COLOR empty counts as unset", Auto, true, env("NO_COLOR", ""), true},
		{"a dumb terminal", Auto, true, env("TERM", "dumb"), false},
		{"always into a pipe", Always, false, env(), true},
		{"always despite NO_COLOR", Always, false, env("NO_COLOR", "yes"), true},
		{"never on a terminal", Never, true, env(), false},
	} {
		if got := Enabled(tc.mode, tc.terminal, tc.env); got != tc.want {
			t.Errorf("%s: Enabled = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, s := range Modes {
		m, err := ParseMode(s)
		if err != nil || m.String() != s {
			t.Errorf("ParseMode(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseMode("yes"); err == nil {
		t.Error("ParseMode(yes) succeeded")
	}
}

func TestStyle(t *testing.T) {
	if got := (Style{}).Error("error"); got != "error" {
		t.Errorf("off: %q", got)
	}
	if got := (Style{On: true}).Error("error"); got != "\x1b[1;31merror\x1b[0m" {
		t.Errorf("on: %q", got)
	}
}
