// Package conformance runs worked examples ("scenarios") against rulesets.
//
// A scenario is written in the .rules language next to, or apart from, the
// ruleset it checks:
//
//	scenario "Jay and Rob" {
//	  ruleset mesbg
//	  quote "Jay rolls a 4 whilst Rob rolls a 2 ... he chooses himself."
//	  side Jay
//	  side Rob
//	  round 1 {
//	    roll Jay 4, Rob 2
//	    Jay chooses Jay
//	    expect holder Jay
//	  }
//	}
//
// Statements in a round run in order. `roll`, `random` and `chooses` queue
// scripted dice, random picks and answers; the runtime takes them as it
// needs them. The round's phases run at the first `expect` or `activate`
// (or at the end of the block), so `set` and status changes written before
// them happen before the round. `expect activations` plays the round's
// activations to the end. At the end of the block the round ends, and
// anything scripted but never used is a failure: a scenario says exactly
// what happened.
//
// The bundled suite (one scenario file per bundled ruleset, checking every
// worked example and rule clause of the source texts) is embedded: see
// Suite.
package conformance
