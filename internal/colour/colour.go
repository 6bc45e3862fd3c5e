// Package colour decides whether the command's output gets colour and
// emphasis, and adds them: only on a terminal, never when NO_COLOR asks
// for none (https://no-color.org), and as --color=auto|always|never says.
package colour

import (
	"fmt"
	"os"

	"golang.org/x/term"
)

// Mode is the --color setting.
type Mode int

const (
	Auto   Mode = iota // colour on a terminal, unless NO_COLOR is set
	Always             // colour even into a file or a pipe, and despite NO_COLOR
	Never
)

// Modes are the values --color takes, in the order the help lists them.
var Modes = []string{"auto", "always", "never"}

func (m Mode) String() string { return Modes[m] }

// ParseMode reads a --color value.
func ParseMode(s string) (Mode, error) {
	for i, name := range Modes {
		if s == name {
			return Mode(i), nil
		}
	}
	return Auto, fmt.Errorf("want auto, always or never")
}

// IsTerminal reports whether w is a terminal. Only a file can be one;
// x/term asks the system (an ioctl on Unix, the console mode on Windows),
// which a check of the file's mode cannot do on every platform.
func IsTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// Enabled reports whether output gets colour under mode m, to a stream
// that is a terminal or not, with the environment read through getenv.
// An explicit --color=always wins over NO_COLOR, as no-color.org allows:
// the user asked on the command line.
func Enabled(m Mode, terminal bool, getenv func(string) string) bool {
	switch m {
	case Always:
		return true
	case Never:
		return false
	}
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return terminal
}

// For reports whether output to w gets colour under mode m, in this
// process's environment.
func For(m Mode, w any) bool { return Enabled(m, IsTerminal(w), os.Getenv) }

// Style adds colour and emphasis to text when On, and nothing otherwise,
// so that callers need not ask.
type Style struct{ On bool }

func (s Style) sgr(code, text string) string {
	if !s.On || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// Bold is emphasis: play's prompts.
func (s Style) Bold(text string) string { return s.sgr("1", text) }

// Error is an error's label, bold red.
func (s Style) Error(text string) string { return s.sgr("1;31", text) }

// Warning is a warning's label, bold yellow.
func (s Style) Warning(text string) string { return s.sgr("1;33", text) }

// Note is a note's label, bold cyan.
func (s Style) Note(text string) string { return s.sgr("1;36", text) }
