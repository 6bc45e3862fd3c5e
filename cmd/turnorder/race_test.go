//go:build race

package main

// raceEnabled says the tests run under the race detector, which makes
// them many times slower: bounds on how long a command takes do not hold.
const raceEnabled = true
