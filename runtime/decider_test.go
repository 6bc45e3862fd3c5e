package runtime_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// A Decider is given the decision's options and default as its own: one
// that writes over them (labels for a menu, a sort for display) changes
// nothing in the battle, and the answer is checked against the real
// options, so one that answers with what it wrote there is refused with
// an error instead of reaching the battle (where it panicked).
func TestDeciderOwnsItsDecision(t *testing.T) {
	ctx := context.Background()
	scrawl := func(d runtime.Decision) {
		for i := range d.Options {
			d.Options[i] = "Zed"
		}
		for i := range d.Default {
			d.Default[i] = "Zed"
		}
	}
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			play := func(dec runtime.Decider) ([]*runtime.RoundResult, error) {
				b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(4)), runtime.WithDecider(dec))
				if err != nil {
					t.Fatal(err)
				}
				var out []*runtime.RoundResult
				for range 3 {
					r, err := b.PlayRound(ctx)
					if err != nil {
						return out, err
					}
					out = append(out, r)
				}
				return out, nil
			}
			want, err := play(runtime.Policy{})
			if err != nil {
				t.Fatal(err)
			}
			asked := 0
			labels := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) ([]string, error) {
				asked++
				ans := slices.Clone(d.Default)
				scrawl(d)
				return ans, nil
			})
			got, err := play(labels)
			if err != nil {
				t.Fatalf("a decider that writes over its options after choosing: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("rounds with a decider that writes over its options (-policy +got):\n%s", diff)
			}
			if asked == 0 {
				return // nothing to decide in this ruleset's example
			}
			zed := runtime.DeciderFunc(func(ctx context.Context, d runtime.Decision) (ans []string, err error) {
				scrawl(d)
				if d.Kind == runtime.ChooseOrder {
					return d.Options, nil
				}
				return []string{"Zed"}, nil
			})
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("a decider answering with what it wrote over its options: panic %v", r)
					}
				}()
				if _, err := play(zed); err == nil {
					t.Errorf("a decider answering Zed, which is no option: no error")
				} else if want := `answer "Zed`; !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %s", err, want)
				}
			}()
		})
	}
}

// A Decider may answer from a buffer it reuses: the transcript keeps each
// answer as it was given.
func TestDeciderMayReuseItsAnswer(t *testing.T) {
	ctx := context.Background()
	for _, name := range rulesets.Names() {
		t.Run(name, func(t *testing.T) {
			p := mustProgram(t, name)
			var buf []string
			var answered [][]string
			d := runtime.DeciderFunc(func(_ context.Context, d runtime.Decision) ([]string, error) {
				buf = append(buf[:0], d.Default...)
				answered = append(answered, slices.Clone(buf))
				return buf, nil
			})
			b, err := p.NewBattle(p.Example(), runtime.WithDice(runtime.NewSeededDice(5)), runtime.WithDecider(d))
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for range 4 {
				res, err := b.PlayRound(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range res.Events {
					if e.Kind == runtime.EvDecision {
						got = append(got, e.Choice)
					}
				}
			}
			if diff := cmp.Diff(answered, got); diff != "" {
				t.Errorf("the decision events' choices (-answered +recorded):\n%s", diff)
			}
		})
	}
}
