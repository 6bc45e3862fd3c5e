package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/linediff"
	"github.com/turnorder/turnorder/rulesets"
)

func fmtCommand() *command {
	c := &command{
		name:  "fmt",
		args:  "[-w] [-l] [-d] [FILE|DIR|NAME|-]...",
		short: "format .rules files in the canonical layout",
		flags: newFlags("fmt"),
	}
	write := c.flags.Bool("w", false, "write the result to the file instead of standard output")
	list := c.flags.Bool("l", false, "list the files whose formatting differs")
	diff := c.flags.Bool("d", false, "print a diff of the changes instead of the formatted text")
	c.run = func(e *env, args []string) int {
		o := fmtOptions{write: *write, list: *list, diff: *diff}
		if len(args) == 0 {
			args = []string{"-"}
		}
		if o.write && slices.Contains(args, "-") {
			fmt.Fprintln(e.stderr, "turnorder fmt: cannot use -w with standard input")
			return exitUsage
		}
		if o.write {
			// Refused before any file is written, as standard input is.
			for _, arg := range args {
				if _, err := os.Stat(arg); err != nil && isBundled(arg) {
					fmt.Fprintf(e.stderr, "turnorder fmt: %s is a bundled ruleset, which -w cannot write: start a house rule with `turnorder fmt %s > house.rules`\n", arg, arg)
					return exitUsage
				}
			}
		}
		// Every file is found before any is formatted: a mistyped name
		// stops the command before it writes anything.
		if files, err := rulesFiles(args, orBundled); err != nil {
			fmt.Fprintf(e.stderr, "turnorder fmt: %s\n", pathError(err))
			return exitError
		} else if len(files) == 0 {
			// As check says: a directory with no .rules file under it
			// is more likely a mistaken path than nothing to format.
			fmt.Fprintf(e.stderr, "turnorder fmt: no .rules files in %s\n", strings.Join(args, ", "))
			return exitError
		}
		status := exitOK
		seen := map[string]bool{}
		for _, arg := range args {
			if arg == "-" {
				if seen[arg] {
					continue // read once: a second read would find it empty
				}
				seen[arg] = true
				// Standard input, as for check: an editor formats what it
				// has not saved.
				src, err := io.ReadAll(io.LimitReader(e.stdin, dsl.MaxSourceBytes+1))
				if err != nil {
					fmt.Fprintf(e.stderr, "turnorder fmt: reading standard input: %v\n", err)
					return exitError
				}
				if !fmtOne(e, o, "<standard input>", src, 0) {
					status = exitError
				}
				continue
			}
			if _, err := os.Stat(arg); err != nil && isBundled(arg) {
				src, err := rulesets.Read(arg)
				if err != nil || !fmtOne(e, o, src.Filename, src.Text, 0) {
					status = exitError
				}
				continue
			}
			files, err := rulesFiles([]string{arg}, orBundled)
			if err != nil {
				fmt.Fprintf(e.stderr, "turnorder fmt: %s\n", pathError(err))
				return exitError
			}
			for _, file := range files {
				if seen[filepath.Clean(file)] {
					continue
				}
				seen[filepath.Clean(file)] = true
				info, err := os.Stat(file)
				var src []byte
				if err == nil {
					var rs rulesets.Source
					rs, err = rulesets.ReadFile(file)
					src = rs.Text
				}
				if err != nil {
					fmt.Fprintf(e.stderr, "turnorder fmt: %s\n", pathError(err))
					status = exitError
					continue
				}
				if !fmtOne(e, o, file, src, info.Mode().Perm()) {
					status = exitError
				}
			}
		}
		return status
	}
	return c
}

type fmtOptions struct{ write, list, diff bool }

// fmtOne formats one file's text and does what the flags ask. It reports
// whether it succeeded.
func fmtOne(e *env, o fmtOptions, name string, src []byte, perm os.FileMode) bool {
	out, diags := dsl.FormatSource(name, src)
	if diags.HasErrors() || out == nil {
		writeDiags(e.stderr, diags, src, e.prefix())
		if len(diags) == 0 {
			fmt.Fprintf(e.stderr, "%s: cannot be formatted\n", name)
		}
		return false
	}
	changed := !bytes.Equal(src, out)
	if o.list && changed {
		fmt.Fprintln(e.stdout, name)
	}
	if o.write && changed {
		if err := os.WriteFile(name, out, perm); err != nil {
			fmt.Fprintf(e.stderr, "turnorder fmt: %s\n", pathError(err))
			return false
		}
	}
	if o.diff && changed {
		fmt.Fprintf(e.stdout, "diff %s.orig %s\n", name, name)
		io.WriteString(e.stdout, linediff.Unified(name+".orig", name, string(src), string(out)))
	}
	if !o.list && !o.write && !o.diff {
		e.stdout.Write(out)
	}
	return true
}
