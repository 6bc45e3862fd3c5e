package dsl_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/dsltest"
)

// TestHintRulesExercised runs the error corpus and fails for every hint
// rule that changed no diagnostic in it. The corpus is run through the
// real parser, so a rule that stops recognising its mistake (most often
// because participle, whose errors the rules start from, words them
// otherwise) fails here by name, and a new rule needs a chunk of its own.
func TestHintRulesExercised(t *testing.T) {
	var mu sync.Mutex
	fired := map[string]int{}
	stop := dsl.ObserveHints(func(name string) {
		mu.Lock()
		fired[name]++
		mu.Unlock()
	})
	defer stop()
	dsltest.RunFiles(t, "testdata/errors/*.rules", 177, func(t *testing.T, file string, c dsltest.Chunk) {
		diags := parseChunk(t, file, c)
		dsltest.Check(t, file, c, diags)
	})

	names := dsl.HintRuleNames()
	for i, name := range names {
		if slices.Contains(names[:i], name) {
			t.Errorf("two hint rules are named %s", name)
		}
		if fired[name] == 0 {
			t.Errorf("hint rule %s changed no diagnostic of testdata/errors: it no longer recognises its mistake, or it needs a chunk", name)
		}
	}
}
