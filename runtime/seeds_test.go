package runtime_test

// Tests that play the worked examples of the four source texts
// (/work/shared/seeds/000-003) with scripted dice and scripted decisions,
// and check the order, the holder, the chooser and the events that explain
// them.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// ---------------------------------------------------------------------------
// Helpers shared by the runtime_test files.

// roll is one scripted natural total: "Jay rolls 4".
type roll struct {
	who string
	v   int
}

// answer is one scripted decision: "Jay chooses Jay".
type answer struct {
	who string
	ans []string
}

// placement is what a placement event says about one place.
type placement struct {
	Place   int
	Subject string
	Rule    string
	Pos     string
}

// why is the explanation an event carries: its rule and where it is written.
type why struct {
	Kind    runtime.EventKind
	Subject string
	Rule    string
	Pos     string
}

// briefEvents renders the events that matter to an order as short strings
// ("roll Jay=4", "tie Jay/Rob", "decision Jay:Jay"), leaving out the noise of
// round boundaries, Ready markers and activations.
func briefEvents(evs []runtime.Event) []string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case runtime.EvRoundStart, runtime.EvRoundEnd, runtime.EvReady, runtime.EvNotReady, runtime.EvActivate, runtime.EvPass:
			continue
		case runtime.EvRoll:
			out = append(out, fmt.Sprintf("roll %s=%d", e.Subject, *e.Value))
		case runtime.EvTie, runtime.EvReroll, runtime.EvKept:
			out = append(out, fmt.Sprintf("%s %s", e.Kind, strings.Join(e.Subjects, "/")))
		case runtime.EvDecision:
			if e.Detail == string(runtime.ChooseActivation) {
				continue // which unit to activate: activation noise
			}
			out = append(out, fmt.Sprintf("decision %s:%s", e.By, strings.Join(e.Choice, "/")))
		case runtime.EvHook:
			out = append(out, "hook "+e.Detail)
		default:
			out = append(out, fmt.Sprintf("%s %s", e.Kind, e.Subject))
		}
	}
	return out
}

func placementsOf(evs []runtime.Event) []placement {
	var out []placement
	for _, e := range evs {
		if e.Kind == runtime.EvPlacement {
			rule := e.Rule
			if e.By != "" {
				rule += " (" + e.By + " chose)"
			}
			out = append(out, placement{Place: e.Place, Subject: e.Subject, Rule: rule, Pos: e.Pos})
		}
	}
	return out
}

func whyOf(evs []runtime.Event, kinds ...runtime.EventKind) []why {
	var out []why
	for _, e := range evs {
		if e.Kind == runtime.EvDecision && e.Detail == string(runtime.ChooseActivation) {
			continue
		}
		for _, k := range kinds {
			if e.Kind == k {
				out = append(out, why{Kind: e.Kind, Subject: e.Subject, Rule: e.Rule, Pos: e.Pos})
			}
		}
	}
	return out
}

// rulePos returns "rulesets/NAME.rules:L:C" for the nth (from 0) rule line
// of a bundled ruleset that contains needle, C being where needle starts.
// Quotes and comments are skipped. Positions are computed from the file so
// that an added comment line does not break every test.
func rulePos(t testing.TB, ruleset, needle string, nth int) string {
	t.Helper()
	source, err := rulesets.Read(ruleset)
	if err != nil {
		t.Fatal(err)
	}
	filename, src := source.Filename, source.Text
	n := 0
	for i, line := range strings.Split(string(src), "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "quote ") || strings.HasPrefix(trim, "#") {
			continue
		}
		c := strings.Index(line, needle)
		if c < 0 {
			continue
		}
		if n == nth {
			return fmt.Sprintf("%s:%d:%d", filename, i+1, c+1)
		}
		n++
	}
	t.Fatalf("%s.rules has no rule line #%d containing %q", ruleset, nth, needle)
	return ""
}

// recordingDice passes every request on to Dice and remembers it.
type recordingDice struct {
	Dice  runtime.Dice
	mu    sync.Mutex
	rolls []runtime.RollRequest
	picks []runtime.PickRequest
}

func (d *recordingDice) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	d.mu.Lock()
	d.rolls = append(d.rolls, req)
	d.mu.Unlock()
	return d.Dice.Roll(ctx, req)
}

func (d *recordingDice) Pick(ctx context.Context, req runtime.PickRequest) (int, error) {
	d.mu.Lock()
	d.picks = append(d.picks, req)
	d.mu.Unlock()
	return d.Dice.Pick(ctx, req)
}

// activationPolicy answers activation decisions with the ruleset's default
// and fails every other decision, so that a test proves no priority
// decision was asked.
var activationPolicy = runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
	if d.Kind == runtime.ChooseActivation {
		return d.Default, nil
	}
	return nil, fmt.Errorf("unexpected decision: %s", d)
})

// scriptedRound is one round of a worked example.
type scriptedRound struct {
	rolls   []roll
	picks   []string
	answers []answer

	order      []string
	holder     string
	chooser    string
	events     []string    // briefEvents of the round
	placements []placement // nil: not checked
	why        []why       // whyOf(events, award, reroll, random, tie); nil: not checked
}

// playScripted plays rounds with scripted dice and decisions (dec may add
// a fallback for activations) and checks each round.
func playScripted(t *testing.T, p *runtime.Program, sides []runtime.SideSpec, dec runtime.Decider, rounds []scriptedRound) *runtime.Battle {
	t.Helper()
	dice := runtime.NewScriptedDice()
	decider := runtime.NewScriptedDecider()
	decider.Fallback = dec
	b, err := p.NewBattle(sides, runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, r := range rounds {
		for _, x := range r.rolls {
			dice.AddRoll(x.who, x.v)
		}
		for _, x := range r.picks {
			dice.AddPick(x)
		}
		for _, x := range r.answers {
			decider.Add(x.who, x.ans...)
		}
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatalf("round %d: %v", i+1, err)
		}
		if res.Round != i+1 {
			t.Errorf("round %d: result says round %d", i+1, res.Round)
		}
		if diff := cmp.Diff(r.order, res.Order); diff != "" {
			t.Errorf("round %d: order (-want +got):\n%s", i+1, diff)
		}
		if diff := cmp.Diff(r.holder, res.Holder); diff != "" {
			t.Errorf("round %d: holder (-want +got):\n%s", i+1, diff)
		}
		if diff := cmp.Diff(r.chooser, res.Chooser); diff != "" {
			t.Errorf("round %d: chooser (-want +got):\n%s", i+1, diff)
		}
		if diff := cmp.Diff(r.events, briefEvents(res.Events)); diff != "" {
			t.Errorf("round %d: events (-want +got):\n%s", i+1, diff)
		}
		if r.placements != nil {
			if diff := cmp.Diff(r.placements, placementsOf(res.Events)); diff != "" {
				t.Errorf("round %d: placements (-want +got):\n%s", i+1, diff)
			}
		}
		if r.why != nil {
			got := whyOf(res.Events, runtime.EvTie, runtime.EvReroll, runtime.EvAward, runtime.EvRandom, runtime.EvDecision)
			if diff := cmp.Diff(r.why, got); diff != "" {
				t.Errorf("round %d: rules of ties, rerolls, awards and decisions (-want +got):\n%s", i+1, diff)
			}
		}
		// The battle's accessors agree with the result.
		if diff := cmp.Diff(res.Order, b.Order()); diff != "" {
			t.Errorf("round %d: b.Order() differs from the result (-result +b.Order):\n%s", i+1, diff)
		}
		if b.Holder() != res.Holder || b.Chooser() != res.Chooser {
			t.Errorf("round %d: b.Holder()/b.Chooser() = %q/%q, result %q/%q", i+1, b.Holder(), b.Chooser(), res.Holder, res.Chooser)
		}
	}
	if u := dice.Unused(); len(u) > 0 {
		t.Errorf("scripted dice never used: %v", u)
	}
	if u := decider.Unused(); len(u) > 0 {
		t.Errorf("scripted decisions never used: %v", u)
	}
	return b
}

// ---------------------------------------------------------------------------
// 000: Middle-earth SBG, Priority Phase.

func TestSeed000MESBG(t *testing.T) {
	p := mustProgram(t, "mesbg")
	const file = "mesbg"
	rollPos := rulePos(t, file, "highest roll d6", 0)
	rerollPos := rulePos(t, file, "reroll", 0)
	awardPos := rulePos(t, file, "award not previous.chooser", 0)
	choicePos := rulePos(t, file, "choice first by winner", 0)
	chose := func(who string) string { return "choice first by winner (" + who + " chose)" }

	tests := []struct {
		name   string
		rounds []scriptedRound
	}{
		{
			name: "Jay and Rob: Jay wins and takes priority, then a tie gives Rob the choice",
			rounds: []scriptedRound{
				{
					rolls:   []roll{{"Jay", 4}, {"Rob", 2}},
					answers: []answer{{"Jay", []string{"Jay"}}},
					order:   []string{"Jay", "Rob"}, holder: "Jay", chooser: "Jay",
					events: []string{
						"hook hook start",
						"roll Jay=4", "roll Rob=2",
						"decision Jay:Jay",
						"placement Jay", "placement Rob",
						"hook hook end",
					},
					placements: []placement{
						{1, "Jay", chose("Jay"), choicePos},
						{2, "Rob", chose("Jay"), choicePos},
					},
					why: []why{{runtime.EvDecision, "", "choice first by winner", choicePos}},
				},
				{
					// "both Jay and Rob roll a 3 - a tie. As Jay made the choice of
					// who had Priority in the previous turn, the choice of who has
					// Priority in this turn will go to Rob."
					rolls:   []roll{{"Jay", 3}, {"Rob", 3}},
					answers: []answer{{"Rob", []string{"Rob"}}},
					order:   []string{"Rob", "Jay"}, holder: "Rob", chooser: "Rob",
					events: []string{
						"hook hook start",
						"roll Jay=3", "roll Rob=3",
						"tie Jay/Rob",
						"award Rob",
						"decision Rob:Rob",
						"placement Rob", "placement Jay",
						"hook hook end",
					},
					placements: []placement{
						{1, "Rob", chose("Rob"), choicePos},
						{2, "Jay", chose("Rob"), choicePos},
					},
					why: []why{
						{runtime.EvTie, "", "highest roll d6", rollPos},
						{runtime.EvAward, "Rob", "award not previous.chooser", awardPos},
						{runtime.EvDecision, "", "choice first by winner", choicePos},
					},
				},
			},
		},
		{
			name: "Jay and Rob: on the tie Rob chooses to give priority to Jay",
			rounds: []scriptedRound{
				{
					rolls:   []roll{{"Jay", 4}, {"Rob", 2}},
					answers: []answer{{"Jay", []string{"Jay"}}},
					order:   []string{"Jay", "Rob"}, holder: "Jay", chooser: "Jay",
					events: []string{
						"hook hook start", "roll Jay=4", "roll Rob=2", "decision Jay:Jay",
						"placement Jay", "placement Rob", "hook hook end",
					},
				},
				{
					rolls:   []roll{{"Jay", 3}, {"Rob", 3}},
					answers: []answer{{"Rob", []string{"Jay"}}},
					order:   []string{"Jay", "Rob"}, holder: "Jay", chooser: "Rob",
					events: []string{
						"hook hook start", "roll Jay=3", "roll Rob=3", "tie Jay/Rob", "award Rob",
						"decision Rob:Jay", "placement Jay", "placement Rob", "hook hook end",
					},
				},
				{
					// Rob chose last turn, so a tie now goes to Jay.
					rolls:   []roll{{"Jay", 6}, {"Rob", 6}},
					answers: []answer{{"Jay", []string{"Rob"}}},
					order:   []string{"Rob", "Jay"}, holder: "Rob", chooser: "Jay",
					events: []string{
						"hook hook start", "roll Jay=6", "roll Rob=6", "tie Jay/Rob", "award Jay",
						"decision Jay:Rob", "placement Rob", "placement Jay", "hook hook end",
					},
				},
			},
		},
		{
			name: "a tie in the first turn is rerolled",
			rounds: []scriptedRound{
				{
					rolls:   []roll{{"Jay", 3}, {"Rob", 3}, {"Jay", 5}, {"Rob", 2}},
					answers: []answer{{"Jay", []string{"Rob"}}},
					order:   []string{"Rob", "Jay"}, holder: "Rob", chooser: "Jay",
					events: []string{
						"hook hook start",
						"roll Jay=3", "roll Rob=3",
						"tie Jay/Rob",
						"reroll Jay/Rob",
						"roll Jay=5", "roll Rob=2",
						"decision Jay:Rob",
						"placement Rob", "placement Jay",
						"hook hook end",
					},
					why: []why{
						{runtime.EvTie, "", "highest roll d6", rollPos},
						{runtime.EvReroll, "", "highest roll d6", rerollPos},
						{runtime.EvDecision, "", "choice first by winner", choicePos},
					},
				},
			},
		},
		{
			name: "a first-turn tie is rerolled as often as it takes",
			rounds: []scriptedRound{
				{
					rolls:   []roll{{"Jay", 1}, {"Rob", 1}, {"Jay", 6}, {"Rob", 6}, {"Jay", 2}, {"Rob", 4}},
					answers: []answer{{"Rob", []string{"Rob"}}},
					order:   []string{"Rob", "Jay"}, holder: "Rob", chooser: "Rob",
					events: []string{
						"hook hook start",
						"roll Jay=1", "roll Rob=1", "tie Jay/Rob", "reroll Jay/Rob",
						"roll Jay=6", "roll Rob=6", "tie Jay/Rob", "reroll Jay/Rob",
						"roll Jay=2", "roll Rob=4",
						"decision Rob:Rob",
						"placement Rob", "placement Jay",
						"hook hook end",
					},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			playScripted(t, p, runtime.Sides("Jay", "Rob"), nil, tt.rounds)
		})
	}
}

// The decision asked of the roll-off's winner names him, offers both
// sides, and declares the ruleset's default (self).
func TestSeed000DecisionAsked(t *testing.T) {
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	var asked []runtime.Decision
	dec := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
		asked = append(asked, d)
		return d.Default, nil
	})
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(dec))
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	type decision struct {
		Kind     runtime.DecisionKind
		By       string
		Options  []string
		Default  []string
		Round    int
		Standing string
		Line     int
	}
	var got []decision
	for _, d := range asked {
		got = append(got, decision{d.Kind, d.By, d.Options, d.Default, d.Round, d.Standing, d.Pos.Line})
	}
	pos := rulePos(t, "mesbg", "choice first by winner", 0)
	var line int
	fmt.Sscanf(pos[strings.Index(pos, ":")+1:], "%d", &line)
	want := []decision{{runtime.ChooseFirst, "Jay", []string{"Jay", "Rob"}, []string{"Jay"}, 1, "priority", line}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decisions asked (-want +got):\n%s", diff)
	}
	if res.Holder != "Jay" || res.Chooser != "Jay" {
		t.Errorf("holder/chooser = %s/%s, want Jay/Jay", res.Holder, res.Chooser)
	}
}

// A scripted run that reaches an unscripted decision fails and names it.
func TestSeed000UnscriptedDecision(t *testing.T) {
	p := mustProgram(t, "mesbg")
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 2)
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice), runtime.WithDecider(runtime.NewScriptedDecider()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.PlayRound(context.Background())
	if err == nil {
		t.Fatal("PlayRound succeeded; want an error naming the unscripted decision")
	}
	for _, want := range []string{"unscripted decision", "Jay chooses"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// ---------------------------------------------------------------------------
// 001: Necromunda (2023), Priority Phase.

func TestSeed001NecromundaTwoPlayers(t *testing.T) {
	p := mustProgram(t, "necromunda")
	rollPos := rulePos(t, "necromunda", "highest roll d6", 0)
	rerollPos := rulePos(t, "necromunda", "reroll", 0)
	awardPos := rulePos(t, "necromunda", "award not previous.holder", 0)
	byRoll := func(place int, who string) placement { return placement{place, who, "highest roll d6", rollPos} }
	byAward := func(place int, who string) placement {
		return placement{place, who, "award not previous.holder", awardPos}
	}

	rounds := []scriptedRound{
		{
			// "If the first Priority roll of the battle is tied ... both
			// players roll again."
			rolls: []roll{{"Goliaths", 4}, {"Eschers", 4}, {"Goliaths", 6}, {"Eschers", 1}},
			order: []string{"Goliaths", "Eschers"}, holder: "Goliaths", chooser: "",
			events: []string{
				"roll Goliaths=4", "roll Eschers=4", "tie Goliaths/Eschers",
				"reroll Goliaths/Eschers", "roll Goliaths=6", "roll Eschers=1",
				"placement Goliaths", "placement Eschers",
			},
			placements: []placement{byRoll(1, "Goliaths"), byRoll(2, "Eschers")},
			why: []why{
				{runtime.EvTie, "", "highest roll d6", rollPos},
				{runtime.EvReroll, "", "highest roll d6", rerollPos},
			},
		},
		{
			// "In the case of a tie, the player who had Priority in the
			// previous round passes it to their opponent."
			rolls: []roll{{"Goliaths", 3}, {"Eschers", 3}},
			order: []string{"Eschers", "Goliaths"}, holder: "Eschers",
			events: []string{
				"roll Goliaths=3", "roll Eschers=3", "tie Goliaths/Eschers", "award Eschers",
				"placement Eschers", "placement Goliaths",
			},
			placements: []placement{byAward(1, "Eschers"), byAward(2, "Goliaths")},
			why: []why{
				{runtime.EvTie, "", "highest roll d6", rollPos},
				{runtime.EvAward, "Eschers", "award not previous.holder", awardPos},
			},
		},
		{
			// A higher roll simply takes priority.
			rolls: []roll{{"Goliaths", 5}, {"Eschers", 2}},
			order: []string{"Goliaths", "Eschers"}, holder: "Goliaths",
			events: []string{
				"roll Goliaths=5", "roll Eschers=2", "placement Goliaths", "placement Eschers",
			},
			placements: []placement{byRoll(1, "Goliaths"), byRoll(2, "Eschers")},
		},
		{
			// Goliaths held priority, so on a tie they pass it on.
			rolls: []roll{{"Goliaths", 6}, {"Eschers", 6}},
			order: []string{"Eschers", "Goliaths"}, holder: "Eschers",
			events: []string{
				"roll Goliaths=6", "roll Eschers=6", "tie Goliaths/Eschers", "award Eschers",
				"placement Eschers", "placement Goliaths",
			},
		},
		{
			// And now the Eschers pass it back.
			rolls: []roll{{"Goliaths", 1}, {"Eschers", 1}},
			order: []string{"Goliaths", "Eschers"}, holder: "Goliaths",
			events: []string{
				"roll Goliaths=1", "roll Eschers=1", "tie Goliaths/Eschers", "award Goliaths",
				"placement Goliaths", "placement Eschers",
			},
		},
	}
	// Sides without models: no activation decisions, so a scripted decider
	// with no answers proves no priority decision is asked.
	playScripted(t, p, runtime.Sides("Goliaths", "Eschers"), nil, rounds)
}

// With gangs on the table the rounds also ready and activate fighters; the
// priority standing decides who activates first.
func TestSeed001NecromundaActivationFollowsPriority(t *testing.T) {
	p := mustProgram(t, "necromunda")
	sides := []runtime.SideSpec{
		{Name: "Goliaths", Units: []runtime.UnitSpec{{Name: "Krug"}, {Name: "Grath", Statuses: []string{"seriously_injured"}}}},
		{Name: "Eschers", Units: []runtime.UnitSpec{{Name: "Mira"}, {Name: "Sable"}}},
	}
	b := playScripted(t, p, sides, activationPolicy, []scriptedRound{{
		rolls: []roll{{"Goliaths", 2}, {"Eschers", 5}},
		order: []string{"Eschers", "Goliaths"}, holder: "Eschers",
		events: []string{
			"roll Goliaths=2", "roll Eschers=5", "placement Eschers", "placement Goliaths",
		},
	}})
	want := []runtime.ActivationRecord{
		{Side: "Eschers", Unit: "Mira"},
		{Side: "Goliaths", Unit: "Krug"},
		{Side: "Eschers", Unit: "Sable"},
		// Grath is seriously injured: no Ready marker, and with no unit
		// left Ready the round is over (no pass is recorded).
	}
	if diff := cmp.Diff(want, b.Activations()); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}
}

func TestSeed001NecromundaMultiPlayer(t *testing.T) {
	p := mustProgram(t, "necromunda")
	rollPos := rulePos(t, "necromunda", "highest roll d6", 0)
	// "tie: reroll" is the third rule line containing "reroll".
	rerollPos := rulePos(t, "necromunda", "reroll", 1)
	gangs := []string{"Goliaths", "Eschers", "Orlocks", "Van Saar"}

	type req struct {
		Subjects []string
		Attempt  int
	}
	tests := []struct {
		name       string
		rolls      []roll
		order      []string
		events     []string
		requests   []req
		placements []placement
		why        []why
	}{
		{
			// "four players roll for Priority and score a 5, 4, 4 and 2, the
			// player that rolled 5 has Priority, the player that rolled 2 goes
			// last and the players that each rolled a 4 roll off again"
			name: "5, 4, 4, 2: only the two 4s roll again",
			rolls: []roll{{"Goliaths", 5}, {"Eschers", 4}, {"Orlocks", 4}, {"Van Saar", 2},
				{"Eschers", 3}, {"Orlocks", 6}},
			order: []string{"Goliaths", "Orlocks", "Eschers", "Van Saar"},
			events: []string{
				"roll Goliaths=5", "roll Eschers=4", "roll Orlocks=4", "roll Van Saar=2",
				"tie Eschers/Orlocks", "reroll Eschers/Orlocks",
				"roll Eschers=3", "roll Orlocks=6",
				"placement Goliaths", "placement Orlocks", "placement Eschers", "placement Van Saar",
			},
			requests: []req{{gangs, 0}, {[]string{"Eschers", "Orlocks"}, 1}},
			placements: []placement{
				{1, "Goliaths", "highest roll d6", rollPos},
				{2, "Orlocks", "highest roll d6", rollPos},
				{3, "Eschers", "highest roll d6", rollPos},
				{4, "Van Saar", "highest roll d6", rollPos},
			},
			why: []why{
				{runtime.EvTie, "", "highest roll d6", rollPos},
				{runtime.EvReroll, "", "highest roll d6", rerollPos},
			},
		},
		{
			name: "two ties at once: each pair rolls again on its own",
			rolls: []roll{{"Goliaths", 6}, {"Eschers", 6}, {"Orlocks", 1}, {"Van Saar", 1},
				{"Goliaths", 2}, {"Eschers", 5}, {"Orlocks", 4}, {"Van Saar", 3}},
			order: []string{"Eschers", "Goliaths", "Orlocks", "Van Saar"},
			events: []string{
				"roll Goliaths=6", "roll Eschers=6", "roll Orlocks=1", "roll Van Saar=1",
				"tie Goliaths/Eschers", "tie Orlocks/Van Saar",
				"reroll Goliaths/Eschers", "roll Goliaths=2", "roll Eschers=5",
				"reroll Orlocks/Van Saar", "roll Orlocks=4", "roll Van Saar=3",
				"placement Eschers", "placement Goliaths", "placement Orlocks", "placement Van Saar",
			},
			requests: []req{{gangs, 0}, {[]string{"Goliaths", "Eschers"}, 1}, {[]string{"Orlocks", "Van Saar"}, 1}},
		},
		{
			name: "a three-way tie that stays partly tied: only the still-tied roll a third time",
			rolls: []roll{{"Goliaths", 3}, {"Eschers", 3}, {"Orlocks", 3}, {"Van Saar", 6},
				{"Goliaths", 4}, {"Eschers", 4}, {"Orlocks", 1},
				{"Goliaths", 2}, {"Eschers", 5}},
			order: []string{"Van Saar", "Eschers", "Goliaths", "Orlocks"},
			events: []string{
				"roll Goliaths=3", "roll Eschers=3", "roll Orlocks=3", "roll Van Saar=6",
				"tie Goliaths/Eschers/Orlocks", "reroll Goliaths/Eschers/Orlocks",
				"roll Goliaths=4", "roll Eschers=4", "roll Orlocks=1",
				"tie Goliaths/Eschers", "reroll Goliaths/Eschers",
				"roll Goliaths=2", "roll Eschers=5",
				"placement Van Saar", "placement Eschers", "placement Goliaths", "placement Orlocks",
			},
			requests: []req{{gangs, 0}, {[]string{"Goliaths", "Eschers", "Orlocks"}, 1}, {[]string{"Goliaths", "Eschers"}, 2}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := runtime.NewScriptedDice()
			for _, r := range tt.rolls {
				script.AddRoll(r.who, r.v)
			}
			dice := &recordingDice{Dice: script}
			b, err := p.NewBattle(runtime.Sides(gangs...), runtime.WithDice(dice), runtime.WithDecider(runtime.NewScriptedDecider()))
			if err != nil {
				t.Fatal(err)
			}
			res, err := b.PlayRound(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.order, res.Order); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.order[0], res.Holder); diff != "" {
				t.Errorf("holder (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff("", res.Chooser); diff != "" {
				t.Errorf("chooser (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.events, briefEvents(res.Events)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			var got []req
			for _, r := range dice.rolls {
				got = append(got, req{r.Subjects, r.Attempt})
				if r.Count != 1 || r.Faces != 6 || r.Round != 1 || r.Standing != "priority" {
					t.Errorf("roll request %+v: want 1d6 in round 1 for priority", r)
				}
			}
			if diff := cmp.Diff(tt.requests, got); diff != "" {
				t.Errorf("roll requests (-want +got):\n%s", diff)
			}
			if tt.placements != nil {
				if diff := cmp.Diff(tt.placements, placementsOf(res.Events)); diff != "" {
					t.Errorf("placements (-want +got):\n%s", diff)
				}
			}
			if tt.why != nil {
				got := whyOf(res.Events, runtime.EvTie, runtime.EvReroll, runtime.EvAward)
				if diff := cmp.Diff(tt.why, got); diff != "" {
					t.Errorf("ties and rerolls (-want +got):\n%s", diff)
				}
			}
			if u := script.Unused(); len(u) > 0 {
				t.Errorf("scripted rolls never used: %v", u)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// 002: Turn order card, AGI ties. Subjects are units; dice are rolled by
// units, a before/after choice is made by the winning unit's side and an
// arrangement of teammates by their team.

// agiSide is a side with one unit "<side>-unit".
func agiSide(name, team string, agi int) runtime.SideSpec {
	return runtime.SideSpec{Name: name, Team: team, Units: []runtime.UnitSpec{
		{Name: name + "-unit", Attrs: map[string]any{"agi": agi}},
	}}
}

func TestSeed002ThreeWayTie(t *testing.T) {
	p := mustProgram(t, "agi")
	// The third tie rule's roll (the second "highest roll d6" in the file).
	rollPos := rulePos(t, "agi", "highest roll d6", 1)
	agiPos := rulePos(t, "agi", "highest agi", 0)
	tests := []struct {
		name       string
		sides      []runtime.SideSpec
		rolls      []roll
		order      []string
		events     []string
		placements []placement
	}{
		{
			// "player ABC all roll. A gets 1, B gets 2, and C gets 3. Player
			// C will place 1st, player B will place 2nd and player A will
			// place last."
			name:  "A, B and C roll 1, 2, 3",
			sides: []runtime.SideSpec{agiSide("A", "Red", 4), agiSide("B", "Blue", 4), agiSide("C", "Green", 4)},
			rolls: []roll{{"A-unit", 1}, {"B-unit", 2}, {"C-unit", 3}},
			order: []string{"C-unit", "B-unit", "A-unit"},
			events: []string{
				"tie A-unit/B-unit/C-unit", "roll A-unit=1", "roll B-unit=2", "roll C-unit=3",
				"placement C-unit", "placement B-unit", "placement A-unit",
			},
			placements: []placement{
				{1, "C-unit", "highest roll d6", rollPos},
				{2, "B-unit", "highest roll d6", rollPos},
				{3, "A-unit", "highest roll d6", rollPos},
			},
		},
		{
			// "By 1st,2nd,3rd, we are referring to the winners of the die
			// roll, not the turn order card itself, since other players may
			// have more AGI."
			name: "a faster player keeps the top of the card",
			sides: []runtime.SideSpec{agiSide("A", "Red", 4), agiSide("B", "Blue", 4), agiSide("C", "Green", 4),
				agiSide("D", "Gold", 9)},
			rolls: []roll{{"A-unit", 1}, {"B-unit", 2}, {"C-unit", 3}},
			order: []string{"D-unit", "C-unit", "B-unit", "A-unit"},
			events: []string{
				"tie A-unit/B-unit/C-unit", "roll A-unit=1", "roll B-unit=2", "roll C-unit=3",
				"placement D-unit", "placement C-unit", "placement B-unit", "placement A-unit",
			},
			placements: []placement{
				{1, "D-unit", "highest agi", agiPos},
				{2, "C-unit", "highest roll d6", rollPos},
				{3, "B-unit", "highest roll d6", rollPos},
				{4, "A-unit", "highest roll d6", rollPos},
			},
		},
		{
			name:  "a tie among the three is rerolled by the tied only",
			sides: []runtime.SideSpec{agiSide("A", "Red", 4), agiSide("B", "Blue", 4), agiSide("C", "Green", 4)},
			rolls: []roll{{"A-unit", 5}, {"B-unit", 5}, {"C-unit", 3}, {"A-unit", 2}, {"B-unit", 6}},
			order: []string{"B-unit", "A-unit", "C-unit"},
			events: []string{
				"tie A-unit/B-unit/C-unit", "roll A-unit=5", "roll B-unit=5", "roll C-unit=3",
				"tie A-unit/B-unit", "reroll A-unit/B-unit", "roll A-unit=2", "roll B-unit=6",
				"placement B-unit", "placement A-unit", "placement C-unit",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.order
			playScripted(t, p, tt.sides, nil, []scriptedRound{{
				rolls:      tt.rolls,
				order:      want,
				holder:     want[0],
				events:     tt.events,
				placements: tt.placements,
			}})
		})
	}
}

// agiStep is one thing that happens in an AGI battle: a round played, or
// an attribute changed, with what the turn order card looks like after it.
type agiStep struct {
	what string // "round", or "set UNIT AGI"
	unit string
	agi  int

	rolls   []roll
	answers []answer

	order  []string
	events []string // events of the round ("round") or of the change ("set")
}

// playAGI plays steps with one scripted battle. Changes made between
// rounds show up in the next round's transcript; to see their events at
// once, steps run inside a round (StartRound first, EndRound last).
func playAGI(t *testing.T, sides []runtime.SideSpec, steps []agiStep) {
	t.Helper()
	p := mustProgram(t, "agi")
	dice := runtime.NewScriptedDice()
	decider := runtime.NewScriptedDecider()
	b, err := p.NewBattle(sides, runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, s := range steps {
		for _, x := range s.rolls {
			dice.AddRoll(x.who, x.v)
		}
		for _, x := range s.answers {
			decider.Add(x.who, x.ans...)
		}
		var evs []runtime.Event
		switch s.what {
		case "round":
			res, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatalf("step %d (round): %v", i, err)
			}
			evs = res.Events
			// unit_order activation follows the card.
			if diff := cmp.Diff(s.order, activated(res.Activations)); diff != "" {
				t.Errorf("step %d (round %d): activations (-want +got):\n%s", i, res.Round, diff)
			}
		case "set":
			// Inside a round, so that the change's events are visible.
			if err := b.StartRound(ctx); err != nil {
				t.Fatalf("step %d: StartRound: %v", i, err)
			}
			before := len(b.Events())
			if err := b.SetAttr(ctx, s.unit, "agi", s.agi); err != nil {
				t.Fatalf("step %d: set agi of %s = %d: %v", i, s.unit, s.agi, err)
			}
			evs = b.Events()[before:]
			if s.order != nil && b.Holder() != s.order[0] {
				t.Errorf("step %d: holder %q, want %q", i, b.Holder(), s.order[0])
			}
			for {
				done, err := b.Step(ctx)
				if err != nil {
					t.Fatalf("step %d: Step: %v", i, err)
				}
				if done {
					break
				}
			}
			if _, err := b.EndRound(ctx); err != nil {
				t.Fatalf("step %d: EndRound: %v", i, err)
			}
		default:
			t.Fatalf("unknown step %q", s.what)
		}
		if diff := cmp.Diff(s.order, b.Order()); diff != "" {
			t.Errorf("step %d (%s %s %d): order (-want +got):\n%s", i, s.what, s.unit, s.agi, diff)
		}
		if diff := cmp.Diff(s.events, briefEvents(evs)); diff != "" {
			t.Errorf("step %d (%s %s %d): events (-want +got):\n%s", i, s.what, s.unit, s.agi, diff)
		}
		if u := dice.Unused(); len(u) > 0 {
			t.Errorf("step %d: scripted rolls not used: %v", i, u)
		}
		if u := decider.Unused(); len(u) > 0 {
			t.Errorf("step %d: scripted decisions not used: %v", i, u)
		}
	}
}

func TestSeed002Buff(t *testing.T) {
	// "Player A wins the die roll and places 1st, player B 2nd. During
	// player A's token upkeep their AGI drops due to a buff being removed,
	// Player B would then move in front on the turn order card. During the
	// Main Phase of Player A's turn, they increase their AGI back to the
	// same value it was at the start of their turn. Since AGI values have
	// changed and then returned back to a matched value, another AGI tie has
	// occurred. Players A & B would once again roll a D6."
	sides := []runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 5)}
	playAGI(t, sides, []agiStep{
		{
			what:    "round",
			rolls:   []roll{{"A-unit", 4}, {"B-unit", 2}},
			answers: []answer{{"A", []string{"before"}}},
			order:   []string{"A-unit", "B-unit"},
			events: []string{
				"tie A-unit/B-unit", "roll A-unit=4", "roll B-unit=2", "decision A:before",
				"placement A-unit", "placement B-unit",
			},
		},
		{
			// The order stays until AGI changes: no roll, no decision.
			what:   "round",
			order:  []string{"A-unit", "B-unit"},
			events: nil,
		},
		{
			what: "set", unit: "A-unit", agi: 4,
			order:  []string{"B-unit", "A-unit"},
			events: []string{"set A-unit", "placement B-unit", "placement A-unit"},
		},
		{
			what: "set", unit: "A-unit", agi: 5,
			// A new tie: a new roll at once. B wins this time and places
			// after A.
			rolls:   []roll{{"A-unit", 1}, {"B-unit", 6}},
			answers: []answer{{"B", []string{"after"}}},
			order:   []string{"A-unit", "B-unit"},
			events: []string{
				"set A-unit", "tie A-unit/B-unit", "roll A-unit=1", "roll B-unit=6", "decision B:after",
				"placement A-unit", "placement B-unit",
			},
		},
		{
			what:   "round",
			order:  []string{"A-unit", "B-unit"},
			events: nil,
		},
	})
}

// The same story between rounds: the recomputation's events open the next
// round's transcript.
func TestSeed002BuffBetweenRounds(t *testing.T) {
	p := mustProgram(t, "agi")
	dice := runtime.NewScriptedDice()
	decider := runtime.NewScriptedDecider()
	b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 5)},
		runtime.WithDice(dice), runtime.WithDecider(decider))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dice.AddRoll("A-unit", 4)
	dice.AddRoll("B-unit", 2)
	decider.Add("A", "before")
	if _, err := b.PlayRound(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.SetAttr(ctx, "A-unit", "agi", 4); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"B-unit", "A-unit"}, b.Order()); diff != "" {
		t.Errorf("order after the drop (-want +got):\n%s", diff)
	}
	dice.AddRoll("A-unit", 3)
	dice.AddRoll("B-unit", 5)
	decider.Add("B", "before")
	if err := b.SetAttr(ctx, "A-unit", "agi", 5); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"B-unit", "A-unit"}, b.Order()); diff != "" {
		t.Errorf("order after the re-match (-want +got):\n%s", diff)
	}
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"set A-unit", "placement B-unit", "placement A-unit",
		"set A-unit", "tie A-unit/B-unit", "roll A-unit=3", "roll B-unit=5", "decision B:before", "placement B-unit", "placement A-unit",
	}
	if diff := cmp.Diff(want, briefEvents(res.Events)); diff != "" {
		t.Errorf("round 2 events (-want +got):\n%s", diff)
	}
	if res.Holder != "B-unit" {
		t.Errorf("round 2 holder %q, want B-unit", res.Holder)
	}
}

func TestSeed002SameTeamPersists(t *testing.T) {
	// "player A & B are on the same team and have the same AGI values.
	// Player A decides to place 1st on the turn order card and Player B
	// 2nd. The turn order will remain this way each round until Player A or
	// B change their AGI values."
	sides := []runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Red", 5), agiSide("C", "Blue", 3)}
	playAGI(t, sides, []agiStep{
		{
			what:    "round",
			answers: []answer{{"Red", []string{"A-unit", "B-unit"}}},
			order:   []string{"A-unit", "B-unit", "C-unit"},
			events: []string{
				"tie A-unit/B-unit", "decision Red:A-unit/B-unit",
				"placement A-unit", "placement B-unit", "placement C-unit",
			},
		},
		{what: "round", order: []string{"A-unit", "B-unit", "C-unit"}},
		{what: "round", order: []string{"A-unit", "B-unit", "C-unit"}},
		{
			// Someone else's AGI changes: the team's placement is kept.
			what: "set", unit: "C-unit", agi: 4,
			order: []string{"A-unit", "B-unit", "C-unit"},
			events: []string{
				"set C-unit", "tie A-unit/B-unit", "kept A-unit/B-unit",
				"placement A-unit", "placement B-unit", "placement C-unit",
			},
		},
		{what: "round", order: []string{"A-unit", "B-unit", "C-unit"}},
		{
			// B's AGI changes: no tie any more.
			what: "set", unit: "B-unit", agi: 6,
			order:  []string{"B-unit", "A-unit", "C-unit"},
			events: []string{"set B-unit", "placement B-unit", "placement A-unit", "placement C-unit"},
		},
		{
			// And back: a new tie, so the team decides again.
			what: "set", unit: "B-unit", agi: 5,
			answers: []answer{{"Red", []string{"B-unit", "A-unit"}}},
			order:   []string{"B-unit", "A-unit", "C-unit"},
			events: []string{
				"set B-unit", "tie A-unit/B-unit", "decision Red:B-unit/A-unit",
				"placement B-unit", "placement A-unit", "placement C-unit",
			},
		},
		{what: "round", order: []string{"B-unit", "A-unit", "C-unit"}},
	})
}

// A tie kept while its members' values stay put, even when a third
// subject joins the tie: then the whole group is new and is resolved again.
func TestSeed002NewMemberMakesNewTie(t *testing.T) {
	sides := []runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 5), agiSide("C", "Green", 3)}
	playAGI(t, sides, []agiStep{
		{
			what:    "round",
			rolls:   []roll{{"A-unit", 2}, {"B-unit", 5}},
			answers: []answer{{"B", []string{"before"}}},
			order:   []string{"B-unit", "A-unit", "C-unit"},
			events: []string{
				"tie A-unit/B-unit", "roll A-unit=2", "roll B-unit=5", "decision B:before",
				"placement B-unit", "placement A-unit", "placement C-unit",
			},
		},
		{
			// C matches them: three players on opposite teams, so the dice
			// decide and nobody chooses.
			what: "set", unit: "C-unit", agi: 5,
			rolls: []roll{{"A-unit", 6}, {"B-unit", 1}, {"C-unit", 4}},
			order: []string{"A-unit", "C-unit", "B-unit"},
			events: []string{
				"set C-unit", "tie A-unit/B-unit/C-unit", "roll A-unit=6", "roll B-unit=1", "roll C-unit=4",
				"placement A-unit", "placement C-unit", "placement B-unit",
			},
		},
	})
}

// ---------------------------------------------------------------------------
// 003: Morturi, Determining Priority.

// school is a side of n gladiators whose movement values are moves.
func school(name, prefix string, moves ...int) runtime.SideSpec {
	s := runtime.SideSpec{Name: name}
	for i, m := range moves {
		s.Units = append(s.Units, runtime.UnitSpec{Name: fmt.Sprintf("%s%d", prefix, i+1), Attrs: map[string]any{"movement": m}})
	}
	return s
}

func TestSeed003Morturi(t *testing.T) {
	p := mustProgram(t, "morturi")
	countPos := rulePos(t, "morturi", "lowest count(units)", 0)
	sumPos := rulePos(t, "morturi", "lowest sum(units, .movement)", 0)
	randomPos := rulePos(t, "morturi", "random", 0)

	// The example's schools, in the order the text lists them:
	//   Ludi Aeternum 8 gladiators, total movement 24
	//   Vi Et Armis   8 gladiators, total movement 33
	//   Legio Mortis  8 gladiators, total movement 33
	//   Malleus Deus  6 gladiators, total movement 30
	sides := []runtime.SideSpec{
		school("Ludi Aeternum", "la", 3, 3, 3, 3, 3, 3, 3, 3),
		school("Vi Et Armis", "va", 5, 4, 4, 4, 4, 4, 4, 4),
		school("Legio Mortis", "lm", 3, 3, 4, 4, 4, 5, 5, 5),
		school("Malleus Deus", "md", 5, 5, 5, 5, 5, 5),
	}
	order := []string{"Malleus Deus", "Ludi Aeternum", "Legio Mortis", "Vi Et Armis"}

	dice := runtime.NewScriptedDice()
	// "The Imperator rolls a dice, and randomly decides that the Legio
	// Mortis has priority."
	dice.AddPick("Legio Mortis")
	rec := &recordingDice{Dice: dice}
	b, err := p.NewBattle(sides, runtime.WithDice(rec), runtime.WithDecider(activationPolicy))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := b.PlayRound(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(order, res.Order); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	if res.Holder != "Malleus Deus" || res.Chooser != "" {
		t.Errorf("holder/chooser = %q/%q, want Malleus Deus/none", res.Holder, res.Chooser)
	}
	wantPlaces := []placement{
		{1, "Malleus Deus", "lowest count(units)", countPos},
		{2, "Ludi Aeternum", "lowest sum(units, .movement)", sumPos},
		{3, "Legio Mortis", "random", randomPos},
		{4, "Vi Et Armis", "random", randomPos},
	}
	if diff := cmp.Diff(wantPlaces, placementsOf(res.Events)); diff != "" {
		t.Errorf("placements (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]why{{runtime.EvRandom, "Legio Mortis", "random", randomPos}}, whyOf(res.Events, runtime.EvRandom)); diff != "" {
		t.Errorf("random events (-want +got):\n%s", diff)
	}
	var picks [][]string
	for _, r := range rec.picks {
		picks = append(picks, r.Options)
	}
	if diff := cmp.Diff([][]string{{"Vi Et Armis", "Legio Mortis"}}, picks); diff != "" {
		t.Errorf("random picks asked (-want +got):\n%s", diff)
	}
	if len(rec.rolls) != 0 {
		t.Errorf("dice rolled: %v", rec.rolls)
	}

	// "The school with highest priority goes first, activating one of their
	// Gladiators. They then pass priority to the next highest, and so on
	// ... If all the School's Gladiators have been activated during the
	// current Battle Round then that school must pass".
	counts := map[string]int{"Malleus Deus": 6, "Ludi Aeternum": 8, "Legio Mortis": 8, "Vi Et Armis": 8}
	prefix := map[string]string{"Malleus Deus": "md", "Ludi Aeternum": "la", "Legio Mortis": "lm", "Vi Et Armis": "va"}
	var wantActs []runtime.ActivationRecord
	for i := 1; i <= 8; i++ {
		for _, s := range order {
			if i <= counts[s] {
				wantActs = append(wantActs, runtime.ActivationRecord{Side: s, Unit: fmt.Sprintf("%s%d", prefix[s], i)})
			} else {
				wantActs = append(wantActs, runtime.ActivationRecord{Side: s, Pass: true})
			}
		}
	}
	if diff := cmp.Diff(wantActs, res.Activations); diff != "" {
		t.Errorf("activations (-want +got):\n%s", diff)
	}

	// "Once Priority order is established, it remains in place for the rest
	// of the battle, even if the above parameters change": kill off two
	// Vi Et Armis movers' worth of movement; no new pick is asked (the
	// script has none left) and the order stands.
	for _, u := range []string{"va2", "va3", "va4"} {
		if err := b.SetAttr(ctx, u, "movement", 1); err != nil {
			t.Fatal(err)
		}
	}
	for round := 2; round <= 3; round++ {
		res, err := b.PlayRound(ctx)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if diff := cmp.Diff(order, res.Order); diff != "" {
			t.Errorf("round %d: order (-want +got):\n%s", round, diff)
		}
		if got := placementsOf(res.Events); len(got) != 0 {
			t.Errorf("round %d: the order was placed again: %v", round, got)
		}
	}
	if len(rec.picks) != 1 {
		t.Errorf("random picks asked %d times, want once for the battle", len(rec.picks))
	}
}

// A school may not pass while it has gladiators to activate.
func TestSeed003MayNotPass(t *testing.T) {
	p := mustProgram(t, "morturi")
	b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewScriptedDice()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.StartRound(ctx); err != nil {
		t.Fatal(err)
	}
	turn := b.Next()
	if turn == nil || turn.Side != "Malleus Deus" || turn.MustPass || turn.CanPass {
		t.Fatalf("first turn = %+v, want Malleus Deus, who may not pass", turn)
	}
	if err := b.Pass(ctx); err == nil {
		t.Error("Pass succeeded for a school with ready gladiators")
	}
	if err := b.Activate(ctx, "la1"); err == nil {
		t.Error("Activate la1 succeeded on Malleus Deus's turn")
	}
	if err := b.Activate(ctx, "md3"); err != nil {
		t.Errorf("Activate md3: %v", err)
	}
	if err := b.Activate(ctx, "md4"); err == nil {
		t.Error("Malleus Deus activated twice in a row")
	}
}

// When a watched value changes in the middle of a round and the new tie is
// resolved by a choice, the round's chooser is whoever made that choice;
// when the tie is kept, the standing still records who chose it.
//
// KNOWN BUG (reported, not fixed here): Battle.rewatch updates the round's
// holder but not its chooser, and a kept tie drops the standing's Chooser.
func TestSeed002ChooserFollowsRecomputation(t *testing.T) {
	p := mustProgram(t, "agi")
	tests := []struct {
		name string
		// during runs inside round 2, after round 1 (A-unit 4, B-unit 2, A
		// chooses before).
		during       func(ctx context.Context, b *runtime.Battle, d *runtime.ScriptedDice, dec *runtime.ScriptedDecider) error
		wantHolder   string
		wantChooser  string // b.Chooser() in round 2
		wantStanding string // b.Standing("turn_order").Chooser
	}{
		{
			name: "a new tie in mid-round is chosen by B",
			during: func(ctx context.Context, b *runtime.Battle, d *runtime.ScriptedDice, dec *runtime.ScriptedDecider) error {
				if err := b.SetAttr(ctx, "A-unit", "agi", 4); err != nil {
					return err
				}
				d.AddRoll("A-unit", 1)
				d.AddRoll("B-unit", 6)
				dec.Add("B", "after")
				return b.SetAttr(ctx, "A-unit", "agi", 5)
			},
			wantHolder: "A-unit", wantChooser: "B", wantStanding: "B",
		},
		{
			name: "a kept tie keeps its chooser",
			during: func(ctx context.Context, b *runtime.Battle, d *runtime.ScriptedDice, dec *runtime.ScriptedDecider) error {
				return b.SetAttr(ctx, "C-unit", "agi", 4)
			},
			wantHolder: "A-unit", wantChooser: "", wantStanding: "A",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			d := runtime.NewScriptedDice()
			dec := runtime.NewScriptedDecider()
			b, err := p.NewBattle([]runtime.SideSpec{agiSide("A", "Red", 5), agiSide("B", "Blue", 5), agiSide("C", "Green", 3)},
				runtime.WithDice(d), runtime.WithDecider(dec))
			if err != nil {
				t.Fatal(err)
			}
			d.AddRoll("A-unit", 4)
			d.AddRoll("B-unit", 2)
			dec.Add("A", "before")
			res, err := b.PlayRound(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Chooser != "A" {
				t.Fatalf("round 1 chooser %q, want A", res.Chooser)
			}
			if err := b.StartRound(ctx); err != nil {
				t.Fatal(err)
			}
			if err := tt.during(ctx, b, d, dec); err != nil {
				t.Fatal(err)
			}
			type roles struct{ Holder, Chooser, StandingChooser string }
			want := roles{tt.wantHolder, tt.wantChooser, tt.wantStanding}
			got := roles{b.Holder(), b.Chooser(), b.Standing("turn_order").Chooser}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("roles after the recomputation (-want +got):\n%s", diff)
			}
		})
	}
}
