package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// turnorder lsp answers on standard output what an editor sends on
// standard input, and stops at exit. internal/lsp tests the server itself.
func TestLSPCommand(t *testing.T) {
	var in bytes.Buffer
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	} {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(msg), msg)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"lsp", "--stdio"}, &in, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit status %d, stderr:\n%s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"Content-Length: ", `"id":1`, `"hoverProvider":true`, `"name":"turnorder"`, `"id":2`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in the answers:\n%s", want, out)
		}
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}
