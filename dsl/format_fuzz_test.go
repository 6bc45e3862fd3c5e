package dsl

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzFormat checks, on whatever parses, the promises of `turnorder fmt`,
// which rewrites an author's file in place: the output parses, to the same
// rules with the same comments in the same order, and formatting it again
// changes nothing.
//
//	go test ./dsl -run '^$' -fuzz FuzzFormat -fuzztime 60s
func FuzzFormat(f *testing.F) {
	for _, src := range parsedRulesFiles(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		want, diags := Parse("fuzz.rules", src)
		if want == nil || diags.HasErrors() {
			return
		}
		once := Format(want)
		got, diags := Parse("formatted.rules", once)
		if got == nil || diags.HasErrors() {
			t.Fatalf("the formatted file does not parse:\n%s\n%s", diags.Render(string(once)), once)
		}
		if diff := cmp.Diff(want, got, astOpts); diff != "" {
			t.Fatalf("Parse(Format(f)) differs from f (-want +got):\n%s\nformatted:\n%s", diff, once)
		}
		if twice := Format(got); string(twice) != string(once) {
			t.Fatalf("formatting twice changed the output (-once +twice):\n%s", cmp.Diff(string(once), string(twice)))
		}
	})
}
