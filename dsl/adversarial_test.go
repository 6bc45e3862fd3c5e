package dsl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/dsltest"
	"github.com/turnorder/turnorder/internal/longtest"
)

// BenchmarkAdversarial parses each shape of costly input that dsltest
// generates, at 64 KiB and at the size limit:
//
//	go test ./dsl -run '^$' -bench Adversarial -benchmem
//
// The figures are in docs/benchmarks.md.
func BenchmarkAdversarial(b *testing.B) {
	for _, kind := range dsltest.AdversarialKinds() {
		for _, size := range []int{64 << 10, dsl.MaxSourceBytes} {
			src := dsltest.Adversarial(kind, size)
			b.Run(fmt.Sprintf("%s/%dKiB", kind, size>>10), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					dsl.Parse("adversarial.rules", src)
				}
			})
		}
	}
}

// TestAdversarial checks what Parse makes of each costly shape of input,
// 16 KiB of it (at the size limit with the long tests): those written
// correctly parse without an error, the others stop at a bound on errors,
// and none is refused for its nesting or size, which the generator keeps
// within the limits.
func TestAdversarial(t *testing.T) {
	broken := map[string]bool{"broken-stmts": true, "broken-top": true, "late-error": true, "unclosed-brackets": true,
		"unclosed-strings": true, "foreign": true, "unterminated": true, "extra-braces": true}
	for _, kind := range dsltest.AdversarialKinds() {
		t.Run(kind, func(t *testing.T) {
			size := 16 << 10
			if longtest.Enabled() {
				size = dsl.MaxSourceBytes
			}
			src := dsltest.Adversarial(kind, size)
			if len(src) > size || len(src) < size*9/10 {
				t.Fatalf("generated %d bytes, want a little under %d", len(src), size)
			}
			file, diags := dsl.Parse("adversarial.rules", src)
			if !broken[kind] {
				if file == nil || diags.HasErrors() {
					t.Fatalf("got file %v and errors:\n%s", file != nil, firstLines(diags.Render(string(src)), 10))
				}
				return
			}
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			if len(diags) > 21 {
				t.Errorf("%d diagnostics, want at most 21: the errors are bounded", len(diags))
			}
			for _, d := range diags {
				if strings.Contains(d.Message, "limit is") {
					t.Errorf("refused for its size: %v", d)
				}
			}
		})
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestNestingLimitPosition checks where the nesting limit is reported: at
// the bracket one too deep, in a file within the size limit and in one
// beyond it, where the nesting is still what is said.
func TestNestingLimitPosition(t *testing.T) {
	head := "ruleset x {\n  phase p {\n    order sides as o {\n      lowest "
	deep := head + strings.Repeat("(", dsl.MaxDepth-2) + "a" + strings.Repeat(")", dsl.MaxDepth-2) + "\n    }\n  }\n}\n"
	wantCol := len("      lowest ") + dsl.MaxDepth - 3 + 1 // three braces, then brackets to one too many
	for _, tt := range []struct {
		name string
		src  string
	}{
		{"within the size limit", deep},
		{"beyond the size limit", deep + "# " + strings.Repeat("padding ", dsl.MaxSourceBytes/8) + "\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file, diags := dsl.Parse("deep.rules", []byte(tt.src))
			if file != nil || len(diags) != 1 {
				t.Fatalf("got file %v and %v, want one error", file != nil, diags)
			}
			want := fmt.Sprintf("deep.rules:4:%d: error: nesting is deeper than %d levels", wantCol, dsl.MaxDepth)
			if got := diags[0].String(); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// TestSizeLimitMessage checks that a file beyond the size limit is told
// the limit in words a rule author reads at a glance.
func TestSizeLimitMessage(t *testing.T) {
	src := "ruleset x {\n  sides 2\n}\n# " + strings.Repeat("x", dsl.MaxSourceBytes) + "\n"
	_, diags := dsl.Parse("big.rules", []byte(src))
	want := fmt.Sprintf("big.rules:1:1: error: file is %d bytes; the limit is %d (%d KiB), far more than a rules file needs",
		len(src), dsl.MaxSourceBytes, dsl.MaxSourceBytes>>10)
	if len(diags) != 1 || diags[0].String() != want {
		t.Errorf("got %v, want %q", diags, want)
	}
}

// TestRenderAtOnce checks that rendering diagnostics together, as a
// command prints a file's, is rendering each alone, in or out of order,
// with lines past the end of the file and a line without its newline.
func TestRenderAtOnce(t *testing.T) {
	src := "ruleset x {\r\n  sides two\n\n  phase p {\n}\n}"
	at := func(line, col int) dsl.Diagnostic {
		return dsl.Errorf(dsl.Pos{Filename: "f.rules", Line: line, Column: col}, "at %d:%d", line, col)
	}
	ds := dsl.Diagnostics{at(2, 9), at(1, 1), at(6, 1), at(6, 1), at(3, 1), at(9, 1), at(4, 3), at(1, 12), at(7, 1)}
	var want strings.Builder
	for _, d := range ds {
		want.WriteString(dsl.Diagnostics{d}.Render(src))
	}
	if got := ds.Render(src); got != want.String() {
		t.Errorf("rendered together:\n%s\nalone:\n%s", got, want.String())
	}
}
