package main

// --policy KIND=POLICY, which run and odds share: another answer to one
// kind of decision than the ruleset's declared default.

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/turnorder/turnorder/runtime"
)

func parsePolicies(ss []string) (runtime.Decider, string) {
	if len(ss) == 0 {
		return runtime.Policy{}, ""
	}
	over := runtime.Override{}
	for _, s := range ss {
		kind, pol, ok := strings.Cut(s, "=")
		pols := runtime.Policies(runtime.DecisionKind(kind))
		known := pols != nil
		switch {
		case !ok || !known:
			return nil, fmt.Sprintf("--policy %q: write KIND=POLICY with KIND one of first, before_after, order, activate", s)
		case !slices.Contains(pols, pol):
			return nil, fmt.Sprintf("--policy %q: %s decisions take %s", s, kind, strings.Join(pols, ", "))
		case over[runtime.DecisionKind(kind)] != "" && over[runtime.DecisionKind(kind)] != pol:
			return nil, fmt.Sprintf("--policy %q: %s decisions already follow %s", s, kind, over[runtime.DecisionKind(kind)])
		}
		over[runtime.DecisionKind(kind)] = pol
	}
	return over, ""
}

// warnUnusedPolicies warns, for each --policy in dec, when the ruleset never
// asks for that kind of decision: the flag then changes nothing, which is
// surely not what was meant (a kind taken from another ruleset, say).
func warnUnusedPolicies(e *env, p *runtime.Program, dec runtime.Decider) {
	over, ok := dec.(runtime.Override)
	if !ok {
		return
	}
	asks := p.Decisions()
	for _, kind := range slices.Sorted(maps.Keys(over)) {
		if !slices.Contains(asks, kind) {
			fmt.Fprintf(e.stderr, "%swarning: --policy %s=%s changes nothing: %s never asks for %s decisions\n",
				e.prefix(), kind, over[kind], p.Name(), kind)
		}
	}
}
