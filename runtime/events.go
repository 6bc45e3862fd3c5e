package runtime

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/wording"
)

// EventKind names what happened.
type EventKind string

const (
	EvRoundStart EventKind = "round_start"
	EvRoundEnd   EventKind = "round_end"
	EvHook       EventKind = "hook"
	EvRoll       EventKind = "roll"
	EvTie        EventKind = "tie"
	EvReroll     EventKind = "reroll"
	EvAward      EventKind = "award"
	EvRandom     EventKind = "random"
	EvDecision   EventKind = "decision"
	EvPlacement  EventKind = "placement"
	EvKept       EventKind = "kept"
	EvHolder     EventKind = "holder"
	EvSet        EventKind = "set"
	EvReady      EventKind = "ready"
	EvNotReady   EventKind = "not_ready" // a ready rule's condition kept a unit from its marker
	EvRemoved    EventKind = "removed"
	EvAdded      EventKind = "added" // a unit joins the battle (AddUnit)
	EvActivate   EventKind = "activate"
	EvPass       EventKind = "pass"
	EvFirst      EventKind = "first" // a rule put a side first in the phase under way (`first =`)
	// EvDraw is a card drawn from a deck or a token from a bag, for an
	// order: Face is the card, From the deck, Value the card's value.
	EvDraw EventKind = "draw"
	// EvReshuffle is a deck or bag made whole again: From is the deck,
	// Subject the side whose deck it is (for a deck per side), Value how
	// many cards it holds, Detail why ("each round", "when empty", "rule").
	EvReshuffle EventKind = "reshuffle"
)

// EventKinds returns every kind of event, in the order of the constants.
func EventKinds() []EventKind { return slices.Clone(eventKinds) }

var eventKinds = []EventKind{EvRoundStart, EvRoundEnd, EvHook, EvRoll, EvTie, EvReroll, EvAward, EvRandom,
	EvDecision, EvPlacement, EvKept, EvHolder, EvSet, EvReady, EvNotReady, EvRemoved, EvAdded, EvActivate, EvPass, EvFirst, EvDraw, EvReshuffle}

// Event is one entry of a battle's transcript. Pos is the rule that caused
// it, so that "why does Rob choose?" can be answered from the events.
type Event struct {
	Kind     EventKind `json:"kind"`
	Round    int       `json:"round"`
	Standing string    `json:"standing,omitempty"`
	Subject  string    `json:"subject,omitempty"`
	Subjects []string  `json:"subjects,omitempty"`
	Value    *int      `json:"value,omitempty"`
	Total    *int      `json:"total,omitempty"`
	// Key is a placement's value: the number its criterion placed the
	// subject by (Place.Value), absent when it placed it by none. It is
	// not named value, which is a roll's natural total.
	Key    *float64 `json:"key,omitempty"`
	Place  int      `json:"place,omitempty"`
	By     string   `json:"by,omitempty"`
	Choice []string `json:"choice,omitempty"`
	Rule   string   `json:"rule,omitempty"` // the criterion or rule, as written
	Pos    string   `json:"pos,omitempty"`  // file:line:col of the rule
	Detail string   `json:"detail,omitempty"`
	// Face is the face rolled on a declared die (a roll) or the card
	// drawn (a draw); From is that die, or the deck or bag drawn from
	// ("Jay's cards" for a side's own deck).
	Face string `json:"face,omitempty"`
	From string `json:"from,omitempty"`
	// Phase and Step name the phase (and step) of the activation loop an
	// activation, a pass, its decision or its draw was played in, and the
	// phase a `first =` holds for; "" in the ruleset's own loop.
	Phase string `json:"phase,omitempty"`
	Step  string `json:"step,omitempty"`
}

// in says where an event of an activation loop happened, for the
// transcript: " in Shooting", " in Shooting/Fire", or "" in the ruleset's
// own loop.
func (e Event) in() string {
	switch {
	case e.Phase == "":
		return ""
	case e.Step != "":
		return " in " + e.Phase + "/" + e.Step
	}
	return " in " + e.Phase
}

func posString(p dsl.Pos) string {
	if p.Line == 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// intp returns a pointer to v for an event. The ints are carved from a
// slab that is never reused, so each pointer stays the event's alone,
// at one allocation per slab rather than one per number.
func (b *Battle) intp(v int) *int {
	if len(b.intSlab) == cap(b.intSlab) {
		b.intSlab = make([]int, 0, 32)
	}
	b.intSlab = append(b.intSlab, v)
	return &b.intSlab[len(b.intSlab)-1]
}

// floatp is intp for a placement's value.
func (b *Battle) floatp(v float64) *float64 {
	if len(b.floatSlab) == cap(b.floatSlab) {
		b.floatSlab = make([]float64, 0, 32)
	}
	b.floatSlab = append(b.floatSlab, v)
	return &b.floatSlab[len(b.floatSlab)-1]
}

// number writes a value as the transcript shows it: a whole one without
// decimals (6, not 6.0), another in as few digits as tell it apart (2.5).
func number(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// String renders the event as a line of a readable transcript.
func (e Event) String() string {
	switch e.Kind {
	case EvRoundStart:
		return fmt.Sprintf("round %d begins", e.Round)
	case EvRoundEnd:
		return fmt.Sprintf("round %d ends", e.Round)
	case EvHook:
		return e.Detail
	case EvRoll:
		s := fmt.Sprintf("%s rolls %d", e.Subject, *e.Value)
		if e.Face != "" && e.Face != strconv.Itoa(*e.Value) {
			// The face, its value and the total: "crown (2, total 4)".
			s = fmt.Sprintf("%s rolls %s (%d", e.Subject, e.Face, *e.Value)
			if e.Total != nil && *e.Total != *e.Value {
				s += fmt.Sprintf(", total %d", *e.Total)
			}
			return s + ") for " + e.Standing
		}
		if e.Total != nil && *e.Total != *e.Value {
			s += fmt.Sprintf(" (total %d)", *e.Total)
		}
		return s + " for " + e.Standing
	case EvTie:
		if e.Detail != "" { // nothing in the chain broke it
			return fmt.Sprintf("%s are still tied at %s: they keep their setup order", wording.AndList(e.Subjects), e.Rule)
		}
		return fmt.Sprintf("tie between %s on %s", wording.AndList(e.Subjects), e.Rule)
	case EvReroll:
		if e.Detail == "draw" {
			return fmt.Sprintf("%s draw again (%s)", wording.AndList(e.Subjects), e.Rule)
		}
		return fmt.Sprintf("%s roll again (%s)", wording.AndList(e.Subjects), e.Rule)
	case EvDraw:
		s := fmt.Sprintf("%s draws %s from %s", e.Subject, e.Face, e.From)
		if e.Value != nil && e.Face != strconv.Itoa(*e.Value) {
			s = fmt.Sprintf("%s draws %s (%d) from %s", e.Subject, e.Face, *e.Value, e.From)
		}
		return s + " for " + e.Standing
	case EvReshuffle:
		deck := e.From
		if e.Subject != "" {
			deck = wording.Possessive(e.Subject) + " " + e.From
		}
		what := "reshuffled"
		switch e.Detail {
		case "each round":
			what = "reshuffled for the new round"
		case "when empty":
			what = "empty: it is reshuffled"
		}
		held := "cards"
		if strings.HasPrefix(e.Rule, string(dsl.KindBag)+" ") {
			held = "tokens"
		}
		return fmt.Sprintf("%s is %s (%d %s)", deck, what, *e.Value, held)
	case EvAward:
		// What the award did, then the rule, as a placement and a reroll
		// say theirs.
		return fmt.Sprintf("%s (%s)", e.Detail, e.Rule)
	case EvRandom:
		if e.Rule == "activation draw" {
			return fmt.Sprintf("a die of %s is drawn from the bag (which held %s)", wording.Possessive(e.Subject), bagCounts(e.Subjects))
		}
		return fmt.Sprintf("random pick: %s", e.Subject)
	case EvDecision:
		switch DecisionKind(e.Detail) {
		case ChooseYesNo, ChooseNumber, ChooseOption:
			return fmt.Sprintf("%s decides %s: %s", e.By, e.Subject, strings.Join(e.Choice, ", "))
		case ChooseFirst:
			if len(e.Choice) == 1 && e.Choice[0] == e.By {
				return fmt.Sprintf("%s chooses to go first", e.By)
			}
			return fmt.Sprintf("%s chooses %s to go first", e.By, strings.Join(e.Choice, ", "))
		case ChooseBeforeAfter:
			// Who goes before or after whom (the others of the group), as
			// "Jay chooses to go first" and "Jay chooses Rob to go first"
			// say it: "Jay chooses to go before Rob" where the one who goes
			// is the one who chose (a side among sides), "C chooses Cole to
			// go before Bran" where a side chooses for its unit (Subject).
			// An event saved before it named the unit has no Subject: where
			// the one who chose is not in the group, it cannot say whom.
			self := e.Subject
			if self == "" && slices.Contains(e.Subjects, e.By) {
				self = e.By
			}
			others := slices.DeleteFunc(slices.Clone(e.Subjects), func(s string) bool { return s == self })
			switch {
			case self == "" || len(others) == 0 || len(others) == len(e.Subjects):
				return fmt.Sprintf("%s chooses to go %s", e.By, strings.Join(e.Choice, ", "))
			case self == e.By:
				return fmt.Sprintf("%s chooses to go %s %s", e.By, strings.Join(e.Choice, ", "), wording.AndList(others))
			}
			return fmt.Sprintf("%s chooses %s to go %s %s", e.By, self, strings.Join(e.Choice, ", "), wording.AndList(others))
		case ChooseOrder:
			return fmt.Sprintf("%s arranges the order %s", e.By, strings.Join(e.Choice, ", "))
		}
		return fmt.Sprintf("%s chooses %s", e.By, strings.Join(e.Choice, ", "))
	case EvPlacement:
		if e.By != "" {
			return fmt.Sprintf("%s #%d: %s, by %s choice (%s)", e.Standing, e.Place, e.Subject, wording.Possessive(e.By), e.Rule)
		}
		if e.Key != nil {
			return fmt.Sprintf("%s #%d: %s, by %s = %s", e.Standing, e.Place, e.Subject, e.Rule, number(*e.Key))
		}
		return fmt.Sprintf("%s #%d: %s, by %s", e.Standing, e.Place, e.Subject, e.Rule)
	case EvKept:
		return fmt.Sprintf("%s keep their places: %s", wording.AndList(e.Subjects), e.Detail)
	case EvHolder:
		return fmt.Sprintf("%s holds priority (%s)", e.Subject, e.Detail)
	case EvSet:
		return e.Detail
	case EvReady:
		return fmt.Sprintf("%s is Ready", e.Subject)
	case EvNotReady:
		return fmt.Sprintf("%s gets no Ready marker (%s)", e.Subject, e.Detail)
	case EvRemoved:
		return fmt.Sprintf("%s is removed from the battle", e.Subject)
	case EvAdded:
		return fmt.Sprintf("%s joins the battle for %s", e.Subject, e.By)
	case EvActivate:
		if e.Detail != "" {
			return fmt.Sprintf("%s activates %s%s (%s)", e.By, e.Subject, e.in(), e.Detail)
		}
		return fmt.Sprintf("%s activates %s%s", e.By, e.Subject, e.in())
	case EvPass:
		return fmt.Sprintf("%s passes%s (%s)", e.By, e.in(), e.Detail)
	case EvFirst:
		return fmt.Sprintf("%s goes first in %s (%s)", e.Subject, e.Phase, e.Detail)
	}
	return string(e.Kind)
}

// bagCounts says how many dice of each colour a bag held: "Jay 3, Rob 2".
func bagCounts(options []string) string {
	sides, dice := bag(options)
	parts := make([]string, len(sides))
	for i, side := range sides {
		parts[i] = fmt.Sprintf("%s %d", side, dice[i])
	}
	return strings.Join(parts, ", ")
}
