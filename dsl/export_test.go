package dsl

// HintRuleNames lists the names of the hint rules.
func HintRuleNames() []string {
	names := make([]string, len(hintRules))
	for i, r := range hintRules {
		names[i] = r.name
	}
	return names
}

// ObserveHints has f told the name of each hint rule that changes a
// diagnostic, until stop is called.
func ObserveHints(f func(name string)) (stop func()) {
	hintObserver.Store(&f)
	return func() { hintObserver.Store(nil) }
}
