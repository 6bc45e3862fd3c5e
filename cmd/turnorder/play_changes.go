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
// typed where Step asks which unit activates, or which colour came out of
// the bag: the decider or the dice return it as their error, so that Step
// plays nothing of the turn, and playRound makes it between the two turns,
// outside Step. Made from inside Step, it would leave Step's question with
// options the change has taken away (a unit removed), and the battle put
// back if it fails (see change) would not be the one Step plays; its own
// recomputation may ask for dice and decisions too. Step then asks again,
// of the battle as the change left it.
type pendingChange struct {
	ans       string // as typed
	msg, same string // what change says it did, or that it changed nothing
	do        func(ctx context.Context) (bool, error)
}

func (p *pendingChange) Error() string { return "a change to make between two turns: " + p.ans }

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
		return &pendingChange{
			ans:  ans,
			msg:  fmt.Sprintf("%s of %s is now %s", attr, name, value),
			same: fmt.Sprintf("%s of %s is already %s", attr, name, value),
			do: func(ctx context.Context) (bool, error) {
				old, _ := t.attr(name, attr)
				err := t.b.SetAttr(ctx, name, attr, attrValue(value, isIntAttr(t.b, name, attr)))
				now, _ := t.attr(name, attr)
				return now != old, err
			},
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
		return &pendingChange{ans: ans, msg: msg, do: func(ctx context.Context) (bool, error) {
			known := t.b.Unit(name) != nil // or RemoveUnit refuses, changing nothing
			return known, t.b.RemoveUnit(ctx, name)
		}}, true
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
	case "set", "remove":
		return strings.TrimSpace(rest) != ""
	}
	return isRE.MatchString(ans)
}

// change makes a change typed at a prompt and says what it did: p.msg,
// what the recomputation it started did to the order, and why (the events
// after the change's own, which the rest of the round, or the next one,
// does not show again). The change may ask for dice and decisions (it
// recomputes the orders kept until what it changes changes); an input
// that ends then is a *cutError. Any other failure (a rule that fails in
// the recomputation) is said, the change is undone, and the battle goes
// on. p.do reports whether anything changed: if not, there is no event,
// and p.same is said instead of p.msg, or the error that refused the
// change as it is.
func (t *table) change(ctx context.Context, p *pendingChange) error {
	before, asked := t.b.Order(), t.asked
	inRound := t.b.InRound()
	turn := t.turnSide()
	pending, shown := len(t.b.PendingEvents()), t.shown
	backup := t.b.Clone() // the same dice and decider: the table's
	// The change's own event comes first, and msg says it: a question the
	// recomputation asks shows the events after it (see flush). Between
	// rounds the change's events wait for the next round; in a round they
	// are the round's.
	if inRound {
		t.shown = len(t.b.Events()) + 1
	} else {
		t.told = pending + 1
	}
	t.changing = true
	changed, err := p.do(ctx)
	t.changing = false
	if (!changed || err != nil) && inRound {
		t.shown = shown
	} else if !changed || err != nil {
		t.told = pending
	}
	if err != nil {
		if errors.Is(err, errInputEnded) {
			return &cutError{p.ans}
		}
		t.b = backup
		if !changed {
			t.say("%v", err) // refused before anything changed
			return nil
		}
		t.say("%v: the change is undone", err)
		return nil
	}
	if !changed {
		t.say("%s", p.same)
		return nil
	}
	// The orders kept until the value changes are already recomputed:
	// say what that did to the order, which the next round (or, in a
	// round, the turns left) starts from.
	msg := p.msg
	switch after := t.b.Order(); {
	case !slices.Equal(before, after):
		msg += "; the order is now " + strings.Join(after, ", ")
	case t.asked > asked:
		msg += "; the order is recomputed and stays " + strings.Join(after, ", ")
	}
	t.say("%s", msg)
	// What the recomputation did, and why, that no question has shown;
	// the change's own event (the first) is msg.
	t.flush()
	if now := t.turnSide(); inRound && turn != "" && now != "" && now != turn {
		// Once turns have begun the runtime keeps the turn with its
		// side; before the first, it stays at its place in the order
		// (the new first side, the new holder), and a side with no
		// ready unit is passed over. Either way the players, who were
		// waiting for turn's move, must be told.
		why := ""
		// Said only where it is so: the place the turn was at is now's.
		if after := t.b.Order(); !slices.Equal(before, after) {
			if i := slices.Index(before, turn); i >= 0 && i < len(after) && after[i] == now {
				why = fmt.Sprintf(": the turn stays at #%d in the order, which is %s place now", i+1, wording.Possessive(now))
			}
		}
		t.say("it is %s turn now, not %s%s", wording.Possessive(now), wording.Possessive(turn), why)
	}
	t.madeChange()
	return nil
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
	return &pendingChange{ans: ans, msg: msg, do: func(ctx context.Context) (bool, error) {
		return true, t.b.SetStatus(ctx, unit, status, on) // the cases above change nothing
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
