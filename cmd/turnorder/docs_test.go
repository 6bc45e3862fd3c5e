package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// README.md's tour of `turnorder test` shows the start and the end of the
// bundled suite's output, and the failure of its worked-example scenario
// (the one under "A scenario is the rulebook's worked example") with a
// wrong chooser: keep both what the command prints.
func TestREADMETourOfTest(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, tour, ok := strings.Cut(string(readme), "\n### test\n")
	if !ok {
		t.Fatal(`README.md has no "### test" section`)
	}
	_, tour, ok = strings.Cut(tour, "```\n$ turnorder test\n")
	if !ok {
		t.Fatal("README.md's test section does not show `$ turnorder test`")
	}
	tour, _, _ = strings.Cut(tour, "```\n")
	suite, failing, ok := strings.Cut(tour, "$ turnorder test jay-and-rob.rules")
	if !ok {
		t.Fatal("README.md's test section does not show `$ turnorder test jay-and-rob.rules`")
	}
	_, failing, _ = strings.Cut(failing, "\n") // after the command's comment

	r := runCmd(t, "", "test")
	expectation{code: 0}.check(t, r)
	got := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	want := strings.Split(strings.TrimRight(suite, "\n"), "\n")
	if len(want) != 3 || want[1] != "..." {
		t.Fatalf("README.md shows the suite as %q; want its first line, ... and its last", want)
	}
	if want[0] != got[0] || want[2] != got[len(got)-1] {
		t.Errorf("README.md shows the suite as\n%s\n...\n%s\nbut test prints\n%s\n...\n%s", want[0], want[2], got[0], got[len(got)-1])
	}

	_, scenario, ok := strings.Cut(string(readme), "**A scenario** is the rulebook's worked example, checked:\n\n```\n")
	if !ok {
		t.Fatal("README.md does not show the worked example's scenario")
	}
	scenario, _, _ = strings.Cut(scenario, "```\n")
	wrong := strings.Replace(scenario, "expect chooser Rob", "expect chooser Jay", 1)
	if wrong == scenario {
		t.Fatal("README.md's worked example does not `expect chooser Rob`")
	}
	t.Chdir(t.TempDir())
	writeFile(t, ".", "jay-and-rob.rules", wrong)
	r = runCmd(t, "", "test", "jay-and-rob.rules")
	expectation{code: 1}.check(t, r)
	// go-cmp writes its diffs with non-breaking spaces at random.
	if got := strings.ReplaceAll(r.stdout, "\u00a0", " "); got != failing {
		t.Errorf("README.md shows\n%s\nbut test prints\n%s", failing, got)
	}
}

// docs/cli.md gives each command the synopsis its help gives, and each
// synopsis names every kind of argument the command takes: a bundled
// ruleset's name (NAME) where the command accepts one, standard input (-)
// where it reads it.
func TestCLIDocSynopses(t *testing.T) {
	takes := map[string][]string{"check": {"NAME", "-"}, "fmt": {"NAME", "-"}, "test": {"NAME"}}
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			usage := strings.TrimSpace("turnorder " + c.name + " " + c.args)
			// The synopsis is the first code block that starts with it: a line
			// of an error message may start "turnorder run:" earlier.
			section, _, _ := strings.Cut(docSection(t, "../../docs/cli.md", "```\nturnorder "+c.name), "\n```")
			section = strings.TrimPrefix(section, "```\n")
			if got := strings.Join(strings.Fields(section), " "); got != usage {
				t.Errorf("docs/cli.md:\n%s\nhelp:\n%s", got, usage)
			}
			for _, arg := range takes[c.name] {
				if !strings.Contains(c.args, "|"+arg+"]") && !strings.Contains(c.args, "|"+arg+"|") && !strings.Contains(c.args, "|"+arg+")") {
					t.Errorf("the synopsis %q does not name %s", usage, arg)
				}
			}
			// Bundled names and - stand where the files do: the synopsis says
			// one or more in one notation, [...]... where none is needed.
			if strings.Contains(c.args, "-...") {
				t.Errorf("the synopsis %q reads as a flag \"-...\"", usage)
			}
		})
	}
}

// docs/cli.md shows, under test, a scenario whose every expectation is
// wrong and what test prints for it: keep both true, so that the page
// shows each failure as a house-rule author will see it.
func TestCLIDocTestFailures(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## test\n")
	if !ok {
		t.Fatal(`docs/cli.md has no "## test" section`)
	}
	_, scenario, ok := strings.Cut(section, "```rules\n")
	if !ok {
		t.Fatal("docs/cli.md's test section shows no scenario")
	}
	scenario, rest, _ := strings.Cut(scenario, "```\n")
	const marker = "<!-- the test TestCLIDocTestFailures runs this scenario as schools.rules and compares -->\n```\n$ turnorder test schools.rules\n"
	_, shown, ok := strings.Cut(rest, marker)
	if !ok {
		t.Fatalf("docs/cli.md's test section does not show, after the scenario,\n%s", marker)
	}
	shown, _, _ = strings.Cut(shown, "```\n")
	t.Chdir(t.TempDir())
	writeFile(t, ".", "schools.rules", scenario)
	r := runCmd(t, "", "test", "schools.rules")
	expectation{code: 1}.check(t, r)
	if diff := cmp.Diff(shown, r.stdout); diff != "" {
		t.Errorf("docs/cli.md shows what test prints (-doc +test):\n%s", diff)
	}
	// Every expectation of the scenario fails, each kind once.
	if got, want := strings.Count(r.stdout, "    schools.rules:"), strings.Count(scenario, "expect "); got != want {
		t.Errorf("%d failures for %d expectations", got, want)
	}
}
