package main

// Tests of the SVG chart of odds --svg.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The chart has one line per side; a second ruleset's are dashed.
func TestOddsChart(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name          string
		args          []string
		lines, dashed int
	}{
		{"one ruleset", []string{"mesbg", "--rounds", "4"}, 2, 0},
		{"two compared", []string{"mesbg", "necromunda", "--sides", "A,B", "--rounds", "2"}, 4, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			svg := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".svg")
			expectation{code: 0}.check(t, runCmd(t, "", append(append([]string{"odds"}, tt.args...), "--svg", svg)...))
			data, err := os.ReadFile(svg)
			if err != nil {
				t.Fatal(err)
			}
			s := string(data)
			if !strings.HasPrefix(s, "<svg") || strings.Count(s, "<polyline") != tt.lines {
				t.Errorf("the chart should be an SVG with %d lines, one per side:\n%s", tt.lines, s)
			}
			if n := strings.Count(s, `stroke-dasharray="6 4" points=`); n != tt.dashed {
				t.Errorf("%d dashed lines, want %d:\n%s", n, tt.dashed, s)
			}
		})
	}
}

// Names that XML reads as markup are escaped in the title and the legend.
func TestChartSVGEscapes(t *testing.T) {
	v := variant{name: "a<b", label: "a<b & c", sides: []string{`"Jay"`}}
	s := chartSVG([]variant{v, v}, 0)
	if strings.Contains(s, "a<b") || strings.Contains(s, `>"Jay"`) {
		t.Errorf("unescaped names in\n%s", s)
	}
	if !strings.Contains(s, "a&lt;b &amp; c vs a&lt;b &amp; c") || !strings.Contains(s, "&quot;Jay&quot; (a&lt;b &amp; c)") {
		t.Errorf("escaped names missing from\n%s", s)
	}
}
