package runtime_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/runtime"
)

// A transcript line reads as a sentence about the battle: what happened
// (who chose, who goes first), then the rule, rather than the rule first
// as it is written.
func TestEventStringSaysWhatThenTheRule(t *testing.T) {
	for _, tt := range []struct {
		ev   runtime.Event
		want string
	}{
		{runtime.Event{Kind: runtime.EvDecision, By: "Jay", Choice: []string{"Jay"}, Detail: string(runtime.ChooseFirst)},
			"Jay chooses to go first"},
		{runtime.Event{Kind: runtime.EvDecision, By: "Jay", Choice: []string{"Rob"}, Detail: string(runtime.ChooseFirst)},
			"Jay chooses Rob to go first"},
		{runtime.Event{Kind: runtime.EvPlacement, Standing: "priority", Place: 2, Subject: "Rob", By: "Jay", Rule: "choice first by winner"},
			"priority #2: Rob, by Jay's choice (choice first by winner)"},
		{runtime.Event{Kind: runtime.EvPlacement, Standing: "turn_order", Place: 1, Subject: "Aria", By: "Eschers", Rule: "choice order by team"},
			"turn_order #1: Aria, by Eschers' choice (choice order by team)"},
		{runtime.Event{Kind: runtime.EvAward, Standing: "priority", Subject: "Jay", Rule: "award not previous.chooser", Detail: "Jay goes before Rob"},
			"Jay goes before Rob (award not previous.chooser)"},
	} {
		if diff := cmp.Diff(tt.want, tt.ev.String()); diff != "" {
			t.Errorf("%+v: (-want +got)\n%s", tt.ev, diff)
		}
	}
}
