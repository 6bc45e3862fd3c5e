package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/runtime"
)

// docSection returns the lines of file from the first line that starts
// with start up to the next blank line after it.
func docSection(t *testing.T, file, start string) string {
	t.Helper()
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(doc), "\n"+start)
	if i < 0 {
		t.Fatalf("%s has no line starting %q", file, start)
	}
	section, _, _ := strings.Cut(string(doc)[i+1:], "\n\n")
	return section
}

// Every kind of event the runtime emits is documented, and nothing else:
// in the table of kinds in docs/json.md, and in the lists for `expect
// event` in docs/language.md and conformance/README.md.
func TestDocsListEveryEventKind(t *testing.T) {
	want := make([]string, len(runtime.EventKinds()))
	for i, k := range runtime.EventKinds() {
		want[i] = string(k)
	}

	// docs/json.md: one row per kind, its first cell the kind in backquotes,
	// under the header row.
	table := docSection(t, "../../docs/json.md", "| `kind` | when |")
	_, table, _ = strings.Cut(table, "\n")
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|")
	var inJSON []string
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		inJSON = append(inJSON, m[1])
	}
	checkKinds(t, "docs/json.md's table of kinds", inJSON, want)

	// docs/language.md: the kinds in backquotes, before the link to json.md.
	list := docSection(t, "../../docs/language.md", "Event kinds, for `expect event`:")
	list, _, _ = strings.Cut(strings.TrimPrefix(list, "Event kinds, for `expect event`:"), "(see")
	word := regexp.MustCompile("`([a-z_]+)`")
	var inLanguage []string
	for _, m := range word.FindAllStringSubmatch(list, -1) {
		inLanguage = append(inLanguage, m[1])
	}
	checkKinds(t, "docs/language.md's list of event kinds", inLanguage, want)

	readme, err := os.ReadFile("../../conformance/README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(readme), "KIND is one of")
	if !ok {
		t.Fatal("conformance/README.md does not say what KIND is one of")
	}
	list, _, _ = strings.Cut(list, "\n")
	var inReadme []string
	for _, m := range word.FindAllStringSubmatch(list, -1) {
		inReadme = append(inReadme, m[1])
	}
	checkKinds(t, "conformance/README.md's list of event kinds", inReadme, want)
}

// checkKinds reports the kinds missing from a document's list, and those
// it lists that runtime.EventKinds does not have.
func checkKinds(t *testing.T, where string, got, want []string) {
	t.Helper()
	for _, k := range want {
		if !slices.Contains(got, k) {
			t.Errorf("%s lacks %s", where, k)
		}
	}
	for i, k := range got {
		if !slices.Contains(want, k) {
			t.Errorf("%s lists %s, which is not in runtime.EventKinds()", where, k)
		}
		if slices.Contains(got[:i], k) {
			t.Errorf("%s lists %s twice", where, k)
		}
	}
}
