package runtime_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// The zero values of the dice and the scripted decider are usable, as the
// exported Fallback fields invite struct literals.
func TestZeroDiceAndDecider(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	script := &runtime.ScriptedDice{}
	script.AddRoll("Jay", 5)
	script.AddRoll("Rob", 2)
	decider := &runtime.ScriptedDecider{Fallback: runtime.Policy{}}
	decider.Add("Jay", "Rob")
	for _, dice := range []runtime.Dice{script, &runtime.SeededDice{}} {
		b, err := p.NewBattle(p.Example(), runtime.WithDice(dice), runtime.WithDecider(decider))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); err != nil {
			t.Fatalf("%T: %v", dice, err)
		}
	}
	// The zero SeededDice is seeded with 0.
	zero, seeded := &runtime.SeededDice{}, runtime.NewSeededDice(0)
	a, b := make([]int, 20), make([]int, 20)
	zero.RollInto(a, 1, 6)
	seeded.RollInto(b, 1, 6)
	if diff := cmp.Diff(b, a); diff != "" {
		t.Errorf("zero SeededDice against seed 0 (-want +got):\n%s", diff)
	}
}

// A roll that the script answers for some subjects only asks Fallback for
// the others.
func TestScriptedDiceFallbackFillsIn(t *testing.T) {
	dice := runtime.NewScriptedDice()
	var asked []string
	dice.Fallback = runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
		asked = append(asked, subject)
		return 3, nil
	}}
	dice.AddRoll("B", 6)
	got, err := dice.Roll(context.Background(), runtime.RollRequest{Subjects: []string{"A", "B", "C"}, Count: 1, Faces: 6})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int{3, 6, 3}, got); diff != "" {
		t.Errorf("rolls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"A", "C"}, asked); diff != "" {
		t.Errorf("asked the fallback for (-want +got):\n%s", diff)
	}
}

// SeededDice asked for a roll no dice can make, or a pick among nothing,
// says so instead of panicking (in math/rand) or answering zero, for a
// host that calls it directly or wraps it.
func TestSeededDiceRefusesImpossibleRequests(t *testing.T) {
	ctx := context.Background()
	subjects := []string{"Jay"}
	tests := []struct {
		name string
		req  runtime.RollRequest
	}{
		{"no faces", runtime.RollRequest{Subjects: subjects, Count: 1}},
		{"no dice", runtime.RollRequest{Subjects: subjects, Faces: 6}},
		{"negative faces", runtime.RollRequest{Subjects: subjects, Count: 1, Faces: -6}},
		{"negative count", runtime.RollRequest{Subjects: subjects, Count: -1, Faces: 6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := runtime.NewSeededDice(1)
			got, err := func() (got []int, err error) {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("Roll panicked: %v", r)
					}
				}()
				return d.Roll(ctx, tt.req)
			}()
			if err == nil {
				t.Errorf("Roll(%+v) = %v, nil; want an error", tt.req, got)
			}
		})
	}
	t.Run("pick among nothing", func(t *testing.T) {
		d := runtime.NewSeededDice(1)
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Pick panicked: %v", r)
			}
		}()
		if i, err := d.Pick(ctx, runtime.PickRequest{}); err == nil {
			t.Errorf("Pick among no options = %d, nil; want an error", i)
		}
	})
	// A possible request still rolls, and the same as RollInto.
	d, e := runtime.NewSeededDice(3), runtime.NewSeededDice(3)
	got, err := d.Roll(ctx, runtime.RollRequest{Subjects: []string{"A", "B"}, Count: 2, Faces: 6})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, 2)
	e.RollInto(want, 2, 6)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Roll (-RollInto +Roll):\n%s", diff)
	}
}

// A draw's bag counts each side's dice, in the order of its first die.
func TestPickRequestBag(t *testing.T) {
	for _, tt := range []struct {
		options []string
		sides   []string
		dice    []int
	}{
		{[]string{"Jay", "Jay", "Jay", "Rob", "Rob"}, []string{"Jay", "Rob"}, []int{3, 2}},
		{[]string{"B", "A", "B", "C"}, []string{"B", "A", "C"}, []int{2, 1, 1}},
		{nil, nil, nil},
	} {
		sides, dice := runtime.PickRequest{Options: tt.options, Draw: true}.Bag()
		if diff := cmp.Diff([]any{tt.sides, tt.dice}, []any{sides, dice}); diff != "" {
			t.Errorf("Bag(%v) (-want +got):\n%s", tt.options, diff)
		}
	}
}

// rollAll is a Dice of the host's own that rolls the same totals for
// every roll: right or wrong.
type rollAll []int

func (d rollAll) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	return d[:len(req.Subjects)], nil
}

func (d rollAll) Pick(ctx context.Context, req runtime.PickRequest) (int, error) { return 0, nil }

// A host's own Dice that returns a total its dice cannot show (a 0-based
// die, a d20 for a d6) is an error, as it is for FuncDice and ScriptedDice:
// the battle does not play on with a roll of 0 or 99 on a D6.
func TestImpossibleRollFromHostDice(t *testing.T) {
	p := mustProgram(t, "mesbg")
	for _, tt := range []struct {
		rolls rollAll
		want  string
	}{
		{rollAll{0, 5}, "round 1, order priority: the dice rolled 0 for Jay, which is impossible on d6 (1-6)"},
		{rollAll{4, 99}, "round 1, order priority: the dice rolled 99 for Rob, which is impossible on d6 (1-6)"},
		{rollAll{-1, 2}, "round 1, order priority: the dice rolled -1 for Jay, which is impossible on d6 (1-6)"},
	} {
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(tt.rolls))
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.PlayRound(context.Background())
		if err == nil || err.Error() != tt.want {
			t.Errorf("rolls %v: %v\nwant: %s", tt.rolls, err, tt.want)
		}
		if re, ok := errors.AsType[*runtime.RoundError](err); !ok || re.Round != 1 || re.Order != "priority" {
			t.Errorf("rolls %v: %#v, want a RoundError of round 1, order priority", tt.rolls, err)
		}
	}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(rollAll{6, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PlayRound(context.Background()); err != nil {
		t.Errorf("rolls 6 and 1: %v", err)
	}
}

// A die misread at the table (a 7 on a D6) is the player's mistake, as an
// answer the decision does not offer is: ErrInvalidAnswer, so that a host
// reading physical dice asks again: the roll stays pending, and
// StartRound called again asks for it. Host Dice and random picks out of range are alike.
func TestMisreadDieIsInvalidAnswer(t *testing.T) {
	ctx := context.Background()
	p := mustProgram(t, "mesbg")
	table := map[string][]int{"Jay": {7, 4}, "Rob": {2}}
	dice := runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, who string) (int, error) {
		v := table[who][0]
		table[who] = table[who][1:]
		return v, nil
	}}
	b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(ctx)
	if !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Fatalf("Jay's 7 on a D6: %v, want ErrInvalidAnswer", err)
	}
	if q := b.Pending(); q == nil || q.Roll == nil {
		t.Fatalf("pending %v, want the roll", q)
	}
	if err := b.StartRound(ctx); err != nil {
		t.Fatalf("asked again: %v", err)
	}
	if b.Holder() != "Jay" {
		t.Errorf("holder %q, want Jay", b.Holder())
	}

	for _, d := range []runtime.Dice{
		rollAll{4, 99},
		runtime.FuncDice{
			Die:     func(ctx context.Context, req runtime.RollRequest, who string) (int, error) { return 3, nil },
			PickOne: func(ctx context.Context, req runtime.PickRequest) (int, error) { return len(req.Options), nil },
		},
		pickAt(-1),
	} {
		p := compileInline(t, `ruleset r "Random" {
  sides 2
  phase p {
    order sides as priority {
      highest roll d6
      random
    }
  }
}`)
		if _, ok := d.(rollAll); ok {
			p = mustProgram(t, "mesbg")
		}
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(d))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.PlayRound(ctx); !errors.Is(err, runtime.ErrInvalidAnswer) {
			t.Errorf("dice %#v: %v, want ErrInvalidAnswer", d, err)
		}
	}
}

// pickAt rolls 3 for everyone and always picks index i.
type pickAt int

func (d pickAt) Roll(ctx context.Context, req runtime.RollRequest) ([]int, error) {
	out := make([]int, len(req.Subjects))
	for i := range out {
		out[i] = 3
	}
	return out, nil
}

func (d pickAt) Pick(ctx context.Context, req runtime.PickRequest) (int, error) { return int(d), nil }

// A server that replays its players' rolls through ScriptedDice hears of
// a misread die as one read through FuncDice: ErrInvalidAnswer, with the
// ScriptError saying which of the player's rolls it is. A pick that is
// not among the options is one too.
func TestScriptedMisreadIsInvalidAnswer(t *testing.T) {
	ctx := context.Background()
	dice := runtime.NewScriptedDice()
	dice.AddRoll("Jay", 4)
	dice.AddRoll("Rob", 7)
	b, err := mustProgram(t, "mesbg").NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	err = b.StartRound(ctx)
	if !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Errorf("Rob's scripted 7 on a D6: %v, want ErrInvalidAnswer", err)
	}
	if se, ok := errors.AsType[*runtime.ScriptError](err); !ok || se.Who != "Rob" || se.Index != 0 {
		t.Errorf("%v: want the ScriptError of Rob's roll 0", err)
	}

	p := compileInline(t, randomRuleset)
	dice = runtime.NewScriptedDice()
	dice.AddPick("Zed")
	b, err = p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(dice))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.StartRound(ctx); !errors.Is(err, runtime.ErrInvalidAnswer) {
		t.Errorf("a scripted pick of Zed among Jay and Rob: %v, want ErrInvalidAnswer", err)
	}
}

// FuncDice's pick out of range is said as the battle says a host's own
// Dice's: with the round and the order, and what the options were.
func TestFuncDicePickOutOfRangeSaysTheRound(t *testing.T) {
	p := compileInline(t, randomRuleset)
	want := "round 1, order priority: random pick 2 is out of range (2 options)"
	for _, d := range []runtime.Dice{
		runtime.FuncDice{PickOne: func(ctx context.Context, req runtime.PickRequest) (int, error) { return len(req.Options), nil }},
		pickAt(2),
	} {
		b, err := p.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(d))
		if err != nil {
			t.Fatal(err)
		}
		_, err = b.PlayRound(context.Background())
		re, ok := errors.AsType[*runtime.RoundError](err)
		if !ok || re.Order != "priority" || err.Error() != want || !errors.Is(err, runtime.ErrInvalidAnswer) {
			t.Errorf("dice %T: %v, want %s", d, err, want)
		}
	}
}

// FuncDice without the function a round needs fails that round saying
// which round, and which order (none for a draw from the bag), as every
// other error of a round's dice does: a host that wired Die but not
// PickOne learns where its battle stopped, not only what is missing.
func TestFuncDiceMissingFunctionSaysTheRound(t *testing.T) {
	die := func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) { return 1, nil }
	pick := func(ctx context.Context, req runtime.PickRequest) (int, error) { return 0, nil }
	bag := `ruleset bag "Bag" {
  sides 2
  phase p {
    order sides as priority {
      highest roll d6
      tie: reroll
    }
  }
  activation draw by priority
  example {
    side Jay {
      unit j1
    }
    side Rob {
      unit r1
      unit r2
    }
  }
}`
	for _, tt := range []struct {
		name, src string
		dice      runtime.FuncDice
		order     string
		want      string
	}{
		{"no PickOne", randomRuleset, runtime.FuncDice{Die: die}, "priority",
			"round 1, order priority: FuncDice has no PickOne function to pick at random among Jay, Rob"},
		{"no Die", "ruleset r \"Roll\" {\n  sides 2\n  phase p {\n    order sides as priority {\n      highest roll d6\n      tie: reroll\n    }\n  }\n}",
			runtime.FuncDice{PickOne: pick}, "priority",
			"round 1, order priority: FuncDice has no Die function to roll d6 for Jay and Rob"},
		{"no PickOne for the bag", bag, runtime.FuncDice{Die: func(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
			if subject == "Jay" {
				return 6, nil
			}
			return 1, nil
		}}, "",
			"round 1: FuncDice has no PickOne function to draw a die from the bag (Jay 1, Rob 2)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := compileInline(t, tt.src)
			sides := runtime.Sides("Jay", "Rob")
			if strings.Contains(tt.src, "example") {
				sides = p.Example()
			}
			b, err := p.NewBattle(sides, runtime.WithDice(tt.dice))
			if err != nil {
				t.Fatal(err)
			}
			_, err = b.PlayRound(context.Background())
			re, ok := errors.AsType[*runtime.RoundError](err)
			if !ok || re.Round != 1 || re.Order != tt.order || err.Error() != tt.want {
				t.Errorf("%v\nwant a RoundError of round 1, order %q: %s", err, tt.order, tt.want)
			}
		})
	}
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

// A reroll asks the dice for the tied subjects alone, each group of them
// on its own, with the attempt counted from the first roll: here four
// Necromunda gangs, with one pair tied, two pairs tied at once, and three
// tied of whom two stay tied.
func TestRerollsAskForTheTiedAlone(t *testing.T) {
	p := mustProgram(t, "necromunda")
	gangs := []string{"Goliaths", "Eschers", "Orlocks", "Van Saar"}
	type req struct {
		Subjects []string
		Attempt  int
	}
	tests := []struct {
		name     string
		rolls    []roll
		requests []req
	}{
		{
			name: "5, 4, 4, 2: only the two 4s roll again",
			rolls: []roll{{"Goliaths", 5}, {"Eschers", 4}, {"Orlocks", 4}, {"Van Saar", 2},
				{"Eschers", 3}, {"Orlocks", 6}},
			requests: []req{{gangs, 0}, {[]string{"Eschers", "Orlocks"}, 1}},
		},
		{
			name: "two ties at once: each pair rolls again on its own",
			rolls: []roll{{"Goliaths", 6}, {"Eschers", 6}, {"Orlocks", 1}, {"Van Saar", 1},
				{"Goliaths", 2}, {"Eschers", 5}, {"Orlocks", 4}, {"Van Saar", 3}},
			requests: []req{{gangs, 0}, {[]string{"Goliaths", "Eschers"}, 1}, {[]string{"Orlocks", "Van Saar"}, 1}},
		},
		{
			name: "a three-way tie that stays partly tied: only the still-tied roll a third time",
			rolls: []roll{{"Goliaths", 3}, {"Eschers", 3}, {"Orlocks", 3}, {"Van Saar", 6},
				{"Goliaths", 4}, {"Eschers", 4}, {"Orlocks", 1},
				{"Goliaths", 2}, {"Eschers", 5}},
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
			if _, err := b.PlayRound(context.Background()); err != nil {
				t.Fatal(err)
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
			if u := script.Unused(); len(u) > 0 {
				t.Errorf("scripted rolls never used: %v", u)
			}
		})
	}
}
