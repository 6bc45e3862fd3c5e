package main

// The JSON document of odds --json (docs/json.md), for one ruleset or two
// compared.

import "math/big"

// The JSON document: fractions as strings, with a float beside each.
type (
	oddsDoc struct {
		Ruleset   string            `json:"ruleset"`
		Label     string            `json:"label"` // see labelVariants
		Sides     []string          `json:"sides"`
		Runs      int               `json:"runs,omitempty"`
		Seed      *uint64           `json:"seed,omitempty"`
		Rounds    []oddsRound       `json:"rounds"`
		Sequences []seqJSON         `json:"sequences,omitempty"`
		Expected  map[string]string `json:"expected_rounds_holding,omitempty"`
		// Decision and Answer, with --decide NAME=each, are the answer
		// these odds are of.
		Decision string `json:"decision,omitempty"`
		Answer   string `json:"answer,omitempty"`
	}
	oddsRound struct {
		Round       int                   `json:"round"`
		Holder      map[string]string     `json:"holder,omitempty"`
		HolderFloat map[string]float64    `json:"holder_float"`
		CI95        map[string][2]float64 `json:"ci95,omitempty"`
		Order       []orderJSON           `json:"order,omitempty"`
		// First is who is first in each order of the ruleset, by its
		// name: each subject's chance.
		First      map[string]map[string]string  `json:"first,omitempty"`
		FirstFloat map[string]map[string]float64 `json:"first_float,omitempty"`
	}
	orderJSON struct {
		Order []string `json:"order"`
		P     string   `json:"p"`
		F     float64  `json:"p_float"`
	}
	seqJSON struct {
		Holders []string `json:"holders"`
		P       string   `json:"p"`
		F       float64  `json:"p_float"`
	}
)

func toDoc(v variant, o oddsOptions) oddsDoc {
	d := oddsDoc{Ruleset: v.name, Label: v.label, Sides: v.sides, Decision: v.decision, Answer: v.answer}
	if v.sim != nil {
		d.Runs, d.Seed = v.sim.Runs, &o.seed
		for r := 1; r <= o.rounds; r++ {
			or := oddsRound{Round: r, HolderFloat: map[string]float64{}, CI95: map[string][2]float64{}}
			for _, s := range v.sides {
				p, _ := v.sim.Estimate(r, s)
				lo, hi := v.sim.Interval(r, s)
				or.HolderFloat[s] = p
				or.CI95[s] = [2]float64{lo, hi}
			}
			d.Rounds = append(d.Rounds, or)
		}
		return d
	}
	for _, r := range v.exact.Rounds {
		or := oddsRound{Round: r.Round, Holder: map[string]string{}, HolderFloat: map[string]float64{}}
		for _, s := range v.sides {
			p := r.Holder[s]
			if p == nil {
				p = new(big.Rat)
			}
			or.Holder[s] = p.RatString()
			or.HolderFloat[s], _ = p.Float64()
		}
		for _, pr := range r.Orders {
			f, _ := pr.P.Float64()
			or.Order = append(or.Order, orderJSON{Order: append([]string{}, pr.Outcome...), P: pr.P.RatString(), F: f})
		}
		for name, firsts := range r.First {
			if or.First == nil {
				or.First, or.FirstFloat = map[string]map[string]string{}, map[string]map[string]float64{}
			}
			or.First[name], or.FirstFloat[name] = map[string]string{}, map[string]float64{}
			for s, p := range firsts {
				or.First[name][s] = p.RatString()
				or.FirstFloat[name][s], _ = p.Float64()
			}
		}
		d.Rounds = append(d.Rounds, or)
	}
	for _, pr := range v.exact.Sequences {
		f, _ := pr.P.Float64()
		d.Sequences = append(d.Sequences, seqJSON{Holders: pr.Outcome, P: pr.P.RatString(), F: f})
	}
	d.Expected = map[string]string{}
	for s, e := range v.exact.Expected {
		d.Expected[s] = e.RatString()
	}
	return d
}

// oddsTop is the document of odds --json: one ruleset's, or two under
// "compare", or, when odds fails, only the errors.
type oddsTop struct {
	*oddsDoc
	Compare []oddsDoc `json:"compare,omitempty"`
	// Each, with --decide NAME=each, holds the odds of each answer.
	Each []oddsDoc `json:"each,omitempty"`
	ErrorsDoc
}

func oddsJSON(vs []variant, o oddsOptions) oddsTop {
	if o.decide.each != "" {
		docs := make([]oddsDoc, len(vs))
		for i, v := range vs {
			docs[i] = toDoc(v, o)
		}
		return oddsTop{Each: docs}
	}
	if len(vs) == 1 {
		d := toDoc(vs[0], o)
		return oddsTop{oddsDoc: &d}
	}
	docs := make([]oddsDoc, len(vs))
	for i, v := range vs {
		docs[i] = toDoc(v, o)
	}
	return oddsTop{Compare: docs}
}
