// Package longtest is the switch for the slow tests: equivalence checks of
// an optimised path against a plain one over many seeds, million-battle
// statistics and fuzz corpora. `go test ./...` skips them so that the
// default run stays fast; TURNORDER_LONG=1 (which .ci/run sets) or the
// -long test flag, in a package whose tests import this one, runs them.
package longtest

import (
	"flag"
	"os"
	"testing"
)

var long = flag.Bool("long", false, "run the slow tests too (as TURNORDER_LONG=1 does)")

// Enabled reports whether the slow tests run.
func Enabled() bool {
	return *long || os.Getenv("TURNORDER_LONG") == "1"
}

// Skip skips a slow test unless the long tests were asked for.
func Skip(tb testing.TB) {
	tb.Helper()
	if !Enabled() {
		tb.Skip("a long test: run with TURNORDER_LONG=1 or -long")
	}
}

// Seeds is how many seeds a test plays: short in the default run, long
// with the long tests.
func Seeds(short, long uint64) uint64 {
	if Enabled() {
		return long
	}
	return short
}
