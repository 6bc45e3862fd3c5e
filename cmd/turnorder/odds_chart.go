package main

// The SVG chart of odds --svg: P(holds priority) round by round, one
// line per side, or one bar per side for a single round.

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

func probAt(v variant, round int, side string) float64 {
	if v.sim != nil {
		p, _ := v.sim.Estimate(round, side)
		return p
	}
	if round < 1 || round > len(v.exact.Rounds) {
		return 0
	}
	if p := v.exact.Rounds[round-1].Holder[side]; p != nil {
		f, _ := p.Float64()
		return f
	}
	return 0
}

// intervalAt is the 95% interval of a simulated probability; an exact one
// is its own interval.
func intervalAt(v variant, round int, side string) (lo, hi float64) {
	if v.sim != nil {
		return v.sim.Interval(round, side)
	}
	p := probAt(v, round, side)
	return p, p
}

const (
	charWidth = 7  // a generous average width of a 12px sans-serif glyph
	nameRunes = 28 // names longer than this are cut, and given in full in a tooltip
)

// fitted cuts s to at most n runes, ending it with an ellipsis when cut.
func fitted(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	r := []rune(s)
	return string(r[:max(n-1, 1)]) + "…", true
}

// svgText is a <text> element holding s, fitted to n runes: a name cut
// short keeps its whole in a <title>, which viewers show as a tooltip.
func svgText(attrs, s string, n int) string {
	short, cut := fitted(s, n)
	if !cut {
		return fmt.Sprintf("<text %s>%s</text>\n", attrs, xmlEscape(s))
	}
	return fmt.Sprintf("<text %s><title>%s</title>%s</text>\n", attrs, xmlEscape(s), xmlEscape(short))
}

// series is one side's line in one ruleset's odds.
type series struct {
	v     variant
	vi    int
	side  string
	label string
	color string
	dash  string
	dy    float64 // a nudge that keeps it from hiding under an equal line
	ys    []float64
}

// Second lines of an equal group, per ruleset: each has a pattern of its
// own, so that lines drawn a few pixels apart still read as different.
var (
	baseDash = [2]string{"", "6 4"}
	altDash  = [2][]string{{"2 3", "8 3 2 3", "1 5", "10 3"}, {"6 4 2 4", "12 4", "6 2", "3 6"}}
	colours  = []string{"#1b6ca8", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d5a97", "#30343f", "#e4572e"}
)

// chartSVG draws P(holder) per round: one line per side (dashed for the
// second ruleset), with a simulation's 95% intervals as bands; a single
// round as bars.
func chartSVG(vs []variant, o oddsOptions) string {
	rounds := o.rounds
	const left, top, bottom, pw, ph = 60, 56, 50, 560, 320
	const h = top + ph + bottom
	y := func(p float64) float64 { return top + ph*(1-p) }
	x := func(r int) float64 {
		if rounds <= 1 {
			return left + pw/2
		}
		return left + pw*float64(r-1)/float64(rounds-1)
	}

	var ss []*series
	longest := 0
	for vi, v := range vs {
		for si, s := range v.sides {
			label := s
			if len(vs) > 1 {
				label = s + " (" + v.label + ")"
			}
			sr := &series{v: v, vi: vi, side: s, label: label, color: colours[si%len(colours)], dash: baseDash[min(vi, 1)]}
			for r := 1; r <= rounds; r++ {
				sr.ys = append(sr.ys, y(probAt(v, r, s)))
			}
			short, _ := fitted(label, nameRunes)
			longest = max(longest, utf8.RuneCountInString(short))
			ss = append(ss, sr)
		}
	}
	groups := overlapping(ss)
	allEqual := len(ss) > 1 && len(groups) == 1
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		seen := [2]int{}
		for j, sr := range g {
			vi := min(sr.vi, 1)
			if seen[vi] > 0 {
				sr.dash = altDash[vi][(seen[vi]-1)%len(altDash[vi])]
			}
			seen[vi]++
			sr.dy = (float64(j) - float64(len(g)-1)/2) * 3
		}
	}

	bars := rounds == 1
	labelW := 0
	if !bars {
		labelW = 12 + charWidth*longest
	}
	legendX := left + pw + labelW + 16
	w := legendX + 42 + charWidth*longest + 12

	var b strings.Builder
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.label
	}
	head := strings.Join(names, " vs ")
	if len(o.policies) > 0 {
		head += ", with --policy " + strings.Join(o.policies, " --policy ")
	}
	head += ": P(holds priority) by round"
	sub := "exact odds over " + plural(rounds, "round")
	if o.sim > 0 {
		sub = fmt.Sprintf("simulated, %d battles (seed %d); shaded: 95%% intervals", o.sim, o.seed)
		if bars {
			sub = fmt.Sprintf("simulated, %d battles (seed %d); whiskers: 95%% intervals", o.sim, o.seed)
		}
	}
	if allEqual {
		sub += "; all sides equal"
	}
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, "<title>%s (%s)</title>\n", xmlEscape(head), xmlEscape(sub))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	b.WriteString(svgText(fmt.Sprintf(`x="%d" y="20" font-size="14" font-weight="bold"`, left), head, (w-left)/8))
	b.WriteString(svgText(fmt.Sprintf(`x="%d" y="38" fill="#555"`, left), sub, (w-left)/charWidth))
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, left+pw, y(t), y(t))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", left-6, y(t)+4, t*100)
	}
	if bars {
		drawBars(&b, vs, ss, y, left, pw, h-bottom)
	} else {
		for _, r := range roundTicks(rounds) {
			fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(r), h-bottom+18, r)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">round</text>`+"\n", left+pw/2, h-12)
		if o.sim > 0 {
			for _, sr := range ss {
				var up, down []string
				for r := 1; r <= rounds; r++ {
					lo, hi := intervalAt(sr.v, r, sr.side)
					up = append(up, fmt.Sprintf("%.1f,%.1f", x(r), y(hi)+sr.dy))
					down = append([]string{fmt.Sprintf("%.1f,%.1f", x(r), y(lo)+sr.dy)}, down...)
				}
				fmt.Fprintf(&b, `<path class="band" d="M%s L%s Z" fill="%s" fill-opacity="0.25" stroke="none"/>`+"\n",
					strings.Join(up, " L"), strings.Join(down, " L"), sr.color)
			}
		}
		for _, sr := range ss {
			pts := make([]string, len(sr.ys))
			for i, yy := range sr.ys {
				pts[i] = fmt.Sprintf("%.1f,%.1f", x(i+1), yy+sr.dy)
			}
			fmt.Fprintf(&b, `<polyline class="ruleset-%d" fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n",
				sr.vi+1, sr.color, dashAttr(sr.dash), strings.Join(pts, " "))
			for i, yy := range sr.ys {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", x(i+1), yy+sr.dy, sr.color)
			}
		}
		for i, ly := range spread(ss, 13) {
			b.WriteString(svgText(fmt.Sprintf(`class="end-label" x="%d" y="%.1f" fill="%s"`, left+pw+8, ly+4, ss[i].color), ss[i].label, nameRunes))
		}
	}
	for i, sr := range ss {
		ly := top + 10 + 18*i
		if bars {
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="24" height="10" fill="%s"%s/>`+"\n", legendX, ly-5, sr.color, barStyle(sr))
		} else {
			fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", legendX, legendX+24, ly, ly, sr.color, dashAttr(sr.dash))
		}
		b.WriteString(svgText(fmt.Sprintf(`class="legend" x="%d" y="%d"`, legendX+30, ly+4), sr.label, nameRunes))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func dashAttr(d string) string {
	if d == "" {
		return ""
	}
	return fmt.Sprintf(` stroke-dasharray="%s"`, d)
}

// barStyle tells a second ruleset's bars from the first's, as its lines
// are dashed.
func barStyle(sr *series) string {
	if sr.vi == 0 {
		return ""
	}
	return fmt.Sprintf(` fill-opacity="0.45" stroke="%s" stroke-dasharray="4 2"`, sr.color)
}

// overlapping groups the series that lie within a pixel of each other in
// every round: drawn as they are, one would hide the others.
func overlapping(ss []*series) [][]*series {
	var groups [][]*series
next:
	for _, sr := range ss {
		for i, g := range groups {
			if near(g[0].ys, sr.ys) {
				groups[i] = append(g, sr)
				continue next
			}
		}
		groups = append(groups, []*series{sr})
	}
	return groups
}

func near(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1 {
			return false
		}
	}
	return true
}

// spread places the labels at the lines' right ends, pushed apart to at
// least gap pixels so that equal lines' labels do not print over each
// other. It returns each series' label y, in the order of ss.
func spread(ss []*series, gap float64) []float64 {
	ys := make([]float64, len(ss))
	order := make([]int, len(ss))
	for i, sr := range ss {
		order[i] = i
		if n := len(sr.ys); n > 0 {
			ys[i] = sr.ys[n-1] + sr.dy
		}
	}
	// A stable insertion sort keeps equal lines' labels in the order of ss.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && ys[order[j]] < ys[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for k := 1; k < len(order); k++ {
		if prev := ys[order[k-1]]; ys[order[k]] < prev+gap {
			ys[order[k]] = prev + gap
		}
	}
	return ys
}

// roundTicks are the rounds labelled on the x axis: about ten, always
// with the last, and without the one before it when the two would crowd.
func roundTicks(rounds int) []int {
	step := max(1, rounds/10)
	var ts []int
	for r := 1; r <= rounds; r += step {
		ts = append(ts, r)
	}
	if n := len(ts); n > 0 && ts[n-1] != rounds {
		if n > 1 && rounds-ts[n-1] < (step+1)/2 {
			ts = ts[:n-1]
		}
		ts = append(ts, rounds)
	}
	return ts
}

// drawBars draws a single round: a bar per side and ruleset, its
// percentage above it, the sides' names below.
func drawBars(b *strings.Builder, vs []variant, ss []*series, y func(float64) float64, left, pw, base int) {
	if len(vs) == 0 || len(vs[0].sides) == 0 {
		return
	}
	sides := vs[0].sides
	gw := float64(pw) / float64(len(sides))
	bw := min(60, gw*0.7/float64(len(vs)))
	for _, sr := range ss {
		si := slices.Index(sides, sr.side)
		x0 := float64(left) + gw*float64(si) + gw/2 - bw*float64(len(vs))/2 + bw*float64(sr.vi)
		p := probAt(sr.v, 1, sr.side)
		fmt.Fprintf(b, `<rect class="bar ruleset-%d" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"%s/>`+"\n",
			sr.vi+1, x0+1, y(p), bw-2, y(0)-y(p), sr.color, barStyle(sr))
		lo, hi := intervalAt(sr.v, 1, sr.side)
		if sr.v.sim != nil {
			fmt.Fprintf(b, `<line class="whisker" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#333"/>`+"\n", x0+bw/2, x0+bw/2, y(lo), y(hi))
		}
		fmt.Fprintf(b, `<text class="bar-label" x="%.1f" y="%.1f" text-anchor="middle">%.2f%%</text>`+"\n", x0+bw/2, y(hi)-6, 100*p)
	}
	for si, s := range sides {
		b.WriteString(svgText(fmt.Sprintf(`class="side-name" x="%.1f" y="%d" text-anchor="middle"`, float64(left)+gw*(float64(si)+0.5), base+18), s, max(int(gw)/charWidth, 2)))
	}
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
