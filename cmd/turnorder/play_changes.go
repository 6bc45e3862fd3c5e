package main

// The changes made at the table during a battle (remove UNIT, set ATTR
// of NAME = VALUE, UNIT is [not] STATUS): how play reads and checks them,
// makes them, and says what they did to the order.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/runtime"
)

// cutError is the end of the input while a change made at the prompt was
// still asking for the dice or decisions it needs.
type cutError struct{ change string }

func (e *cutError) Error() string { return "input ended during " + e.change }

func (e *cutError) Unwrap() error { return errInputEnded }

var (
	setRE = regexp.MustCompile(`^set\s+(\w+)\s+of\s+(.+?)\s*=\s*(.+)$`)
	isRE  = regexp.MustCompile(`^(.+?)\s+is\s+(not\s+)?(\w+)$`)
)

// changeCommands are the changes that can be typed between rounds and
// where a unit is to be activated, each with what it does, for the help
// of both prompts.
func (t *table) changeCommands() [][2]string {
	statuses := "this ruleset declares none"
	if len(t.decl.statuses) > 0 {
		statuses = strings.Join(t.decl.statuses, ", ")
	}
	return [][2]string{
		{"set ATTR of NAME = VALUE", "change an attribute of a side or unit (" + t.setExample() + ")"},
		{"UNIT is [not] STATUS", "give a unit a status, or take it away (statuses: " + statuses + ")"},
		{"remove UNIT", "take a fallen model out of the battle"},
		{"add unit NAME to SIDE [ATTR = VALUE ...]", "a unit joins the battle (reinforcements), as a setup's unit is written"},
	}
}

// setExample shows set with one of the ruleset's own attributes, of one
// of the battle's units or sides: "as in: set agi of Aria = 6".
func (t *table) setExample() string {
	example := func(a runtime.Attr, name string) string {
		value := "6"
		switch a.Type {
		case runtime.BoolAttr:
			value = "true"
		case runtime.StringAttr:
			value = `"text"`
		}
		return fmt.Sprintf("as in: set %s of %s = %s", a.Name, name, value)
	}
	prog := t.b.Program()
	if attrs, units := prog.UnitAttrs(), t.b.Units(); len(attrs) > 0 && len(units) > 0 {
		return example(attrs[0], units[0].Name)
	}
	if attrs, sides := prog.SideAttrs(), t.b.Sides(); len(attrs) > 0 && len(sides) > 0 {
		return example(attrs[0], sides[0].Name)
	}
	if statuses, units := prog.Statuses(), t.b.Units(); len(statuses) > 0 && len(units) > 0 {
		return example(runtime.Attr{Name: statuses[0], Type: runtime.BoolAttr}, units[0].Name)
	}
	return "this ruleset declares no attributes"
}

// pendingChange is a change typed at a prompt (remove, set, is), checked,
// and not made yet. Between rounds play makes it at once. In a round it is
// typed where a unit is to activate, or a die to come out of the bag: the
// prompt returns it as its error, and answer gives up the call that asked
// (which has played nothing of the turn yet) and makes the change between
// the two turns. Made while the call waited, it would leave the question
// with options the change has taken away (a unit removed). The loop then
// asks again, of the battle as the change left it.
type pendingChange struct {
	ans, msg string // as typed, and what change says it did
	// same says that the change changed nothing, where unchanged says so
	// (a value set to what it was).
	same      string
	unchanged func() bool
	do        func(ctx context.Context) error
}

func (p *pendingChange) Error() string { return "a change to make between two turns: " + p.ans }

// changeRec is a change under way, or made, as play says it once it is
// done: a save made while its recomputation asks for a die holds it (in
// play's part of the file), for the battle resumed from it to say it.
type changeRec struct {
	Typed  string   `json:"typed"`            // as typed
	Msg    string   `json:"msg"`              // what it does
	Before []string `json:"before,omitempty"` // the order before it
	Turn   string   `json:"turn,omitempty"`   // the side whose turn it was, in a round
	asked  int      // t.asked before it: whether its recomputation asked for anything
}

// unitStatus reads "UNIT is [not] STATUS" naming a unit of the battle: a
// prompt takes it before its own words, for a unit called y, or save.
func (t *table) unitStatus(ans string) (*pendingChange, bool) {
	m := isRE.FindStringSubmatch(ans)
	if m == nil {
		return nil, false
	}
	unit := t.named(strings.Trim(m[1], `"`))
	if t.b.Unit(unit) == nil {
		return nil, false
	}
	return t.statusChange(ans, unit, m[3], m[2] == ""), true
}

// parseChange reads a change typed at a prompt: "remove UNIT", "set ATTR
// of NAME = VALUE", "UNIT is [not] STATUS". It reports whether ans is one;
// one that cannot be made as it is (no such unit, a status the ruleset
// does not declare) is refused here, saying why, and is nil.
func (t *table) parseChange(ans string) (*pendingChange, bool) {
	if p, ok := t.unitStatus(ans); ok {
		return p, true
	}
	word, rest, _ := strings.Cut(ans, " ")
	switch strings.ToLower(word) {
	case "set":
		m := setRE.FindStringSubmatch(ans)
		if m == nil {
			t.say("write: set ATTRIBUTE of NAME = VALUE (%s)", t.setExample())
			return nil, true
		}
		attr, name, value := m[1], t.named(strings.Trim(m[2], `"`)), strings.TrimSpace(m[3])
		if slices.Contains(t.decl.statuses, attr) {
			if value != "true" && value != "false" {
				t.say("%s is a status: set it to true or false, or write: %s is %s, %s is not %s", attr, name, attr, name, attr)
				return nil, true
			}
			return t.statusChange(ans, name, attr, value == "true"), true
		}
		if why := t.decl.noAttr(t.b, name, attr); why != "" {
			t.say("%s", why)
			return nil, true
		}
		old, _ := t.attr(name, attr)
		return &pendingChange{
			ans: ans,
			msg: fmt.Sprintf("%s of %s is now %s", attr, name, value),
			unchanged: func() bool {
				now, _ := t.attr(name, attr)
				return now == old
			},
			do: func(ctx context.Context) error {
				return t.b.SetAttr(ctx, name, attr, attrValue(value, isIntAttr(t.b, name, attr)))
			},
			same: fmt.Sprintf("%s of %s is already %s", attr, name, value),
		}, true
	case "remove":
		name := t.named(strings.Trim(strings.TrimSpace(rest), `"`))
		if s := t.b.Side(name); s != nil && t.b.Unit(name) == nil {
			t.say("%s is a side: remove takes a unit (%s units: %s)", name, wording.Possessive(name), wording.OrNone(unitNames(s.Units)))
			return nil, true
		}
		if name == "" {
			t.say("write: remove UNIT (the battle's units: %s)", wording.OrNone(unitNames(t.b.Units())))
			return nil, true
		}
		msg := name + " is removed from the battle"
		if u := t.b.Unit(name); u != nil && u.Ready && t.b.InRound() {
			// What the players most need to know in a round.
			msg += "; it was Ready, and no longer activates this round"
		}
		return &pendingChange{ans: ans, msg: msg, do: func(ctx context.Context) error {
			return t.b.RemoveUnit(ctx, name) // refused, changing nothing, for a unit it does not have
		}}, true
	case "add":
		return t.addChange(ans), true
	}
	if m := isRE.FindStringSubmatch(ans); m != nil {
		return t.statusChange(ans, t.named(strings.Trim(m[1], `"`)), m[3], m[2] == ""), true
	}
	return nil, false
}

// looksLikeChange reports whether ans has the shape of a change (remove
// UNIT, set ..., UNIT is STATUS), for the prompts that take none.
func looksLikeChange(ans string) bool {
	word, rest, _ := strings.Cut(ans, " ")
	switch strings.ToLower(word) {
	case "set", "remove", "add":
		return strings.TrimSpace(rest) != ""
	}
	return isRE.MatchString(ans)
}

// addChange reads "add unit NAME to SIDE [ATTR = VALUE ...] [status S,
// ...]" as a scenario writes it, with the language's own grammar (quoted
// names, literals), and checks the unit as AddUnit will.
func (t *table) addChange(ans string) *pendingChange {
	const usage = "write: add unit NAME to SIDE [ATTR = VALUE ...] [status STATUS, ...] (sides: %s)"
	sides := make([]string, 0, len(t.b.Sides()))
	for _, s := range t.b.Sides() {
		sides = append(sides, s.Name)
	}
	f, diags := dsl.Parse("add", []byte("scenario \"\" {\nround 1 {\n"+ans+"\n}\n}\n"))
	var add *dsl.AddScript
	if !diags.HasErrors() && f != nil && len(f.Decls) == 1 {
		if sc, ok := f.Decls[0].(*dsl.Scenario); ok && len(sc.Body) == 1 {
			if rb, ok := sc.Body[0].(*dsl.RoundBlock); ok && len(rb.Body) == 1 {
				add, _ = rb.Body[0].(*dsl.AddScript)
			}
		}
	}
	if add == nil {
		t.say(usage, strings.Join(sides, ", "))
		return nil
	}
	side, spec := t.named(add.Side.String()), runtime.UnitFromDSL(add)
	if err := t.b.CheckAddUnit(side, spec); err != nil {
		t.say("%v", err)
		return nil
	}
	return &pendingChange{ans: ans, msg: fmt.Sprintf("%s joins the battle for %s", spec.Name, side), do: func(ctx context.Context) error {
		return t.b.AddUnit(ctx, side, spec)
	}}
}

// change makes a change typed at a prompt and, once it is done, says what
// it did (see changeDone). The change may stop at the dice and decisions
// its recomputation needs (it recomputes the orders kept until what it
// changes changes): the loop asks for them, and says what the change did
// when they are given. A change refused as it is (ErrInvalidChange: no
// such unit, a value the attribute cannot hold) is said; one whose
// recomputation fails (a rule) is said and undone, and the battle goes
// on as it was.
func (t *table) change(ctx context.Context, p *pendingChange) error {
	rec := &changeRec{Typed: p.ans, Msg: p.msg, Before: t.b.Order(), Turn: t.turnSide(), asked: t.asked}
	inRound := t.b.InRound()
	pending, shown := len(t.b.PendingEvents()), t.shown
	// The change's own event comes first, and msg says it: a question the
	// recomputation asks shows the events after it (see flush). Between
	// rounds the change's events wait for the next round; in a round they
	// are the round's.
	if inRound {
		t.shown = len(t.b.Events()) + 1
	} else {
		t.told = pending + 1
	}
	err := p.do(ctx)
	op := opRec{kind: opChange, change: rec}
	switch {
	case err == nil:
		t.ops = append(t.ops, op)
		if p.unchanged != nil && p.unchanged() {
			// Nothing to show, or to take back: the battle forgets it.
			if err := t.b.Undo(); err == nil {
				t.ops = t.ops[:len(t.ops)-1]
			}
			t.shown, t.told = shown, pending
			t.say("%s", p.same)
			return nil
		}
		t.changeDone(rec)
		return nil
	case errors.Is(err, runtime.ErrPending):
		t.ops = append(t.ops, op)
		return nil
	}
	t.shown, t.told = shown, pending
	if errors.Is(err, runtime.ErrInvalidChange) {
		t.say("%v", err) // refused before anything changed
		return nil
	}
	t.say("%v: the change is undone", err)
	return nil
}

// changeDone says what a change did once it is done: its message, what
// the recomputation it started did to the order, and why (the events
// after the change's own, which the rest of the round, or the next one,
// does not show again); and, in a round, whose turn it is now, if that
// changed. With --save, it saves the battle at once.
func (t *table) changeDone(rec *changeRec) {
	if rec == nil {
		t.flush()
		return
	}
	// The orders kept until the value changes are already recomputed:
	// say what that did to the order, which the next round (or, in a
	// round, the turns left) starts from.
	msg := rec.Msg
	switch after := t.b.Order(); {
	case !slices.Equal(rec.Before, after):
		msg += "; the order is now " + strings.Join(after, ", ")
	case t.asked > rec.asked:
		msg += "; the order is recomputed and stays " + strings.Join(after, ", ")
	}
	t.say("%s", msg)
	// What the recomputation did, and why, that no question has shown;
	// the change's own event (the first) is msg.
	t.flush()
	turn := rec.Turn
	if now := t.turnSide(); t.b.InRound() && turn != "" && now != "" && now != turn {
		// Once turns have begun the runtime keeps the turn with its
		// side; before the first, it stays at its place in the order
		// (the new first side, the new holder), and a side with no
		// ready unit is passed over. Either way the players, who were
		// waiting for turn's move, must be told.
		why := ""
		// Said only where it is so: the place the turn was at is now's.
		if after := t.b.Order(); !slices.Equal(rec.Before, after) {
			if i := slices.Index(rec.Before, turn); i >= 0 && i < len(after) && after[i] == now {
				why = fmt.Sprintf(": the turn stays at #%d in the order, which is %s place now", i+1, wording.Possessive(now))
			}
		}
		t.say("it is %s turn now, not %s%s", wording.Possessive(now), wording.Possessive(turn), why)
	}
	t.madeChange()
}

// turnSide is the side whose turn it is in the activation loop, or "" when
// there is none, or it is still to be drawn from the bag.
func (t *table) turnSide() string {
	if !t.b.InRound() {
		return ""
	}
	if turn := t.b.Next(); turn != nil && !turn.Undrawn {
		return turn.Side
	}
	return ""
}

// attr is the value of a side's or unit's attribute.
func (t *table) attr(name, attr string) (any, bool) {
	if u := t.b.Unit(name); u != nil {
		v, ok := u.Attrs[attr]
		return v, ok
	}
	if s := t.b.Side(name); s != nil {
		v, ok := s.Attrs[attr]
		return v, ok
	}
	return nil, false
}

// statusChange is the change that gives a unit a status, or takes it
// away: "a1 is pinned", "a1 is not pinned", as scenarios write it. One
// that cannot be is refused, saying why, and is nil.
func (t *table) statusChange(ans, unit, status string, on bool) *pendingChange {
	u := t.b.Unit(unit)
	switch {
	case u == nil && t.b.Side(unit) != nil:
		t.say("%s is a side: statuses are units'", unit)
		return nil
	case u == nil:
		t.say("no unit is called %s", unit)
		return nil
	case !slices.Contains(t.decl.statuses, status):
		t.say("%s is not a status (unit statuses: %s)", status, wording.OrNone(t.decl.statuses))
		return nil
	case u.Status[status] == on && on:
		t.say("%s is already %s", unit, status)
		return nil
	case u.Status[status] == on:
		t.say("%s is already not %s", unit, status)
		return nil
	}
	msg := unit + " is now " + status
	if !on {
		msg = unit + " is no longer " + status
	}
	if on && u.Ready && t.b.InRound() {
		// A ready rule reads statuses when the round places its markers:
		// a status given since takes none away. A model out of the fight
		// is removed.
		msg += fmt.Sprintf(", and keeps its Ready marker this round (statuses count when a round places Ready markers); if %s is out of the battle, type: remove %s", unit, unit)
	}
	return &pendingChange{ans: ans, msg: msg, do: func(ctx context.Context) error {
		return t.b.SetStatus(ctx, unit, status, on) // the cases above change nothing
	}}
}

// declarations are the names a ruleset declares for sides and units, for
// the prompt's set and is.
type declarations struct {
	sideAttrs, unitAttrs, statuses []string
}

// declared reads the declarations of the program's ruleset.
func declared(p *runtime.Program) declarations {
	names := func(attrs []runtime.Attr) []string {
		out := make([]string, len(attrs))
		for i, a := range attrs {
			out[i] = a.Name
		}
		return out
	}
	return declarations{sideAttrs: names(p.SideAttrs()), unitAttrs: names(p.UnitAttrs()), statuses: p.Statuses()}
}

// noAttr says why "set ATTR of NAME" cannot be, or returns "" to leave it
// to Battle.SetAttr, which also says where to set an attribute of the
// other kind (a unit's set of a side).
func (d declarations) noAttr(b *runtime.Battle, name, attr string) string {
	switch {
	case b.Unit(name) != nil && !slices.Contains(d.unitAttrs, attr) && !slices.Contains(d.sideAttrs, attr):
		why := fmt.Sprintf("%s has no attribute %s (unit attributes: %s", name, attr, wording.OrNone(d.unitAttrs))
		if len(d.statuses) > 0 {
			why += "; unit statuses: " + strings.Join(d.statuses, ", ")
		}
		return why + ")"
	case b.Unit(name) == nil && b.Side(name) != nil && !slices.Contains(d.sideAttrs, attr) && !slices.Contains(d.unitAttrs, attr):
		return fmt.Sprintf("%s has no attribute %s (side attributes: %s)", name, attr, wording.OrNone(d.sideAttrs))
	}
	return ""
}

// attrValue reads a typed value: a whole number, true or false, or text.
// For an int attribute, a number that is not an int (2.5, 1e300,
// 99999999999999999999) is handed over as a number, as JSON would send
// it, so that SetAttr says it is not whole, or out of range, not that
// it is a string.
func attrValue(s string, isInt bool) any {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if _, err := strconv.ParseFloat(s, 64); isInt && json.Valid([]byte(s)) && (err == nil || errors.Is(err, strconv.ErrRange)) {
		return json.Number(s)
	}
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// isIntAttr reports whether attr is an int attribute of the side or unit
// called name.
func isIntAttr(b *runtime.Battle, name, attr string) bool {
	decl := b.Program().UnitAttrs()
	if b.Side(name) != nil {
		decl = b.Program().SideAttrs()
	}
	i := slices.IndexFunc(decl, func(a runtime.Attr) bool { return a.Name == attr })
	return i >= 0 && decl[i].Type == runtime.IntAttr
}
