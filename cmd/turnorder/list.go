package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func listCommand() *command {
	c := &command{
		name:  "list",
		args:  "",
		short: "list the bundled rulesets",
		flags: newFlags("list"),
	}
	c.run = func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "turnorder list: takes no arguments (got %q)\n", args[0])
			return exitUsage
		}
		status := exitOK
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tTITLE\tSOURCE")
		for _, name := range rulesets.Names() {
			p, err := compileBundled(name)
			if err != nil {
				fmt.Fprintf(tw, "%s\t(does not compile: run `turnorder check %s`)\t\n", name, name)
				status = exitError
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", name, p.Title(), p.Source())
		}
		tw.Flush()
		return status
	}
	return c
}

func compileBundled(name string) (*runtime.Program, error) { return rulesets.Load(name) }
