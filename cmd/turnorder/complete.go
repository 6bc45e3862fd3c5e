package main

// Shell completion: `turnorder completion SHELL` prints a small script
// that asks the binary itself for the candidates (`turnorder __complete
// WORDS...`, as cobra's scripts do), so that they come from the command
// table, the flag sets and the bundled rulesets, and cannot drift from
// them as a hand-written list in three shell languages would.

import (
	"cmp"
	"embed"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/internal/colour"
	"github.com/turnorder/turnorder/rulesets"
)

// completeCommand is the hidden command the completion scripts call.
const completeCommand = "__complete"

//go:embed completion/*
var completionScripts embed.FS

var shells = []string{"bash", "fish", "zsh"}

func completionCommand() *command {
	c := &command{
		name:  "completion",
		args:  "bash|fish|zsh",
		short: "print a shell completion script",
		flags: newFlags("completion"),
	}
	c.run = func(e *env, args []string) int {
		if len(args) != 1 || !slices.Contains(shells, args[0]) {
			fmt.Fprintf(e.stderr, "%sname a shell: bash, fish or zsh\n", e.prefix())
			return exitUsage
		}
		script, err := completionScripts.ReadFile("completion/turnorder." + args[0])
		if err != nil {
			panic(err) // the scripts are embedded: a missing one is a bad build
		}
		e.stdout.Write(script)
		return exitOK
	}
	return c
}

// rulesetCommands take rulesets, bundled or in .rules files, as arguments.
var rulesetCommands = []string{"check", "fmt", "odds", "play", "run", "test"}

// fileFlags take a file: .rules files for those that read rulesets.
var fileFlags = map[string]string{
	"setup":  ".rules",
	"save":   "",
	"resume": "",
	"svg":    "",
}

// complete prints, one a line, the candidates for the last of words (the
// words after turnorder up to the cursor, the last maybe empty). bash
// splits --color=always into --color, = and always; the other shells
// keep the word whole, and get the whole word back.
func complete(w io.Writer, cmds []*command, words []string) int {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, before := words[len(words)-1], words[:len(words)-1]
	var out []string
	defer func() {
		for _, s := range out {
			if strings.HasPrefix(s, cur) {
				fmt.Fprintln(w, s)
			}
		}
	}()

	// The command is the first word that is not a global flag or the
	// value of --color.
	at := -1
	for i := 0; i < len(before) && at < 0; i++ {
		switch w := before[i]; {
		case strings.TrimLeft(w, "-") == "color" && strings.HasPrefix(w, "-"):
			i++
		case !strings.HasPrefix(w, "-"):
			at = i
		}
	}
	if at < 0 {
		if strings.HasPrefix(cur, "-") {
			out = []string{"--color", "--help", "--version", "-h"}
			return exitOK
		}
		if len(before) > 0 && strings.TrimLeft(before[len(before)-1], "-") == "color" {
			out = colour.Modes
			return exitOK
		}
		out = commandWords(cmds)
		return exitOK
	}
	name, args := before[at], before[at+1:]
	if name == "help" {
		if len(args) == 0 {
			out = commandWords(cmds)
		}
		return exitOK
	}
	c := findCommand(cmds, name)
	if c == nil {
		return exitOK
	}

	// A flag's value: --setup FILE, --color=WHEN, and bash's --color = WHEN.
	if len(args) > 0 && args[len(args)-1] == "=" && len(args) > 1 {
		out = flagValues(c.flags, args[len(args)-2], cur)
		return exitOK
	}
	if cur == "=" && len(args) > 0 {
		for _, v := range flagValues(c.flags, args[len(args)-1], "") {
			out = append(out, "="+v)
		}
		return exitOK
	}
	if flagName, value, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(flagName, "-") {
		for _, v := range flagValues(c.flags, flagName, value) {
			out = append(out, flagName+"="+v)
		}
		return exitOK
	}
	if len(args) > 0 && takesValue(c.flags, args[len(args)-1]) {
		out = flagValues(c.flags, args[len(args)-1], cur)
		return exitOK
	}
	if strings.HasPrefix(cur, "-") {
		out = flagNames(c.flags)
		return exitOK
	}
	switch {
	case c.name == "completion":
		out = shells
	case slices.Contains(rulesetCommands, c.name):
		out = append(rulesets.Names(), files(cur, ".rules")...)
	}
	return exitOK
}

// lookup finds the flag a word names, with one dash or two.
func lookup(fs *flag.FlagSet, word string) *flag.Flag {
	if !strings.HasPrefix(word, "-") {
		return nil
	}
	return fs.Lookup(strings.TrimLeft(word, "-"))
}

// takesValue reports whether word is a flag that takes the next word as
// its value.
func takesValue(fs *flag.FlagSet, word string) bool {
	f := lookup(fs, word)
	if f == nil || strings.Contains(word, "=") {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// flagValues returns the values the flag named by word may take that
// start with cur, where they are a known few or files.
func flagValues(fs *flag.FlagSet, word, cur string) []string {
	f := lookup(fs, word)
	if f == nil {
		return nil
	}
	if f.Name == "color" {
		return colour.Modes
	}
	if ext, ok := fileFlags[f.Name]; ok {
		return files(cur, ext)
	}
	return nil
}

// files returns the directories (with a slash, to go on into) and the
// files ending in ext ("" for any) whose paths start with cur. Names
// starting with a dot are left out unless cur asks for them.
func files(cur, ext string) []string {
	dir, base := filepath.Split(cur)
	entries, err := os.ReadDir(cmp.Or(dir, "."))
	if err != nil {
		return nil
	}
	var out []string
	for _, ent := range entries {
		n := ent.Name()
		if !strings.HasPrefix(n, base) || strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		isDir := ent.IsDir()
		if ent.Type()&os.ModeSymlink != 0 {
			if info, err := os.Stat(filepath.Join(cmp.Or(dir, "."), n)); err == nil {
				isDir = info.IsDir()
			}
		}
		switch {
		case isDir:
			out = append(out, dir+n+"/")
		case ext == "" || strings.HasSuffix(n, ext):
			out = append(out, dir+n)
		}
	}
	return out
}
