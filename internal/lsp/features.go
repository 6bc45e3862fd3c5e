package lsp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// The hover texts are docs/language.md's, shortened to a sentence or two.

func (s *server) hover(_ *glsp.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	d := s.doc(p.TextDocument.URI)
	if d == nil || d.file == nil {
		return nil, nil
	}
	at := dslPos(d.text, p.Position)
	n := innermost(d.file, at, func(n dsl.Node) bool { return describe(n) != "" })
	var rng protocol.Range
	if n != nil {
		rng = protocol.Range{Start: position(d.text, n.Pos()), End: position(d.text, n.End())}
	}
	// A name that refers to a declaration is described by it: `by
	// priority` says what the order priority is. The name in the
	// declaration itself is the declaration's.
	if word, wr := wordAt(d.text, p.Position); word != "" && (n == nil || declName(n) != word) {
		if decls := declarations(d.file, word); len(decls) > 0 {
			n, rng = decls[0], wr
		}
	}
	if n == nil {
		return nil, nil
	}
	text := withQuotes(d.file, n, describe(n))
	return &protocol.Hover{
		Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text},
		Range:    &rng,
	}, nil
}

// innermost returns the smallest node of f that spans p and for which ok
// holds, or nil.
func innermost(f *dsl.File, p dsl.Pos, ok func(dsl.Node) bool) dsl.Node {
	var found dsl.Node
	// Walk visits parents before children, and siblings do not overlap:
	// the last node that spans p is the innermost.
	dsl.Walk(f, func(n dsl.Node) {
		if contains(n, p) && ok(n) {
			found = n
		}
	})
	return found
}

// describe says what the node n is, in Markdown; "" for a node that is
// not worth a hover.
func describe(n dsl.Node) string {
	var what string
	switch n := n.(type) {
	case *dsl.ValueCrit:
		what = fmt.Sprintf("**%s %s**: orders each tied group by this number, worked out for each subject, %s first; equal values stay tied.",
			n.Dir, exprText(n.Expr), n.Dir)
	case *dsl.RollCrit:
		what = fmt.Sprintf("**%s roll %s**: every subject of a tied group rolls; %s total first. Equal totals stay tied (a `tie` event).",
			n.Dir, strings.TrimSpace(n.Dice+" "+exprText(n.Modifier)), n.Dir)
	case *dsl.DrawCrit:
		what = fmt.Sprintf("**%s draw %s**: each subject of a tied group in turn draws a card from the deck or bag %s, without replacement; %s value first. Equal values stay tied, and `reroll` draws again from what is left.",
			n.Dir, n.Deck.Name, n.Deck.Name, n.Dir)
	case *dsl.RandomizerDecl:
		switch n.Kind {
		case dsl.KindDie:
			what = fmt.Sprintf("**die %s**: a die of named faces, rolled with replacement by `highest roll %s`; a face counts for its value (0 if it has none).", n.Name.Name, n.Name.Name)
		default:
			what = fmt.Sprintf("**%s %s**: drawn from without replacement by `highest draw %s`: what is left is battle state, saved in snapshots. ", n.Kind, n.Name.Name, n.Name.Name)
			if n.PerSide {
				what += "Each side has one of its own. "
			}
			switch n.Reshuffle {
			case dsl.ReshuffleEachRound:
				what += "It is made whole at the start of each round."
			case dsl.ReshuffleWhenEmpty:
				what += "It is made whole when a draw finds it empty."
			default:
				what += "Only a rule's `reshuffle` makes it whole: a draw from it empty is an error."
			}
		}
	case *dsl.ReshuffleAction:
		what = fmt.Sprintf("**reshuffle %s**: every card of %s goes back in (every side's, for a deck per side).", n.Deck.Name, n.Deck.Name)
	case *dsl.RandomCrit:
		what = "**random**: a uniformly random order of each tied group. Nothing after it can still be tied."
	case *dsl.RerollCrit:
		what = "**reroll**: the tied subjects roll the last roll of the chain again, and the same tie rules apply to whatever is still tied."
	case *dsl.AwardCrit:
		if n.Not {
			what = fmt.Sprintf("**award not %s**: names the subject of the tied group who goes last, after the others.", exprText(n.Expr))
		} else {
			what = fmt.Sprintf("**award %s**: names the subject of the tied group who goes first.", exprText(n.Expr))
		}
	case *dsl.ChoiceCrit:
		kind := string(n.Kind)
		if kind == "" {
			kind = "order"
		}
		by := "ROLE"
		if n.By != nil {
			by = n.By.String()
		}
		what = fmt.Sprintf("**choice %s by %s**: a decision: `%s` chooses %s. Automated play (`run`, `odds`) answers with the default policy, %s.",
			kind, by, by, choiceKinds[kind], defaultPolicy(n.Default, runtime.Policies(runtime.DecisionKind(kind))))
	case *dsl.TieRule:
		what = "**tie rule**: resolves a group the criteria above left tied. The first tie rule of a set whose `when` guard holds (one without `when` always does) resolves it by its own criteria."
		if n.When != nil {
			what += fmt.Sprintf(" This one applies when `%s`.", exprText(n.When))
		}
	case *dsl.AttrDecl:
		what = fmt.Sprintf("**%s attribute %s %s**: a value every %s has", n.Of, n.Name, n.Type, n.Of)
		if n.Range != nil {
			what = fmt.Sprintf("**%s attribute %s %s %s**: a value every %s has, from %s (a value out of the range is refused)", n.Of, n.Name, n.Type, n.Range, n.Of, strings.Replace(n.Range.String(), "..", " to ", 1))
		}
		if n.Default != nil {
			what += fmt.Sprintf(", %s unless its setup gives its own.", n.Default)
		} else {
			what += fmt.Sprintf(", %s unless its setup gives its own.", zeroOf(string(n.Type.Name)))
		}
	case *dsl.StatusDecl:
		what = fmt.Sprintf("**unit status %s**: on/off conditions a unit can have, false unless the setup or a scenario says otherwise.", strings.Join(nameStrings(n.Names), ", "))
	case *dsl.OrderStmt:
		what = fmt.Sprintf("**order %s as %s**: an order procedure that puts the battle's %s in order, producing the standing %s. Its criteria apply one after another, each splitting only the groups still tied. Once it is made, expressions read it as `%s` (`%s.first`, `%s.last`, `%s.holder`, `%s.chooser`, `%s.order`, `%s.place[name]`, `%s.by`).",
			n.Subjects, n.Name, n.Subjects, n.Name, n.Name, n.Name, n.Name, n.Name, n.Name, n.Name, n.Name, n.Name)
	case *dsl.PhaseStmt:
		what = fmt.Sprintf("**phase %s**: a part of the round. A round runs the phases in the order they are written.", dsl.FormatName(n.Name))
	case *dsl.StepStmt:
		what = fmt.Sprintf("**step %s**: a named part of a phase; special rules can run at its start and end.", dsl.FormatName(n.Name))
	case *dsl.ActivationStmt:
		by := "setup order"
		head := "activation " + string(n.Mode)
		if n.By != nil {
			by = "order " + n.By.String()
			head += " by " + n.By.String()
		}
		what = fmt.Sprintf("**%s**: an activation loop, which runs until no unit has a Ready marker: %s (here, %s). Written in a ruleset it runs after the phases; in a phase or step, at that point of the round.",
			head, activationModes[string(n.Mode)], by)
	case *dsl.ReadyStmt:
		what = "**ready units**: places a Ready marker on every unit (with `unless` or `where`, on those its condition picks)."
	case *dsl.DecideStmt:
		who := "each side"
		if n.By != nil {
			who = n.By.String()
		}
		how := ""
		if n.Secretly {
			how = ", in secret: the answers are revealed together once every side has answered"
		}
		what = fmt.Sprintf("**decide %s**: a decision (%s) asked of %s at this point of the round%s; read as `%s` from then to the end of the round, and as `previous.%s` in the next.",
			n.Name.Name, n.Type, who, how, n.Name.Name, n.Name.Name)
	case *dsl.RememberStmt:
		what = fmt.Sprintf("**remember %s**: a value worked out at the end of each round, read in the next as `previous.%s`.", n.Name, n.Name)
	case *dsl.HandlerStmt:
		what = "**special rule**: runs its actions at its hook point, when its `when` guard holds."
	case *dsl.Ruleset:
		what = fmt.Sprintf("**ruleset %s**: one game's turn-order rules.", dsl.FormatName(n.Name))
	default:
		return ""
	}
	return what
}

// withQuotes puts before what, which describes the node n of f, the
// rulebook text quoted just before n.
func withQuotes(f *dsl.File, n dsl.Node, what string) string {
	var b strings.Builder
	for _, t := range quotesOf(f)[n] {
		fmt.Fprintf(&b, "> %s\n\n", t)
	}
	return b.String() + what
}

var choiceKinds = map[string]string{
	"first":        "who goes first; the others keep their order",
	"before_after": "whether the role's subject goes before or after the others",
	"order":        "the whole order",
}

var activationModes = map[string]string{
	"alternate":  "sides take turns in the order of the standing, each activating one ready unit or passing",
	"sequential": "the first side activates all its ready units, then the next, and so on",
	"unit_order": "units activate in the order of the standing, a standing of units",
	"draw":       "each turn a side is drawn from a bag holding one die per ready unit, and activates one of its ready units",
}

func defaultPolicy(d *dsl.Ident, policies []string) string {
	if d != nil {
		return "`" + d.String() + "`"
	}
	if len(policies) > 0 {
		return "`" + policies[0] + "`"
	}
	return "none"
}

func zeroOf(typ string) string {
	switch typ {
	case "int":
		return "0"
	case "bool":
		return "false"
	}
	return `""`
}

func exprText(e *dsl.Expr) string {
	if e == nil {
		return ""
	}
	return strings.TrimSpace(e.Source)
}

func nameStrings(ns []dsl.Name) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = string(n)
	}
	return out
}

// quotesOf maps each rule of f to the `quote "..."` statements written
// just before it in the same block: the rulebook text it implements.
func quotesOf(f *dsl.File) map[dsl.Node][]string {
	m := map[dsl.Node][]string{}
	dsl.Walk(f, func(n dsl.Node) {
		switch n := n.(type) {
		case *dsl.Ruleset:
			attachQuotes(n.Body, m)
		case *dsl.PhaseStmt:
			attachQuotes(n.Body, m)
		case *dsl.StepStmt:
			attachQuotes(n.Body, m)
		case *dsl.OrderStmt:
			attachQuotes(n.Chain, m)
		case *dsl.TieRule:
			attachQuotes(n.Block, m)
		case *dsl.HandlerStmt:
			attachQuotes(n.Body, m)
		}
	})
	return m
}

func attachQuotes[N dsl.Node](list []N, m map[dsl.Node][]string) {
	var pending []string
	for _, n := range list {
		if q, ok := dsl.Node(n).(*dsl.QuoteStmt); ok {
			pending = append(pending, string(q.Text))
			continue
		}
		if len(pending) > 0 {
			m[n] = pending
			pending = nil
		}
	}
}

// declarations returns the orders, attributes and phases of f named name,
// in that order: a phase and its order often share a name, and a name
// after `by` or in an expression means the order.
func declarations(f *dsl.File, name string) []dsl.Node {
	var out []dsl.Node
	dsl.Walk(f, func(n dsl.Node) {
		switch n := n.(type) {
		case *dsl.OrderStmt:
			if string(n.Name) == name {
				out = append(out, n)
			}
		case *dsl.AttrDecl:
			if string(n.Name) == name {
				out = append(out, n)
			}
		case *dsl.PhaseStmt:
			if string(n.Name) == name {
				out = append(out, n)
			}
		}
	})
	slices.SortStableFunc(out, func(a, b dsl.Node) int { return declRank(a) - declRank(b) })
	return out
}

// declName is the name n declares, if it is an order, an attribute or a
// phase; "" otherwise.
func declName(n dsl.Node) string {
	switch n := n.(type) {
	case *dsl.OrderStmt:
		return string(n.Name)
	case *dsl.AttrDecl:
		return string(n.Name)
	case *dsl.PhaseStmt:
		return string(n.Name)
	}
	return ""
}

func declRank(n dsl.Node) int {
	switch n.(type) {
	case *dsl.OrderStmt:
		return 0
	case *dsl.AttrDecl:
		return 1
	}
	return 2
}

func (s *server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	d := s.doc(p.TextDocument.URI)
	if d == nil || d.file == nil {
		return nil, nil
	}
	word, _ := wordAt(d.text, p.Position)
	if word == "" {
		return nil, nil
	}
	locs := []protocol.Location{}
	for _, n := range declarations(d.file, word) {
		locs = append(locs, protocol.Location{URI: d.uri,
			Range: protocol.Range{Start: position(d.text, n.Pos()), End: position(d.text, n.End())}})
	}
	if len(locs) == 0 {
		return nil, nil
	}
	return locs, nil
}

// contextWords are the keywords that start or continue a statement in
// each kind of block, offered before the others there.
var contextWords = map[string][]string{
	"file":     {"ruleset", "scenario", "side", "team", "unit"},
	"ruleset":  {"source", "quote", "sides", "side", "unit", "attribute", "status", "remember", "phase", "activation", "on", "example"},
	"phase":    {"step", "order", "sides", "units", "as", "each", "round", "once", "until", "changed", "ready", "unless", "where", "hook", "quote"},
	"order":    {"highest", "lowest", "roll", "random", "reroll", "award", "not", "choice", "first", "before_after", "order", "by", "default", "tie", "when", "quote"},
	"handler":  {"set", "of", "ready", "holder", "quote"},
	"example":  {"side", "team", "unit", "status"},
	"scenario": {"ruleset", "quote", "decide", "by", "policy", "seed", "side", "round"},
	"round":    {"roll", "random", "chooses", "set", "of", "is", "not", "remove", "ready", "activate", "expect", "order", "holder", "chooser", "activations", "standing", "event", "no", "error", "pass", "quote"},
}

// blockAt says which kind of block p is in, for contextWords.
func blockAt(f *dsl.File, p dsl.Pos) string {
	block := "file"
	if f == nil {
		return block
	}
	dsl.Walk(f, func(n dsl.Node) {
		if !contains(n, p) {
			return
		}
		switch n.(type) {
		case *dsl.Ruleset:
			block = "ruleset"
		case *dsl.PhaseStmt, *dsl.StepStmt:
			block = "phase"
		case *dsl.OrderStmt, *dsl.TieRule:
			block = "order"
		case *dsl.HandlerStmt:
			block = "handler"
		case *dsl.ExampleStmt, *dsl.SideSetup:
			block = "example"
		case *dsl.Scenario:
			block = "scenario"
		case *dsl.RoundBlock:
			block = "round"
		}
	})
	return block
}

// previousWord is the word before the one being typed at p, on its line.
func previousWord(text string, p protocol.Position) string {
	line, _ := lineText(text, int(p.Line))
	before := line[:byteInLine(line, int(p.Character))]
	before = strings.TrimRightFunc(before, isWordRune)
	fields := strings.Fields(before)
	if len(fields) == 0 {
		return ""
	}
	return fields[len(fields)-1]
}

func (s *server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	d := s.doc(p.TextDocument.URI)
	items := []protocol.CompletionItem{}
	seen := map[string]bool{}
	// rank orders the items: what fits where the cursor is first (0),
	// then the document's names (1), the policies (2), the other keywords
	// (3). A word that is two things (a phase and its order, a policy and
	// a keyword) is offered once, as the first added.
	add := func(label string, kind protocol.CompletionItemKind, detail string, rank int) {
		if label == "" || seen[label] {
			return
		}
		seen[label] = true
		k, det, sort := kind, detail, fmt.Sprintf("%d%s", rank, label)
		items = append(items, protocol.CompletionItem{Label: label, Kind: &k, Detail: &det, SortText: &sort})
	}
	// Orders before the other names: after `by` an order's name is what
	// comes next, and a phase is often named as its order is.
	names := func(f *dsl.File) []dsl.Node {
		var out []dsl.Node
		dsl.Walk(f, func(n dsl.Node) {
			switch n.(type) {
			case *dsl.AttrDecl, *dsl.StatusDecl, *dsl.OrderStmt, *dsl.PhaseStmt:
				out = append(out, n)
			}
		})
		slices.SortStableFunc(out, func(a, b dsl.Node) int { return declRank(a) - declRank(b) })
		return out
	}
	var f *dsl.File
	text := ""
	if d != nil {
		f, text = d.file, d.text
	}
	prev := previousWord(text, p.Position)
	policyRank, orderRank := 2, 1
	switch prev {
	case "default":
		policyRank = 0
	case "by", "changed":
		orderRank = 0
	}
	var policies []string
	for _, kind := range []runtime.DecisionKind{runtime.ChooseFirst, runtime.ChooseBeforeAfter, runtime.ChooseOrder, runtime.ChooseActivation} {
		policies = append(policies, runtime.Policies(kind)...)
	}
	if policyRank == 0 {
		for _, pol := range policies {
			add(pol, protocol.CompletionItemKindValue, "default policy", 0)
		}
	}
	if f != nil && policyRank != 0 && orderRank != 0 { // after default or by, a name is next, not a keyword
		for _, w := range contextWords[blockAt(f, dslPos(text, p.Position))] {
			add(w, protocol.CompletionItemKindKeyword, "keyword", 0)
		}
	}
	if f != nil {
		for _, n := range names(f) {
			switch n := n.(type) {
			case *dsl.AttrDecl:
				add(string(n.Name), protocol.CompletionItemKindField, fmt.Sprintf("%s attribute %s", n.Of, n.Type), 1)
			case *dsl.StatusDecl:
				for _, name := range n.Names {
					add(string(name), protocol.CompletionItemKindEnumMember, "unit status", 1)
				}
			case *dsl.OrderStmt:
				add(string(n.Name), protocol.CompletionItemKindVariable, fmt.Sprintf("order of %s", n.Subjects), orderRank)
			case *dsl.PhaseStmt:
				add(string(n.Name), protocol.CompletionItemKindModule, "phase", 1)
			}
		}
	}
	for _, pol := range policies {
		add(pol, protocol.CompletionItemKindValue, "default policy", policyRank)
	}
	for _, kw := range dsl.Keywords() {
		add(kw, protocol.CompletionItemKindKeyword, "keyword", 3)
	}
	return items, nil
}
