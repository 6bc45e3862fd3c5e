package main

import (
	"strings"
	"testing"
)

func TestList(t *testing.T) {
	expectation{code: 0, stdout: []string{
		"NAME", "TITLE", "SOURCE",
		"mesbg", "Middle-earth SBG: Priority Phase",
		"morturi", "necromunda", "agi",
	}}.check(t, runCmd(t, "", "list"))
}

// list's help and docs/cli.md say where its names can be given: every
// command that takes a bundled ruleset's name for a file.
func TestListSaysWhereNamesGo(t *testing.T) {
	help := runCmd(t, "", "help", "list").stdout
	doc := docSection(t, "../../docs/cli.md", "Lists the bundled rulesets")
	for _, cmd := range []string{"check", "fmt", "odds", "play", "run", "test"} {
		if !strings.Contains(help, cmd) {
			t.Errorf("list's help does not name %s:\n%s", cmd, help)
		}
		if !strings.Contains(doc, "`"+cmd+"`") {
			t.Errorf("docs/cli.md's list does not name %s:\n%s", cmd, doc)
		}
	}
}
