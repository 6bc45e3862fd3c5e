package main

// The tables odds prints: each ruleset's odds of holding priority, its
// orders and sequences of holders, and the change between two rulesets.

import (
	"fmt"
	"io"
	"math/big"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/turnorder/turnorder/runtime"
)

// drawNote says, under a ruleset's table of P(holds priority), that the
// draws of its bag are not in it: a player asks the odds of a dice bag
// game for the bag.
func drawNote(w io.Writer, v variant) {
	if v.draw {
		fmt.Fprintf(w, "(%s draws from a bag who activates each turn, which is not in these odds: they are of who holds priority; `turnorder run` shows each draw)\n", v.label)
	}
}

// nobody names an empty order or holder: a battle with nothing to order.
func nobody(s string) string {
	if s == "" {
		return "(nobody)"
	}
	return s
}

func pct(r *big.Rat) string {
	f, _ := r.Float64()
	return fmt.Sprintf("%6.2f%%", 100*f)
}

// probCell is how every table shows v's chance that side holds priority
// in round r: the exact fraction with its percentage (21/31  67.74%) or,
// simulated, the count of battles out of all played, with its percentage
// and the 95% interval's half-width in percentage points. A fraction alone
// is hard to compare and a decimal alone hides the count behind it.
func probCell(v variant, r int, side string) string {
	if v.sim != nil {
		n := 0
		if r >= 1 && r <= len(v.sim.Holder) {
			n = v.sim.Holder[r-1][side]
		}
		_, hw := v.sim.Estimate(r, side)
		return fmt.Sprintf("%d/%d %s ± %.2f pp", n, v.sim.Runs, pct(big.NewRat(int64(n), int64(v.sim.Runs))), 100*hw)
	}
	p := v.exact.Rounds[r-1].Holder[side]
	if p == nil {
		p = new(big.Rat)
	}
	return p.RatString() + " " + pct(p)
}

func printVariant(w io.Writer, v variant, o oddsOptions) {
	if v.sim != nil {
		fmt.Fprintf(w, "%s: %d simulated battles (seed %d), P(holds priority) with 95%% intervals\n", o.title(v), v.sim.Runs, o.seed)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "round\t%s\n", strings.Join(v.sides, "\t"))
		for r := 1; r <= o.rounds; r++ {
			cells := []string{fmt.Sprint(r)}
			for _, s := range v.sides {
				cells = append(cells, probCell(v, r, s))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
		drawNote(w, v)
		return
	}
	rep := v.exact
	fmt.Fprintf(w, "%s: exact odds over %d round%s, P(holds priority):\n", o.title(v), o.rounds, map[bool]string{true: "", false: "s"}[o.rounds == 1])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "round\t%s\n", strings.Join(v.sides, "\t"))
	for _, r := range rep.Rounds {
		cells := []string{fmt.Sprint(r.Round)}
		for _, s := range v.sides {
			cells = append(cells, probCell(v, r.Round, s))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	drawNote(w, v)

	fmt.Fprintf(w, "\nExpected rounds holding priority (first-player advantage):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range v.sides {
		e := rep.Expected[s]
		share := new(big.Rat).Quo(e, big.NewRat(int64(o.rounds), 1))
		n := e.RatString()
		if !e.IsInt() {
			// 3451/6541 of a round reads as a number only with one beside it.
			n += " (" + e.FloatString(2) + ")"
		}
		fmt.Fprintf(tw, "  %s\t%s of %d round%s\t%s\n", s, n, o.rounds, map[bool]string{true: "", false: "s"}[o.rounds == 1], pct(share))
	}
	tw.Flush()

	fmt.Fprintf(w, "\nOrders in round 1:\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, pr := range rep.Rounds[0].Orders {
		if i == 10 {
			fmt.Fprintf(tw, "  ... %d more\n", len(rep.Rounds[0].Orders)-10)
			break
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", nobody(strings.Join(pr.Outcome, ", ")), pr.P.RatString(), pct(pr.P))
	}
	tw.Flush()

	if rep.Sequences != nil && o.rounds > 1 {
		fmt.Fprintf(w, "\nWho holds priority, round by round:\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for i, pr := range rep.Sequences {
			if i == 12 {
				fmt.Fprintf(tw, "  ... %d more\n", len(rep.Sequences)-12)
				break
			}
			holders := make([]string, len(pr.Outcome))
			for i, h := range pr.Outcome {
				holders[i] = nobody(h)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", strings.Join(holders, " → "), pr.P.RatString(), pct(pr.P))
		}
		tw.Flush()
	}
}

// printFirst prints, for --order NAME, each subject's chance to be first
// in the order NAME, round by round.
func printFirst(w io.Writer, v variant, o oddsOptions) {
	rep := v.exact
	fmt.Fprintf(w, "%s: exact odds over %d round%s, P(first in %s):\n", o.title(v), o.rounds, map[bool]string{true: "", false: "s"}[o.rounds == 1], o.order)
	subjects := firstSubjects(v, o.order)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "round\t%s\n", strings.Join(subjects, "\t"))
	for _, r := range rep.Rounds {
		cells := []string{fmt.Sprint(r.Round)}
		for _, s := range subjects {
			p := r.First[o.order][s]
			if p == nil {
				p = new(big.Rat)
			}
			cells = append(cells, p.RatString()+" "+pct(p))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
}

// firstSubjects are the columns of printFirst: the sides, for an order of
// sides, or the units, for an order of units, in setup order.
func firstSubjects(v variant, order string) []string {
	for _, r := range v.exact.Rounds {
		for s := range r.First[order] {
			if !slices.Contains(v.sides, s) {
				return v.units
			}
		}
	}
	return v.sides
}

// printComparison shows how the second variant changes each side's chance
// of holding priority.
func printComparison(w io.Writer, vs []variant, rounds int) {
	fmt.Fprintf(w, "\n%s vs %s, P(holds priority):\n", vs[0].label, vs[1].label)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "round\tside\t%s\t%s\tchange\n", vs[0].label, vs[1].label)
	for r := 1; r <= rounds; r++ {
		for _, s := range vs[0].sides {
			a, b := probAt(vs[0], r, s), probAt(vs[1], r, s)
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", r, s, probCell(vs[0], r, s), probCell(vs[1], r, s), ppChange(b-a))
		}
	}
	tw.Flush()
	// A house rule can leave every round's odds as they were and still
	// change the battle (every tie rerolled: no more priority passed
	// back and forth); a table of zeros alone would say it changes nothing.
	if sameHolderOdds(vs, rounds) {
		if seqs := [2][]runtime.Prob{vs[0].exact.Sequences, vs[1].exact.Sequences}; rounds > 1 && seqs[0] != nil && seqs[1] != nil && !sameProbs(seqs[0], seqs[1]) {
			fmt.Fprintf(w, "\nEach side holds priority exactly as often, round by round, but who holds it from one round to the next changes: see \"Who holds priority, round by round\" above.\n")
		} else {
			fmt.Fprintf(w, "\nEach side holds priority exactly as often, round by round.\n")
		}
	}
}

// ppChange is a change of probability in percentage points: of a
// comparison's percentages, the difference a reader would work out.
func ppChange(d float64) string {
	s := fmt.Sprintf("%+.2f pp", 100*d)
	if s == "-0.00 pp" {
		return "+0.00 pp" // a rounding's sign is not a change
	}
	return s
}

// sameHolderOdds reports whether two exact reports give every side the
// same chance of holding priority in every round.
func sameHolderOdds(vs []variant, rounds int) bool {
	if vs[0].exact == nil || vs[1].exact == nil || !slices.Equal(vs[0].sides, vs[1].sides) {
		return false
	}
	for r := range rounds {
		a, b := vs[0].exact.Rounds[r].Holder, vs[1].exact.Rounds[r].Holder
		for _, s := range vs[0].sides {
			pa, pb := a[s], b[s]
			if (pa == nil || pa.Sign() == 0) != (pb == nil || pb.Sign() == 0) || pa != nil && pb != nil && pa.Cmp(pb) != 0 {
				return false
			}
		}
	}
	return true
}

// sameProbs reports whether two distributions are the same, outcome by
// outcome.
func sameProbs(a, b []runtime.Prob) bool {
	p := func(ps []runtime.Prob) map[string]*big.Rat {
		m := map[string]*big.Rat{}
		for _, pr := range ps {
			m[strings.Join(pr.Outcome, "\x00")] = pr.P
		}
		return m
	}
	ma, mb := p(a), p(b)
	if len(ma) != len(mb) {
		return false
	}
	for k, v := range ma {
		if w, ok := mb[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}
