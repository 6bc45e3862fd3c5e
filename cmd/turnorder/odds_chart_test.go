package main

// Tests of the SVG chart of odds --svg, on its elements as an XML parser
// reads them.

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// svgNode is an element of a chart, with its attributes and children.
type svgNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []svgNode  `xml:",any"`
}

func (n svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n svgNode) num(t *testing.T, name string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(n.attr(name), 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", n.XMLName.Local, name, n.attr(name), err)
	}
	return f
}

func (n svgNode) hasClass(c string) bool {
	return slices.Contains(strings.Fields(n.attr("class")), c)
}

// all returns the elements named name under n, in document order.
func (n svgNode) all(name string) []svgNode {
	var out []svgNode
	for _, c := range n.Children {
		if c.XMLName.Local == name {
			out = append(out, c)
		}
		out = append(out, c.all(name)...)
	}
	return out
}

// texts returns the visible text of every <text>.
func (n svgNode) texts() []string {
	var out []string
	for _, t := range n.all("text") {
		out = append(out, t.Text)
	}
	return out
}

func parseSVG(t *testing.T, s string) svgNode {
	t.Helper()
	var root svgNode
	if err := xml.Unmarshal([]byte(s), &root); err != nil {
		t.Fatalf("the chart is not XML: %v\n%s", err, s)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("the chart's root is <%s>, not <svg>", root.XMLName.Local)
	}
	return root
}

// chartOf runs odds with args and --svg, and returns the chart parsed.
func chartOf(t *testing.T, args ...string) (svgNode, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chart.svg")
	expectation{code: 0}.check(t, runCmd(t, "", append(append([]string{"odds"}, args...), "--svg", path)...))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseSVG(t, string(data)), string(data)
}

// heading is the chart's title and subtitle, the first two texts, and
// the document's <title>.
func heading(t *testing.T, root svgNode) string {
	t.Helper()
	texts := root.texts()
	if len(texts) < 2 {
		t.Fatalf("the chart has %d texts, want a title and a subtitle", len(texts))
	}
	title := ""
	for _, c := range root.Children {
		if c.XMLName.Local == "title" {
			title = c.Text
		}
	}
	return texts[0] + "\n" + texts[1] + "\n" + title
}

// pointYs returns the y of each point of a <polyline>.
func pointYs(t *testing.T, pl svgNode) []float64 {
	t.Helper()
	var ys []float64
	for _, pt := range strings.Fields(pl.attr("points")) {
		_, y, _ := strings.Cut(pt, ",")
		f, err := strconv.ParseFloat(y, 64)
		if err != nil {
			t.Fatalf("points %q: %v", pl.attr("points"), err)
		}
		ys = append(ys, f)
	}
	return ys
}

// The chart has one line per side; a second ruleset's are dashed.
func TestOddsChart(t *testing.T) {
	for _, tt := range []struct {
		name          string
		args          []string
		lines, dashed int
	}{
		{"one ruleset", []string{"mesbg", "--rounds", "4"}, 2, 0},
		{"two compared", []string{"mesbg", "necromunda", "--sides", "A,B", "--rounds", "2"}, 4, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root, s := chartOf(t, tt.args...)
			lines := root.all("polyline")
			if len(lines) != tt.lines {
				t.Errorf("%d lines, want %d, one per side:\n%s", len(lines), tt.lines, s)
			}
			dashed, plain := 0, 0
			for _, l := range lines {
				switch {
				case l.hasClass("ruleset-2") && l.attr("stroke-dasharray") != "":
					dashed++
				case l.hasClass("ruleset-1"):
					if l.attr("stroke-dasharray") == "" {
						plain++
					}
				default:
					t.Errorf("a second ruleset's line is not dashed: %v", l.Attrs)
				}
			}
			if dashed != tt.dashed || plain == 0 {
				t.Errorf("%d dashed lines of the second ruleset, want %d, and %d plain ones of the first, want some:\n%s", dashed, tt.dashed, plain, s)
			}
		})
	}
}

// Equal lines are drawn apart, each with a dash of its own and its name at
// its end, and a chart where every side is equal says so.
func TestOddsChartEqualLines(t *testing.T) {
	for _, tt := range []struct {
		name  string
		args  []string
		sides []string
	}{
		{"two", []string{"mesbg", "--rounds", "4"}, []string{"Jay", "Rob"}},
		{"four", []string{"necromunda", "--sides", "A,B,C,D", "--rounds", "2"}, []string{"A", "B", "C", "D"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root, s := chartOf(t, tt.args...)
			lines := root.all("polyline")
			if len(lines) != len(tt.sides) {
				t.Fatalf("%d lines, want %d:\n%s", len(lines), len(tt.sides), s)
			}
			var ys []float64
			var dashes []string
			for _, l := range lines {
				p := pointYs(t, l)
				ys = append(ys, p[0])
				dashes = append(dashes, l.attr("stroke-dasharray"))
				if p[0] != p[len(p)-1] {
					t.Errorf("a line of an even game is not flat: %v", p)
				}
			}
			slices.Sort(ys)
			if len(slices.Compact(ys)) != len(tt.sides) {
				t.Errorf("equal lines drawn at the same height, y %v:\n%s", ys, s)
			}
			slices.Sort(dashes)
			if len(slices.Compact(dashes)) != len(tt.sides) {
				t.Errorf("equal lines share a dash pattern, %q", dashes)
			}
			var labels []string
			for _, tx := range root.all("text") {
				if tx.hasClass("end-label") {
					labels = append(labels, tx.Text)
				}
			}
			if !slices.Equal(labels, tt.sides) {
				t.Errorf("lines labelled %q at their ends, want %q", labels, tt.sides)
			}
			if h := heading(t, root); !strings.Contains(h, "all sides equal") {
				t.Errorf("heading %q does not say all sides are equal", h)
			}
		})
	}
	// Lines apart are drawn where they are, and nothing says they are equal.
	root, _ := chartOf(t, "../../examples/house-rules/fewer-models.rules", "--setup", "../../examples/setups/armies.rules", "--rounds", "2")
	if h := heading(t, root); strings.Contains(h, "equal") {
		t.Errorf("heading %q of sides with different odds says they are equal", h)
	}
	for _, l := range root.all("polyline") {
		if l.attr("stroke-dasharray") != "" {
			t.Errorf("a line of a lone ruleset without an equal is dashed: %v", l.Attrs)
		}
	}
}

// A simulation draws each side's 95% interval as a band, and says it is
// one, of how many battles.
func TestOddsChartSimulated(t *testing.T) {
	root, s := chartOf(t, "mesbg", "--rounds", "3", "--sim", "10000")
	var bands int
	for _, p := range root.all("path") {
		if p.hasClass("band") {
			bands++
			if op := p.num(t, "fill-opacity"); op <= 0 || op >= 1 {
				t.Errorf("band of fill-opacity %v, want translucent", op)
			}
			if !strings.HasPrefix(p.attr("d"), "M") || !strings.HasSuffix(p.attr("d"), "Z") {
				t.Errorf("band d=%q is not a closed path", p.attr("d"))
			}
		}
	}
	if bands != 2 {
		t.Errorf("%d bands, want one per side:\n%s", bands, s)
	}
	if h := heading(t, root); !strings.Contains(h, "simulated, 10000 battles") {
		t.Errorf("heading %q does not say it is simulated", h)
	}
	// Exact odds have no band, and say they are exact.
	root, _ = chartOf(t, "mesbg", "--rounds", "3")
	if n := len(root.all("path")); n != 0 {
		t.Errorf("exact odds have %d bands", n)
	}
	if h := heading(t, root); strings.Contains(h, "simulated") || !strings.Contains(h, "exact odds") {
		t.Errorf("heading %q of exact odds", h)
	}
}

// The title names the rulesets and the policies the odds are under.
func TestOddsChartTitle(t *testing.T) {
	root, _ := chartOf(t, "mesbg", "../../examples/house-rules/fewer-models.rules", "--setup", "../../examples/setups/armies.rules",
		"--rounds", "2", "--policy", "first=other")
	title := root.texts()[0]
	if !strings.Contains(title, "mesbg vs fewer_models") || !strings.Contains(title, "--policy first=other") {
		t.Errorf("title %q lacks the rulesets or the policy", title)
	}
}

// A single round is a bar per side, with its percentage; simulated, with
// its interval as a whisker.
func TestOddsChartOneRound(t *testing.T) {
	root, s := chartOf(t, "necromunda", "--sides", "A,B,C", "--rounds", "1")
	if n := len(root.all("polyline")); n != 0 {
		t.Errorf("one round drawn as %d lines", n)
	}
	var bars []svgNode
	for _, r := range root.all("rect") {
		if r.hasClass("bar") {
			bars = append(bars, r)
		}
	}
	if len(bars) != 3 {
		t.Fatalf("%d bars, want one per side:\n%s", len(bars), s)
	}
	for _, b := range bars {
		if h := b.num(t, "height"); h < 100 || h > 110 {
			t.Errorf("a bar of 1/3 of a 320-pixel axis is %v high", h)
		}
	}
	var pcts, names []string
	for _, tx := range root.all("text") {
		switch {
		case tx.hasClass("bar-label"):
			pcts = append(pcts, tx.Text)
		case tx.hasClass("side-name"):
			names = append(names, tx.Text)
		}
	}
	if !slices.Equal(pcts, []string{"33.33%", "33.33%", "33.33%"}) || !slices.Equal(names, []string{"A", "B", "C"}) {
		t.Errorf("bars labelled %q and named %q", pcts, names)
	}
	root, _ = chartOf(t, "mesbg", "--rounds", "1", "--sim", "500")
	var whiskers int
	for _, l := range root.all("line") {
		if l.hasClass("whisker") {
			whiskers++
		}
	}
	if whiskers != 2 {
		t.Errorf("%d whiskers on a simulated round, want one per side", whiskers)
	}
}

// A long name is cut with an ellipsis, given in full in a tooltip, and
// no text runs off the canvas.
func TestOddsChartLongNames(t *testing.T) {
	long := "The Fellowship of the Ring and all its many friends"
	root, s := chartOf(t, "mesbg", "--sides", long+",Rob", "--rounds", "3")
	width := root.num(t, "width")
	var cut int
	for _, tx := range root.all("text") {
		if tx.attr("text-anchor") == "" {
			if end := tx.num(t, "x") + charWidth*float64(utf8.RuneCountInString(tx.Text)); end > width {
				t.Errorf("text %q ends at %v, past the width %v", tx.Text, end, width)
			}
		}
		if strings.Contains(tx.Text, long) {
			t.Errorf("%q is drawn whole", tx.Text)
		}
		if strings.HasSuffix(tx.Text, "…") {
			cut++
			if ts := tx.all("title"); len(ts) != 1 || ts[0].Text != long {
				t.Errorf("cut name %q has no tooltip with the whole name", tx.Text)
			}
		}
	}
	if cut != 2 { // at the line's end and in the legend
		t.Errorf("%d names cut, want 2:\n%s", cut, s)
	}
}

// The last round is always on the axis.
func TestOddsChartLastRoundTicked(t *testing.T) {
	root, s := chartOf(t, "mesbg", "--rounds", "32")
	var ticks []string
	for _, tx := range root.all("text") {
		if tx.hasClass("tick") {
			ticks = append(ticks, tx.Text)
		}
	}
	if len(ticks) == 0 || ticks[len(ticks)-1] != "32" || slices.Contains(ticks, "31") {
		t.Errorf("ticks %q, want the last at 32 and none crowding it:\n%s", ticks, s)
	}
	for _, tt := range []struct {
		rounds int
		want   []int
	}{
		{1, []int{1}},
		{2, []int{1, 2}},
		{10, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{23, []int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}},
		{182, []int{1, 19, 37, 55, 73, 91, 109, 127, 145, 163, 182}},
		{200, []int{1, 21, 41, 61, 81, 101, 121, 141, 161, 181, 200}},
	} {
		if got := roundTicks(tt.rounds); !slices.Equal(got, tt.want) {
			t.Errorf("roundTicks(%d) = %v, want %v", tt.rounds, got, tt.want)
		}
	}
}

// --svg - writes the chart alone to standard output, the tables to
// standard error.
func TestOddsChartToStdout(t *testing.T) {
	r := runCmd(t, "", "odds", "mesbg", "--rounds", "2", "--svg", "-")
	expectation{code: 0, stderr: []string{"mesbg: exact odds over 2 rounds", "1      1/2  50.00%  1/2  50.00%\n"}}.check(t, r)
	root := parseSVG(t, r.stdout)
	if n := len(root.all("polyline")); n != 2 {
		t.Errorf("the chart on stdout has %d lines, want 2", n)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Error("--svg - wrote a file named -")
	}
	expectation{code: 1, oneLine: true, stderr: []string{"--svg - and --json both write to standard output"}}.check(t,
		runCmd(t, "", "odds", "mesbg", "--svg", "-", "--json"))
}

// Names that XML reads as markup are escaped in the title and the legend.
func TestChartSVGEscapes(t *testing.T) {
	v := variant{name: "a<b", label: "a<b & c", sides: []string{`"Jay"`}}
	s := chartSVG([]variant{v, v}, oddsOptions{})
	if strings.Contains(s, "a<b") || strings.Contains(s, `>"Jay"`) {
		t.Errorf("unescaped names in\n%s", s)
	}
	if !strings.Contains(s, "a&lt;b &amp; c vs a&lt;b &amp; c") || !strings.Contains(s, "&quot;Jay&quot; (a&lt;b &amp; c)") {
		t.Errorf("escaped names missing from\n%s", s)
	}
	root := parseSVG(t, s)
	if got := root.texts()[0]; !strings.HasPrefix(got, "a<b & c vs a<b & c") {
		t.Errorf("title reads %q", got)
	}
}
