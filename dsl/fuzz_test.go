package dsl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/dsltest"
)

// parseTimeout is how long FuzzParse lets one Parse run: far more than any
// input of a fuzzer's size needs.
const parseTimeout = 10 * time.Second

// FuzzParse checks that Parse never panics, and that whatever it returns
// is usable: a missing file comes with an error, and every diagnostic has
// a position that a renderer can show.
//
//	go test ./dsl -run '^$' -fuzz FuzzParse -fuzztime 60s
func FuzzParse(f *testing.F) {
	rulesets, _ := filepath.Glob("../rulesets/*.rules")
	// The procedures use what no bundled ruleset does: activation draw,
	// and a default before a condition on passing.
	procedures, _ := filepath.Glob("../examples/procedures/*.rules")
	for _, file := range append(rulesets, procedures...) {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	chunked, _ := filepath.Glob("testdata/errors/*.rules")
	gaps, _ := filepath.Glob("testdata/gaps/*.rules")
	for _, file := range append(chunked, gaps...) {
		for _, c := range dsltest.Chunks(f, file) {
			f.Add([]byte(strings.TrimLeft(c.Source, "\n")))
		}
	}
	if len(rulesets) == 0 || len(procedures) == 0 || len(chunked) == 0 {
		f.Fatal("no seed files")
	}

	f.Fuzz(func(t *testing.T, src []byte) {
		// Go's fuzzer has no per-input timeout: a parser that hangs would
		// only stall it. Crash instead, so the input is saved.
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(parseTimeout):
				panic(fmt.Sprintf("Parse took longer than %v on %q", parseTimeout, src))
			}
		}()

		file, diags := dsl.Parse("fuzz.rules", src)
		if file == nil && !diags.HasErrors() {
			t.Fatalf("Parse returned no file and no error; diagnostics: %v", diags)
		}
		for _, d := range diags {
			if d.Pos.Line < 1 || d.Pos.Column < 1 {
				t.Errorf("diagnostic without a position: %v", d)
			}
			if d.Message == "" {
				t.Errorf("diagnostic without a message: %v", d)
			}
		}
		_ = diags.Render(string(src))
		if file != nil {
			dsl.Walk(file, func(dsl.Node) {})
		}
	})
}

// TestDeepNesting checks that nesting far beyond MaxDepth is refused with
// a diagnostic instead of overflowing the parser's stack.
func TestDeepNesting(t *testing.T) {
	const n = 100_000
	tests := []struct {
		name string
		src  string
	}{
		{"parentheses", "ruleset x { phase p { order sides as o { lowest " +
			strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + " } } }\n"},
		{"unclosed parentheses", "ruleset x { phase p { order sides as o { lowest " +
			strings.Repeat("(", n) + "\n"},
		{"brackets", "ruleset x { phase p { ready units where " +
			strings.Repeat("[", n) + strings.Repeat("]", n) + " } }\n"},
		{"steps", "ruleset x { phase p {\n" + strings.Repeat("step s{", n) +
			strings.Repeat("}", n) + "} }\n"},
		{"braces", strings.Repeat("{", n)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, diags := dsl.Parse("deep.rules", []byte(tt.src))
			if file != nil || len(diags) != 1 {
				t.Fatalf("got file %v and %d diagnostics, want only a nesting error: %v", file != nil, len(diags), diags)
			}
			d := diags[0]
			if d.Severity != dsl.Error || !strings.Contains(d.Message, "nesting") {
				t.Errorf("got %v, want an error about nesting", d)
			}
			if d.Pos.Line < 1 || d.Pos.Column < 1 {
				t.Errorf("nesting error without a position: %v", d)
			}
		})
	}

	// MaxDepth itself is allowed.
	src := "ruleset x { phase p { order sides as o { lowest " +
		strings.Repeat("(", dsl.MaxDepth-3) + "1" + strings.Repeat(")", dsl.MaxDepth-3) + " } } }\n"
	if _, diags := dsl.Parse("deep.rules", []byte(src)); diags != nil {
		t.Errorf("nesting of exactly MaxDepth: %v", diags)
	}
}

// TestSourceTooLarge checks the size limit, which is checked before the
// source is lexed.
func TestSourceTooLarge(t *testing.T) {
	head := "ruleset x {\n  sides 2\n}\n"
	pad := func(n int) []byte {
		return []byte(head + "#" + strings.Repeat("x", n-len(head)-2) + "\n")
	}

	big := pad(dsl.MaxSourceBytes + 1)
	file, diags := dsl.Parse("big.rules", big)
	if file != nil || len(diags) != 1 || diags[0].Severity != dsl.Error {
		t.Fatalf("Parse(%d bytes): got file %v and %v, want one error", len(big), file != nil, diags)
	}
	if d := diags[0]; d.Pos.Line != 1 || d.Pos.Column != 1 || !strings.Contains(d.Message, "limit") {
		t.Errorf("got %v, want a size-limit error at 1:1", d)
	}

	exact := pad(dsl.MaxSourceBytes)
	if file, diags := dsl.Parse("big.rules", exact); file == nil || diags != nil {
		t.Errorf("Parse(%d bytes): %v, want no error at the limit", len(exact), diags)
	}
}
