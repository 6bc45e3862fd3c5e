package conformance_test

// The source texts (testdata/sources, copies of the four texts the bundled
// rulesets implement) are split into clauses: sentences, as a rulebook
// reader would quote them. These tests keep three promises:
//
//   - every quote, in a bundled ruleset or a bundled scenario, is verbatim:
//     whole clauses of the ruleset's source text, character for character;
//   - every rule clause is quoted in its ruleset, next to the rule that
//     implements it (worked examples are quoted by their scenarios instead);
//   - every clause is quoted by at least one scenario that checks it, except
//     a few descriptive ones that state no rule (listed below, with why).
//
// The clause table in README.md is generated from the same data:
//
//	go test ./conformance -run TestClauseTable -update

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/conformance"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
)

var update = flag.Bool("update", false, "rewrite the clause table in README.md")

// workedExamples are the clauses of each source that belong to a worked
// example. Their ruleset need not quote them; their scenarios must.
var workedExamples = map[string][]string{
	"000": {
		"For example: It is the Priority Phase of a game and the players are rolling off to see who chooses who has Priority.",
		"Jay rolls a 4 whilst Rob rolls a 2, meaning that Jay gets to choose who has Priority - he chooses himself.",
		"In the next Priority, both Jay and Rob roll a 3 - a tie.",
		"As Jay made the choice of who had Priority in the previous turn, the choice of who has Priority in this turn will go to Rob.",
	},
	"002": {
		"For example, Player A wins the die roll and places 1st, player B 2nd.",
		"During player A’s token upkeep their AGI drops due to a buff being removed, Player B would then move in front on the turn order card.",
		"During the Main Phase of Player A’s turn, they increase their AGI back to the same value it was at the start of their turn.",
		"Since AGI values have changed and then returned back to a matched value, another AGI tie has occurred.",
		"Players A & B would once again roll a D6.",
		"Example, player ABC all roll.",
		"A gets 1, B gets 2, and C gets 3.",
		"Player C will place 1st, player B will place 2nd and player A will place last.",
		"For example, player A & B are on the same team and have the same AGI values.",
		"Player A decides to place 1st on the turn order card and Player B 2nd.",
		"The turn order will remain this way each round until Player A or B change their AGI values.",
	},
	"003": {
		"The ''Ludi Aeternum'' school is fielding 8 Gladiators with total movement value 24.",
		"The ''Vi Et Armis'' school is fielding 8 Gladiators with total movement value 33.",
		"The ''Legio Mortis'' school is fielding 8 Gladiators with total movement value 33.",
		"The ''Malleus Deus'' school is fielding 6 Gladiators with total movement value 30.",
		"The ''Malleus Deus'' school has highest priority, as it has the fewest fielded gladiators.",
		"The ''Ludi Aeternum'' school is next, as it has an equal number of Gladiators fielded as compared to ''Legio Mortis'' and ''Vi Et Armis'', but has a lower total movement.",
		"The ''Legio Mortis'' and ''Vi Et Armis'' schools have equal number of gladiators and equal total movement.",
		"The Imperator rolls a dice, and randomly decides that the ''Legio Mortis'' has priority.",
		"The school order is now set...:",
		"...and this order remains for the whole battle.",
	},
}

// descriptive are clauses that state no rule a scenario could check. Their
// ruleset quotes them all the same.
var descriptive = map[string]map[string]string{
	"000": {
		"Priority represents one force acting swiftly to get the jump on the enemy, or biding their time and waiting for the most opportune moment to strike.":                                        "what Priority represents",
		"Deciding whether to take or relinquish Priority presents a range of tactical opportunities and challenges for a player to consider throughout the turn that follows.":                        "tactical advice",
		"As you play more games and become more experienced with the rules, you will learn that there are a number of benefits to both having and not having Priority at certain points in a battle.": "tactical advice",
		"After a few battles, you will start to understand the various tactics and ruses that you can use to make the Priority Phase work to your advantage.":                                         "tactical advice",
		"Something else to bear in mind is that there are a number of abilities that can alter the ordinary workings of having Priority in subsequent phases (such as Heroic Actions).":               "the abilities are not part of this text (a host's special rule: a handler setting `holder`, or a Go hook)",
		"These will be explained fully in the relevant sections.": "a cross-reference",
	},
	"001": {
		"The Necromunda: Hive War boxed set contains a number of Ready markers that can be used for this.":                                  "what to use as markers",
		"Ready markers should be placed either on the model’s Fighter card or Vehicle card or next to the model itself on the battlefield.": "where to put the markers on the table",
	},
	"002": {
		"See page 11 of the rulebook on Turn Order.": "a cross-reference",
	},
	"003": {
		"For ease of reference, you might want to list the Gladiators stats and skills on that Index card too.": "advice on the index cards",
	},
}

// checkedInGo are clauses that the bundled scenarios cannot see, checked
// by a Go test of this package instead.
var checkedInGo = map[string]map[string]string{
	"000": {
		"After Priority has been determined, any special rules that come into play during the Priority Phase are resolved here.": "TestMESBGSpecialRulesAfterPriority (special_rules_test.go) adds a special rule to mesbg",
	},
}

// source is one source text split into clauses.
type source struct {
	id, file, text string
	clauses        []string
}

// sourceFiles names the file in testdata/sources of each source text, by
// the number a ruleset's source statement gives it ("000: ...").
var sourceFiles = map[string]string{
	"000": "mesbg-priority-phase.txt",
	"001": "necromunda-priority-phase.txt",
	"002": "agi-turn-order-card.txt",
	"003": "morturi-determining-priority.txt",
}

func loadSources(t *testing.T) map[string]*source {
	t.Helper()
	files, err := filepath.Glob("testdata/sources/*.txt")
	if err != nil || len(files) != len(sourceFiles) {
		t.Fatalf("testdata/sources holds %d texts, want the %d of sourceFiles (%v)", len(files), len(sourceFiles), err)
	}
	out := map[string]*source{}
	for id, name := range sourceFiles {
		file := path.Join("testdata/sources", name)
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out[id] = &source{id: id, file: file, text: string(b), clauses: clauses(string(b))}
	}
	return out
}

var (
	listMarker = regexp.MustCompile(`^(?:[-•*]\s+|\d+\.\s+)`)
	listNumber = regexp.MustCompile(`^\s*\d+\.$`)
)

// clauses splits text into its clauses, in order: the sentences of each
// line, without list markers. Headings (no closing punctuation) and
// one- or two-word labels ("Example:") are left out.
func clauses(text string) []string {
	var out []string
	for _, seg := range segments(text) {
		if isClause(seg) {
			out = append(out, seg)
		}
	}
	return out
}

// segments splits text into sentences and headings.
func segments(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = listMarker.ReplaceAllString(strings.TrimSpace(line), "")
		start := 0
		for i := 0; i < len(line); i++ {
			if !strings.ContainsRune(".!?", rune(line[i])) || (i+1 < len(line) && line[i+1] != ' ') {
				continue
			}
			seg := line[start : i+1]
			if strings.HasSuffix(seg, "i.e.") || strings.HasSuffix(seg, "e.g.") {
				continue
			}
			if !listNumber.MatchString(seg) {
				out = append(out, strings.TrimSpace(seg))
			}
			start = i + 1
		}
		if seg := strings.TrimSpace(line[start:]); seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

func isClause(s string) bool {
	return s != "" && strings.ContainsRune(".!?:", rune(s[len(s)-1])) && len(strings.Fields(s)) >= 3
}

// quote is one `quote "..."` statement, with what it is next to.
type quote struct {
	text string
	pos  dsl.Pos
	next string // the rule it annotates, as markdown for the table
}

// rulesetQuotes returns the quotes of a parsed ruleset, each with the rule
// that follows it in its block (or the block it ends).
func rulesetQuotes(src string, rs *dsl.Ruleset) []quote {
	var out []quote
	var block func(header string, items []any)
	block = func(header string, items []any) {
		for i, it := range items {
			if q, ok := it.(*dsl.QuoteStmt); ok {
				next := "end of `" + strings.TrimSuffix(header, " { ... }") + "`"
				for _, after := range items[i+1:] {
					switch after.(type) {
					case *dsl.QuoteStmt, *dsl.ExampleStmt:
						continue
					}
					next = "`" + ruleText(src, after) + "`"
					break
				}
				out = append(out, quote{text: string(q.Text), pos: q.Pos(), next: next})
				continue
			}
			switch s := it.(type) {
			case *dsl.PhaseStmt:
				block(ruleText(src, s), anys(s.Body))
			case *dsl.StepStmt:
				block(ruleText(src, s), anys(s.Body))
			case *dsl.OrderStmt:
				block(ruleText(src, s), anys(s.Chain))
			case *dsl.TieRule:
				block(ruleText(src, s), anys(s.Block))
			case *dsl.HandlerStmt:
				block(ruleText(src, s), anys(s.Body))
			}
		}
	}
	block(ruleText(src, rs), anys(rs.Body))
	return out
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// ruleText is the first line of a statement as written, without its
// opening brace or a comment.
func ruleText(src string, node any) string {
	var pos dsl.Pos
	dsl.Walk(node.(dsl.Node), func(n dsl.Node) {
		if pos.Line == 0 {
			pos = posOf(n)
		}
	})
	line := src[pos.Offset:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if s, ok := strings.CutSuffix(line, "{"); ok {
		line = strings.TrimSpace(s) + " { ... }"
	}
	return line
}

// posOf returns the Pos field of an AST node.
func posOf(n any) dsl.Pos {
	switch s := n.(type) {
	case *dsl.Ruleset:
		return s.Pos()
	case *dsl.PhaseStmt:
		return s.Pos()
	case *dsl.StepStmt:
		return s.Pos()
	case *dsl.OrderStmt:
		return s.Pos()
	case *dsl.TieRule:
		return s.Pos()
	case *dsl.HandlerStmt:
		return s.Pos()
	case *dsl.ActivationStmt:
		return s.Pos()
	case *dsl.SidesStmt:
		return s.Pos()
	case *dsl.AttrDecl:
		return s.Pos()
	case *dsl.StatusDecl:
		return s.Pos()
	case *dsl.HookStmt:
		return s.Pos()
	case *dsl.ReadyStmt:
		return s.Pos()
	case *dsl.RollCrit:
		return s.Pos()
	case *dsl.ValueCrit:
		return s.Pos()
	case *dsl.RandomCrit:
		return s.Pos()
	case *dsl.AwardCrit:
		return s.Pos()
	case *dsl.ChoiceCrit:
		return s.Pos()
	case *dsl.ExampleStmt:
		return s.Pos()
	case *dsl.SourceStmt:
		return s.Pos()
	case *dsl.RememberStmt:
		return s.Pos()
	}
	return dsl.Pos{}
}

// bundled is a bundled ruleset with its quotes.
type bundled struct {
	name   string
	file   string
	source *source
	quotes []quote
}

func loadBundled(t *testing.T, sources map[string]*source) []*bundled {
	t.Helper()
	var out []*bundled
	for _, name := range rulesets.Names() {
		source, err := rulesets.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		filename, src := source.Filename, source.Text
		f, err := rulesets.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, rs := range f.Rulesets() {
			b := &bundled{name: name, file: filename, quotes: rulesetQuotes(string(src), rs)}
			for _, st := range rs.Body {
				if s, ok := st.(*dsl.SourceStmt); ok {
					id, _, _ := strings.Cut(string(s.Text), ":")
					b.source = sources[id]
				}
			}
			if b.source == nil {
				t.Fatalf("%s: the source statement names no text in testdata/sources", filename)
			}
			out = append(out, b)
		}
	}
	return out
}

// scenarioQuote is a quote of a bundled scenario.
type scenarioQuote struct {
	ruleset, title, text string
	pos                  dsl.Pos
}

func loadScenarioQuotes(t *testing.T) []scenarioQuote {
	t.Helper()
	var out []scenarioQuote
	err := fs.WalkDir(conformance.Suite(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".rules" {
			return err
		}
		src, err := fs.ReadFile(conformance.Suite(), p)
		if err != nil {
			return err
		}
		f, diags := dsl.Parse(p, src)
		if diags.HasErrors() {
			return fmt.Errorf("%s", diags.Render(string(src)))
		}
		for _, d := range f.Decls {
			sc, ok := d.(*dsl.Scenario)
			if !ok {
				continue
			}
			var rs string
			var qs []*dsl.QuoteStmt
			for _, st := range sc.Body {
				switch s := st.(type) {
				case *dsl.UseRuleset:
					rs = s.Name.String()
				case *dsl.QuoteStmt:
					qs = append(qs, s)
				}
			}
			dsl.Walk(sc, func(n dsl.Node) {
				if q, ok := n.(*dsl.QuoteStmt); ok && !slices.Contains(qs, q) {
					qs = append(qs, q) // quotes inside rounds
				}
			})
			if len(qs) == 0 {
				t.Errorf("%s:%d: scenario %q quotes nothing: quote the sentence(s) it checks", p, sc.Pos().Line, sc.Title)
			}
			for _, q := range qs {
				out = append(out, scenarioQuote{ruleset: rs, title: string(sc.Title), text: string(q.Text), pos: q.Pos()})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkVerbatim reports a quote that is not one or more whole clauses of
// the source, exactly as written there.
func checkVerbatim(t *testing.T, where string, q string, s *source) {
	t.Helper()
	if !strings.Contains(s.text, q) {
		t.Errorf("%s: the quote is not verbatim from %s: %q", where, s.file, q)
		return
	}
	for _, seg := range segments(q) {
		if !slices.Contains(s.clauses, seg) {
			t.Errorf("%s: the quote %q is not made of whole clauses of %s: %q is not a whole clause", where, q, s.file, seg)
		}
	}
}

func TestQuotesAreVerbatim(t *testing.T) {
	sources := loadSources(t)
	byName := map[string]*bundled{}
	for _, b := range loadBundled(t, sources) {
		byName[b.name] = b
		for _, q := range b.quotes {
			checkVerbatim(t, fmt.Sprintf("%s:%d", b.file, q.pos.Line), q.text, b.source)
		}
	}
	for _, q := range loadScenarioQuotes(t) {
		b := byName[q.ruleset]
		if b == nil {
			t.Errorf("%s:%d: scenario %q runs %q, which is not bundled", q.pos.Filename, q.pos.Line, q.title, q.ruleset)
			continue
		}
		checkVerbatim(t, fmt.Sprintf("%s:%d", q.pos.Filename, q.pos.Line), q.text, b.source)
	}
}

func TestRulesetsQuoteEveryClause(t *testing.T) {
	for _, b := range loadBundled(t, loadSources(t)) {
		quoted := map[string]int{}
		for _, q := range b.quotes {
			for _, seg := range segments(q.text) {
				quoted[seg]++
			}
		}
		for _, c := range b.source.clauses {
			switch {
			case slices.Contains(workedExamples[b.source.id], c):
			case quoted[c] == 0:
				t.Errorf("%s does not quote this clause of %s: %q", b.file, b.source.file, c)
			case quoted[c] > 1:
				t.Errorf("%s quotes this clause %d times (quote it once, next to its rule): %q", b.file, quoted[c], c)
			}
		}
	}
}

func TestScenariosQuoteEveryClause(t *testing.T) {
	sources := loadSources(t)
	checked := map[string]map[string]bool{} // ruleset -> clause
	for _, q := range loadScenarioQuotes(t) {
		if checked[q.ruleset] == nil {
			checked[q.ruleset] = map[string]bool{}
		}
		for _, seg := range segments(q.text) {
			checked[q.ruleset][seg] = true
		}
	}
	for _, b := range loadBundled(t, sources) {
		for _, c := range b.source.clauses {
			_, desc := descriptive[b.source.id][c]
			if _, ok := checkedInGo[b.source.id][c]; ok {
				if checked[b.name][c] {
					t.Errorf("%s: a scenario checks %q, which is listed as checked in Go: take it off the list", b.name, c)
				}
				continue
			}
			switch {
			case desc && checked[b.name][c]:
				t.Errorf("%s: a scenario checks %q, which is listed as descriptive: take it off the list", b.name, c)
			case !desc && !checked[b.name][c]:
				t.Errorf("no scenario of %s quotes this clause of %s: %q", b.name, b.source.file, c)
			}
		}
	}
	for id, m := range descriptive {
		for c := range m {
			if !slices.Contains(sources[id].clauses, c) {
				t.Errorf("descriptive[%s] lists %q, which is not a clause of the source", id, c)
			}
		}
	}
	for id, m := range checkedInGo {
		for c := range m {
			if !slices.Contains(sources[id].clauses, c) {
				t.Errorf("checkedInGo[%s] lists %q, which is not a clause of the source", id, c)
			}
		}
	}
	for id, cs := range workedExamples {
		for _, c := range cs {
			if !slices.Contains(sources[id].clauses, c) {
				t.Errorf("workedExamples[%s] lists %q, which is not a clause of the source", id, c)
			}
		}
	}
}

const (
	tableBegin = "<!-- clause table: generated by `go test ./conformance -run TestClauseTable -update`; do not edit -->\n"
	tableEnd   = "<!-- end of clause table -->\n"
)

// TestClauseTable checks that README.md's clause table is up to date.
func TestClauseTable(t *testing.T) {
	sources := loadSources(t)
	scenarios := map[string]map[string][]string{} // ruleset -> clause -> titles
	for _, q := range loadScenarioQuotes(t) {
		if scenarios[q.ruleset] == nil {
			scenarios[q.ruleset] = map[string][]string{}
		}
		for _, seg := range segments(q.text) {
			if !slices.Contains(scenarios[q.ruleset][seg], q.title) {
				scenarios[q.ruleset][seg] = append(scenarios[q.ruleset][seg], q.title)
			}
		}
	}
	bs := loadBundled(t, sources)
	slices.SortFunc(bs, func(a, b *bundled) int { return strings.Compare(a.source.id, b.source.id) })
	var table bytes.Buffer
	table.WriteString(tableBegin)
	for _, b := range bs {
		fmt.Fprintf(&table, "\n### %s: `%s` (`%s`)\n\n", b.source.id, b.name, b.source.file)
		table.WriteString("| # | clause | next to | scenarios |\n|---|---|---|---|\n")
		for i, c := range b.source.clauses {
			rule := "(worked example)"
			for _, q := range b.quotes {
				if slices.Contains(segments(q.text), c) {
					rule = fmt.Sprintf("%s (line %d)", q.next, q.pos.Line)
					break
				}
			}
			scen := strings.Join(scenarios[b.name][c], "; ")
			if why, ok := descriptive[b.source.id][c]; ok {
				scen = "not checked: " + why
			}
			if how, ok := checkedInGo[b.source.id][c]; ok {
				scen = "checked in Go: " + how
			}
			fmt.Fprintf(&table, "| %d | %s | %s | %s |\n", i+1, cell(c), cell(rule), cell(scen))
		}
	}
	table.WriteString("\n" + tableEnd)

	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(readme), tableBegin)
	_, after, ok2 := strings.Cut(rest, tableEnd)
	if !ok1 || !ok2 {
		t.Fatalf("README.md lacks the clause table markers:\n%s%s", tableBegin, tableEnd)
	}
	want := before + table.String() + after
	if want == string(readme) {
		return
	}
	if *update {
		if err := os.WriteFile("README.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's clause table is out of date: run\n\tgo test ./conformance -run TestClauseTable -update")
}

// cell escapes a table cell.
func cell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}
