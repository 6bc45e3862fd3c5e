package dsl

// The editors' syntax files under editors/ know every word of the
// grammar, so that a keyword added to the language is highlighted, or
// this test says where it is missing.

import (
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestEditorsKnowEveryKeyword(t *testing.T) {
	words := slices.Sorted(maps.Keys(keywords()))
	if len(words) < 50 {
		t.Fatalf("the grammar has only %d keywords: %q", len(words), words)
	}

	for _, file := range []string{"../editors/vscode/package.json", "../editors/vscode/language-configuration.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}

	// TextMate: the repository's patterns are regular expressions that RE2
	// reads too; keyword's matches each word whole.
	const tmFile = "../editors/vscode/syntaxes/rules.tmLanguage.json"
	data, err := os.ReadFile(tmFile)
	if err != nil {
		t.Fatal(err)
	}
	var grammar struct {
		ScopeName  string `json:"scopeName"`
		Repository map[string]struct {
			Match string `json:"match"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(data, &grammar); err != nil {
		t.Fatalf("%s: %v", tmFile, err)
	}
	if grammar.ScopeName != "source.rules" {
		t.Errorf("%s: scopeName %q, want source.rules, as package.json says", tmFile, grammar.ScopeName)
	}
	match := func(rule string) *regexp.Regexp {
		t.Helper()
		re, err := regexp.Compile(`^(?:` + grammar.Repository[rule].Match + `)$`)
		if err != nil || grammar.Repository[rule].Match == "" {
			t.Fatalf("%s: the %s rule's match %q: %v", tmFile, rule, grammar.Repository[rule].Match, err)
		}
		return re
	}
	keyword := match("keyword")
	for _, w := range words {
		if !keyword.MatchString(w) {
			t.Errorf("%s does not highlight the keyword %s", tmFile, w)
		}
	}
	dice := match("dice")
	for _, s := range []string{"d6", "2d6", "2D6", "d20"} {
		if !dice.MatchString(s) {
			t.Errorf("%s does not take %s for dice", tmFile, s)
		}
	}
	if dice.MatchString("D6") {
		t.Errorf("%s takes D6 for dice, which the lexer takes for a name", tmFile)
	}

	// Vim: the words of the syn keyword rulesKeyword lines.
	const vimFile = "../editors/vim/syntax/rules.vim"
	data, err = os.ReadFile(vimFile)
	if err != nil {
		t.Fatal(err)
	}
	var inVim []string
	in := false
	for line := range strings.Lines(string(data)) {
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 3 && fields[0] == "syn" && fields[1] == "keyword":
			in = fields[2] == "rulesKeyword"
			if in {
				inVim = append(inVim, fields[3:]...)
			}
		case in && len(fields) > 0 && fields[0] == `\`:
			inVim = append(inVim, fields[1:]...)
		default:
			in = false
		}
	}
	for _, w := range words {
		if !slices.Contains(inVim, w) {
			t.Errorf("%s does not highlight the keyword %s", vimFile, w)
		}
	}
}
