package main

import "github.com/turnorder/turnorder/runtime"

// The document `turnorder run --json` prints. docs/json.md describes every
// field; change them only compatibly (add, never rename or remove).

type runDoc struct {
	Ruleset string     `json:"ruleset"`
	Seed    uint64     `json:"seed"`
	Rounds  []roundDoc `json:"rounds"`
}

type roundDoc struct {
	Round       int             `json:"round"`
	Order       []string        `json:"order"`
	Holder      string          `json:"holder"`
	Chooser     *string         `json:"chooser"`
	Activations []activationDoc `json:"activations"`
	Events      []runtime.Event `json:"events"`
}

type activationDoc struct {
	Side string `json:"side"`
	Unit string `json:"unit,omitempty"`
	Pass bool   `json:"pass,omitempty"`
}

func roundJSON(res *runtime.RoundResult) roundDoc {
	d := roundDoc{
		Round:       res.Round,
		Order:       append([]string{}, res.Order...),
		Holder:      res.Holder,
		Activations: []activationDoc{},
		Events:      append([]runtime.Event{}, res.Events...),
	}
	if res.Chooser != "" {
		c := res.Chooser
		d.Chooser = &c
	}
	for _, a := range res.Activations {
		d.Activations = append(d.Activations, activationDoc{Side: a.Side, Unit: a.Unit, Pass: a.Pass})
	}
	return d
}
