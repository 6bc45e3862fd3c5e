package lsp

import (
	"testing"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// FuzzRequests edits a document to any text and asks for everything at
// any place in it: the server must answer, never panic, and its
// diagnostics' ranges must be in the document and in order.
func FuzzRequests(f *testing.F) {
	f.Add(broken, uint(5), uint(31))
	f.Add(good, uint(10), uint(28))
	f.Add("\x00\xff🎲\r\n\tquote", uint(0), uint(3))
	f.Add("ruleset x {\n  phase p {\n    order sides as o {\n      highest roll d6 +\n", uint(3), uint(20))
	f.Fuzz(func(t *testing.T, text string, line, char uint) {
		s := &server{docs: map[string]*document{}}
		var published []protocol.Diagnostic
		gc := &glsp.Context{Notify: func(_ string, params any) {
			published = params.(protocol.PublishDiagnosticsParams).Diagnostics
		}}
		const uri = "file:///f.rules"
		s.update(gc, uri, text)
		end := endOf(text)
		for _, d := range published {
			r := d.Range
			if r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
				t.Errorf("%q: a range that ends before it starts: %+v", d.Message, r)
			}
			if r.End.Line > end.Line {
				t.Errorf("%q: a range past the end of the document (%+v): %+v", d.Message, end, r)
			}
		}
		tp := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri},
			Position: protocol.Position{Line: protocol.UInteger(line % 1000), Character: protocol.UInteger(char % 1000)}}
		if _, err := s.hover(gc, &protocol.HoverParams{TextDocumentPositionParams: tp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.definition(gc, &protocol.DefinitionParams{TextDocumentPositionParams: tp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.completion(gc, &protocol.CompletionParams{TextDocumentPositionParams: tp}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.formatting(gc, &protocol.DocumentFormattingParams{TextDocument: tp.TextDocument}); err != nil {
			t.Fatal(err)
		}
	})
}
