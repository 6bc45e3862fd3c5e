package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/turnorder/turnorder/internal/lsp"
)

func lspCommand() *command {
	c := &command{
		name:  "lsp",
		args:  "[--stdio]",
		short: "a language server for editors, over standard input and output",
		flags: newFlags("lsp"),
	}
	// Editors' LSP clients (VS Code's among them) pass --stdio to say how
	// they speak; standard input and output is the only way there is.
	c.flags.Bool("stdio", true, "speak over standard input and output (the only way; accepted for editors that pass it)")
	c.run = func(e *env, args []string) int {
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "turnorder lsp: takes no arguments (got %q)\n", args[0])
			return exitUsage
		}
		lsp.Serve(context.Background(), stdio{e.stdin, e.stdout},
			lsp.Options{Version: strings.TrimPrefix(versionString(debug.ReadBuildInfo()), "turnorder "), Log: e.stderr})
		return exitOK
	}
	return c
}

// stdio is the command's standard input and output as the one stream a
// language server speaks over. Closing it closes neither: the process
// ends right after.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }
