// Command turnorder checks, formats and runs .rules files: rulesets that
// decide who acts first in a tabletop game (priority, initiative, turn
// order) and the activation loops that follow.
//
// Run `turnorder help` for the list of commands, and `turnorder help CMD`
// for one command's flags and an example. docs/cli.md describes them all.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
