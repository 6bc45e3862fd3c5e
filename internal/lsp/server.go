// Package lsp is the language server of `turnorder lsp`: diagnostics,
// formatting, hover, completion and go to definition for .rules files,
// spoken over JSON-RPC as the Language Server Protocol says.
//
// The protocol's types and the dispatch of its methods are glsp's
// (github.com/tliron/glsp/protocol_3_16); the framing is
// github.com/sourcegraph/jsonrpc2, which glsp's own server uses too. glsp's
// server package is not used: it reads os.Stdin itself and brings a
// logging library along, where Serve takes any stream, so that a test can
// speak to it over a pipe.
package lsp

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/url"
	"path/filepath"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
)

// Options are what the server says about itself.
type Options struct {
	// Version is the server's, as initialize tells the client.
	Version string
	// Log is where the protocol's own errors go (a reply that could not
	// be written, say); nil for nowhere. Editors show a server's standard
	// error in their logs.
	Log io.Writer
}

// Serve answers the client on rw until it sends exit or closes the
// stream, or ctx is done.
func Serve(ctx context.Context, rw io.ReadWriteCloser, opts Options) {
	s := &server{docs: map[string]*document{}, version: opts.Version}
	// Notifications with no handler (initialized, $/setTrace, didSave,
	// ...) are ignored by handle; requests with none are answered with an
	// error.
	s.handler = protocol.Handler{
		Initialize:             s.initialize,
		Shutdown:               func(*glsp.Context) error { return nil },
		TextDocumentDidOpen:    s.didOpen,
		TextDocumentDidChange:  s.didChange,
		TextDocumentDidClose:   s.didClose,
		TextDocumentFormatting: s.formatting,
		TextDocumentHover:      s.hover,
		TextDocumentCompletion: s.completion,
		TextDocumentDefinition: s.definition,
	}
	logTo := opts.Log
	if logTo == nil {
		logTo = io.Discard
	}
	stream := jsonrpc2.NewBufferedStream(rw, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(ctx, stream, jsonrpc2.HandlerWithError(s.handle),
		jsonrpc2.SetLogger(log.New(logTo, "turnorder lsp: ", 0)))
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
	}
}

type server struct {
	handler protocol.Handler
	version string

	mu   sync.Mutex
	docs map[string]*document // by URI
}

// handle is one request or notification. A panic in a handler is the
// server's bug, but the editor's session must survive it: it becomes the
// request's error.
func (s *server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("turnorder lsp: %v", r)}
		}
	}()
	// No Call: the server asks the client nothing, and a call made while
	// handling a message would wait for a reply that the connection,
	// which handles one message at a time, could not read.
	gc := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { _ = conn.Notify(ctx, method, params) },
	}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	r, validMethod, validParams, err := s.handler.Handle(gc)
	switch {
	case req.Method == protocol.MethodExit:
		return nil, conn.Close()
	case !validMethod:
		if req.Notif {
			return nil, nil // "$/..." and other notifications may be ignored
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid parameters"
		if err != nil {
			msg = err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

func (s *server) initialize(*glsp.Context, *protocol.InitializeParams) (any, error) {
	caps := s.handler.CreateServerCapabilities()
	full := protocol.TextDocumentSyncKindFull
	caps.TextDocumentSync = &protocol.TextDocumentSyncOptions{OpenClose: &protocol.True, Change: &full}
	caps.CompletionProvider = &protocol.CompletionOptions{TriggerCharacters: []string{"."}}
	return protocol.InitializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.InitializeResultServerInfo{Name: "turnorder", Version: &s.version},
	}, nil
}

// document is an open file: its text and what parsing it gave.
type document struct {
	uri  string
	text string
	file *dsl.File // nil when nothing parsed
}

func (s *server) didOpen(gc *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.update(gc, p.TextDocument.URI, p.TextDocument.Text)
	return nil
}

func (s *server) didChange(gc *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	// The server asks for whole documents; a client that sends ranges
	// anyway has them applied in turn.
	s.mu.Lock()
	text := ""
	if d := s.docs[p.TextDocument.URI]; d != nil {
		text = d.text
	}
	s.mu.Unlock()
	for _, ch := range p.ContentChanges {
		switch ch := ch.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			text = ch.Text
		case protocol.TextDocumentContentChangeEvent:
			if ch.Range != nil {
				start, end := offsetOf(text, ch.Range.Start), offsetOf(text, ch.Range.End)
				if start <= end {
					text = text[:start] + ch.Text + text[end:]
				}
			}
		}
	}
	s.update(gc, p.TextDocument.URI, text)
	return nil
}

func (s *server) didClose(gc *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	// An editor keeps a closed file's marks unless they are cleared.
	gc.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{
		URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
	return nil
}

// update parses and compiles a document's new text and publishes its
// diagnostics.
func (s *server) update(gc *glsp.Context, uri, text string) {
	filename := filenameOf(uri)
	f, _ := dsl.Parse(filename, []byte(text))
	d := &document{uri: uri, text: text, file: f}
	s.mu.Lock()
	s.docs[uri] = d
	s.mu.Unlock()

	// Compile reports the parser's diagnostics too, and for a file of
	// scenarios alone, which has no ruleset to compile, only those.
	_, diags, _ := rulesets.Compile(rulesets.Source{Filename: filename, Text: []byte(text)})
	out := []protocol.Diagnostic{}
	for _, dg := range diags {
		out = append(out, diagnostic(text, dg))
	}
	gc.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: out})
}

func (s *server) doc(uri string) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

// diagnostic is dg in the protocol's terms: its range runs to dg.End
// where that is known, else to the end of the word at its start.
func diagnostic(text string, dg dsl.Diagnostic) protocol.Diagnostic {
	start := position(text, dg.Pos)
	end := start
	if dg.End.Line > 0 {
		end = position(text, dg.End)
	} else {
		end = wordEnd(text, start)
	}
	severity := protocol.DiagnosticSeverityError
	if dg.Severity == dsl.Warning {
		severity = protocol.DiagnosticSeverityWarning
	}
	source := "turnorder"
	return protocol.Diagnostic{
		Range:    protocol.Range{Start: start, End: end},
		Severity: &severity,
		Source:   &source,
		Message:  dg.Text(),
	}
}

// filenameOf is the path of a file: URI, or the URI itself for another
// scheme (an unsaved buffer): diagnostics name it, and scenarios'
// `ruleset FILE` are not resolved from an editor's buffer.
func filenameOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	path := u.Path
	// file:///C:/rules/x.rules is C:\rules\x.rules on Windows.
	if len(path) >= 3 && path[0] == '/' && path[2] == ':' && filepath.Separator == '\\' {
		path = path[1:]
	}
	return filepath.FromSlash(path)
}

func (s *server) formatting(_ *glsp.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	d := s.doc(p.TextDocument.URI)
	if d == nil {
		return nil, nil
	}
	out, diags := dsl.FormatSource(filenameOf(d.uri), []byte(d.text))
	if len(out) == 0 || diags.HasErrors() || string(out) == d.text {
		return []protocol.TextEdit{}, nil
	}
	whole := protocol.Range{End: endOf(d.text)}
	return []protocol.TextEdit{{Range: whole, NewText: string(out)}}, nil
}

// endOf is the position just past the last character of text.
func endOf(text string) protocol.Position {
	line := strings.Count(text, "\n")
	last := text[strings.LastIndexByte(text, '\n')+1:]
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(utf16Len(last))}
}
