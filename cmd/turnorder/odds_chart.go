package main

// The SVG chart of odds --svg: P(holds priority) round by round, one
// line per side.

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

func probAt(v variant, round int, side string) float64 {
	if v.sim != nil {
		p, _ := v.sim.Estimate(round, side)
		return p
	}
	if p := v.exact.Rounds[round-1].Holder[side]; p != nil {
		f, _ := p.Float64()
		return f
	}
	return 0
}

// chartSVG draws P(holder) per round, one line per side (dashed for the
// second variant).
func chartSVG(vs []variant, rounds int) string {
	const w, h, left, right, top, bottom = 780, 400, 60, 200, 30, 50
	pw, ph := float64(w-left-right), float64(h-top-bottom)
	x := func(r int) float64 {
		if rounds == 1 {
			return left + pw/2
		}
		return left + pw*float64(r-1)/float64(rounds-1)
	}
	y := func(p float64) float64 { return top + ph*(1-p) }
	colors := []string{"#1b6ca8", "#d1495b", "#edae49", "#00798c", "#66a182", "#8d5a97", "#30343f", "#e4572e"}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.label
	}
	fmt.Fprintf(&b, `<text x="%d" y="18" font-size="14">P(holds priority) by round: %s</text>`+"\n", left, xmlEscape(strings.Join(names, " vs ")))
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		fmt.Fprintf(&b, `<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", left, left+pw, y(t), y(t))
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%.0f%%</text>`+"\n", left-6, y(t)+4, t*100)
	}
	step := max(1, rounds/10)
	for r := 1; r <= rounds; r += step {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%d</text>`+"\n", x(r), h-bottom+18, r)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">round</text>`+"\n", left+pw/2, h-12)
	legend := 0
	for vi, v := range vs {
		sides := slices.Clone(v.sides)
		sort.Strings(sides)
		for si, s := range v.sides {
			color := colors[si%len(colors)]
			var pts []string
			for r := 1; r <= rounds; r++ {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(r), y(probAt(v, r, s))))
			}
			dash := ""
			if vi > 0 {
				dash = ` stroke-dasharray="6 4"`
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", color, dash, strings.Join(pts, " "))
			for _, pt := range pts {
				xy := strings.Split(pt, ",")
				fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`+"\n", xy[0], xy[1], color)
			}
			ly := top + 10 + 18*legend
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`+"\n", left+pw+12, left+pw+36, ly, ly, color, dash)
			label := s
			if len(vs) > 1 {
				label = s + " (" + v.label + ")"
			}
			fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s</text>`+"\n", left+pw+42, ly+4, xmlEscape(label))
			legend++
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
