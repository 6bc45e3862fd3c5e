package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/internal/dsltest"
)

// BenchmarkCheckAdversarial runs check, parse, compile and the printing of
// every diagnostic, on the costliest shapes of input at the size limit:
//
//	go test ./cmd/turnorder -run '^$' -bench CheckAdversarial -benchmem
//
// Nested steps give a compile error for each step: printing them must
// not split the whole file again for each one. The figures are in
// docs/benchmarks.md.
func BenchmarkCheckAdversarial(b *testing.B) {
	dir := b.TempDir()
	for _, kind := range []string{"deep-blocks", "ties", "long-expr", "deep-parens", "many-exprs", "broken-stmts"} {
		file := filepath.Join(dir, kind+".rules")
		if err := os.WriteFile(file, dsltest.Adversarial(kind, dsl.MaxSourceBytes), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%s/%dKiB", kind, dsl.MaxSourceBytes>>10), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				run([]string{"check", file}, strings.NewReader(""), io.Discard, io.Discard)
			}
		})
	}
}
