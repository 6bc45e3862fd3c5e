package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
)

// client speaks LSP to a server as an editor does: JSON-RPC messages
// with Content-Length headers, over a pair of pipes.
type client struct {
	t      *testing.T
	w      io.WriteCloser
	in     chan message
	nextID int
}

type message struct {
	ID     *int            `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type pipes struct {
	io.Reader
	io.WriteCloser
}

func start(t *testing.T) *client {
	t.Helper()
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Serve(ctx, pipes{toServer, fromServer}, Options{Version: "test"})
		fromServer.Close()
	}()
	c := &client{t: t, w: fromClient, in: make(chan message, 100)}
	go c.read(bufio.NewReader(toClient))
	t.Cleanup(func() {
		cancel()
		fromClient.Close()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return c
}

// read decodes the server's messages, checking their framing.
func (c *client) read(r *bufio.Reader) {
	defer close(c.in)
	tp := textproto.NewReader(r)
	for {
		h, err := tp.ReadMIMEHeader()
		if err != nil {
			return
		}
		n, err := strconv.Atoi(h.Get("Content-Length"))
		if err != nil {
			c.t.Errorf("a message without a Content-Length: %v", h)
			return
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			c.t.Errorf("reading a message of %d bytes: %v", n, err)
			return
		}
		var m message
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("a message that is not JSON: %v\n%s", err, body)
			return
		}
		c.in <- m
	}
}

func (c *client) send(v map[string]any) {
	c.t.Helper()
	v["jsonrpc"] = "2.0"
	body, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"method": method, "params": params})
}

// next returns the server's next message, failing the test after a
// second without one.
func (c *client) next() message {
	c.t.Helper()
	select {
	case m, ok := <-c.in:
		if !ok {
			c.t.Fatal("the server closed the connection")
		}
		return m
	case <-time.After(time.Second):
		c.t.Fatal("no message from the server within a second")
	}
	return message{}
}

// call sends a request and returns its result, decoded into out.
func (c *client) call(method string, params, out any) {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"id": id, "method": method, "params": params})
	for {
		m := c.next()
		if m.ID == nil || *m.ID != id {
			continue // a notification, such as diagnostics
		}
		if m.Error != nil {
			c.t.Fatalf("%s: error %d: %s", method, m.Error.Code, m.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				c.t.Fatalf("%s: result %s: %v", method, m.Result, err)
			}
		}
		return
	}
}

// diagnostics waits for the diagnostics published for uri.
func (c *client) diagnostics(uri string) []diag {
	c.t.Helper()
	for {
		m := c.next()
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []diag `json:"diagnostics"`
		}
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.t.Fatal(err)
		}
		if p.URI == uri {
			return p.Diagnostics
		}
	}
}

type pos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type rng struct {
	Start pos `json:"start"`
	End   pos `json:"end"`
}

type diag struct {
	Range    rng    `json:"range"`
	Severity int    `json:"severity"`
	Message  string `json:"message"`
}

func (c *client) initialize() {
	c.t.Helper()
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &res)
	for _, want := range []string{"textDocumentSync", "hoverProvider", "completionProvider", "definitionProvider", "documentFormattingProvider"} {
		if res.Capabilities[want] == nil {
			c.t.Errorf("initialize: no %s in the capabilities %v", want, res.Capabilities)
		}
	}
	c.notify("initialized", map[string]any{})
}

func (c *client) open(uri, text string) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "rules", "version": 1, "text": text}})
}

func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos{line, char}}
}

// A ruleset whose line 6 has a name that is not declared, after a
// string with characters outside ASCII: "é" is one UTF-16
// unit and "🎲" two, so that a column counted in bytes or in runes is
// caught.
const broken = `ruleset house "Hausregeln" {
  unit attribute agi int = 3
  phase priority {
    order sides as priority {
      quote "Der Spieler mit dem höchsten Wurf 🎲 beginnt."
      highest 1 + len("é🎲") + unitz
      tie: reroll
    }
  }
}
`

const good = `ruleset house   "House" {
  sides 2
  unit attribute agi int = 3
  phase priority {
    order sides as priority {
      quote "The player who rolls highest goes first."
      highest roll d6
      tie: reroll
    }
  }
  activation alternate   by priority
}
`

func TestServer(t *testing.T) {
	deadline := time.Now().Add(5 * time.Second)
	c := start(t)
	c.initialize()

	const uri = "file:///tmp/house.rules"
	c.open(uri, broken)
	ds := c.diagnostics(uri)
	if len(ds) == 0 {
		t.Fatal("no diagnostics for a ruleset with an error")
	}
	d := ds[0]
	if d.Severity != 1 {
		t.Errorf("severity %d, want 1 (error)", d.Severity)
	}
	// unitz, on line 6 (5 from 0), is 31 UTF-16 units from its start:
	// 30 runes, 34 bytes.
	want := rng{Start: pos{5, 31}, End: pos{5, 36}}
	if d.Range != want || !strings.Contains(d.Message, "unitz") {
		t.Errorf("%q at %+v, want unitz at %+v", d.Message, d.Range, want)
	}

	// A fixed document has no diagnostics; it is still to be formatted.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": good}},
	})
	if ds := c.diagnostics(uri); len(ds) != 0 {
		t.Errorf("diagnostics for a good ruleset: %+v", ds)
	}

	var edits []struct {
		Range   rng    `json:"range"`
		NewText string `json:"newText"`
	}
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri},
		"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	if len(edits) != 1 {
		t.Fatalf("formatting: %d edits, want 1", len(edits))
	}
	if edits[0].Range.Start != (pos{}) || edits[0].Range.End != (pos{12, 0}) {
		t.Errorf("formatting: range %+v, want the whole document", edits[0].Range)
	}
	if !strings.Contains(edits[0].NewText, `ruleset house "House" {`) || !strings.Contains(edits[0].NewText, "activation alternate by priority") {
		t.Errorf("formatting: not formatted:\n%s", edits[0].NewText)
	}

	var hover struct {
		Contents struct {
			Kind  string `json:"kind"`
			Value string `json:"value"`
		} `json:"contents"`
	}
	c.call("textDocument/hover", at(uri, 6, 10), &hover) // highest roll d6
	if v := hover.Contents.Value; !strings.Contains(v, "highest roll d6") || !strings.Contains(v, "rolls") ||
		!strings.Contains(v, "The player who rolls highest goes first.") {
		t.Errorf("hover on a roll: %q, want what it means and its quote", v)
	}
	c.call("textDocument/hover", at(uri, 7, 7), &hover) // tie: reroll
	if v := hover.Contents.Value; !strings.Contains(v, "tie rule") {
		t.Errorf("hover on a tie rule: %q", v)
	}
	c.call("textDocument/hover", at(uri, 10, 28), &hover) // by priority
	if v := hover.Contents.Value; !strings.Contains(v, "order sides as priority") {
		t.Errorf("hover on an order's name: %q", v)
	}
	c.call("textDocument/hover", at(uri, 3, 10), &hover) // phase priority, not the order of that name
	if v := hover.Contents.Value; !strings.Contains(v, "phase priority") {
		t.Errorf("hover on a phase's name: %q", v)
	}
	c.call("textDocument/hover", at(uri, 2, 20), &hover) // unit attribute agi
	if v := hover.Contents.Value; !strings.Contains(v, "unit attribute agi int") {
		t.Errorf("hover on an attribute: %q", v)
	}

	type item struct {
		Label    string `json:"label"`
		SortText string `json:"sortText"`
	}
	var items []item
	c.call("textDocument/completion", at(uri, 7, 0), &items) // in the order's chain
	labels := map[string]bool{}
	for _, it := range items {
		labels[it.Label] = true
	}
	for _, want := range []string{"highest", "tie", "reroll", "agi", "priority", "reverse", "before", "scenario"} {
		if !labels[want] {
			t.Errorf("completion: no %q among %d items", want, len(items))
		}
	}
	first := func(items []item) string {
		slices.SortStableFunc(items, func(a, b item) int { return strings.Compare(a.SortText, b.SortText) })
		return items[0].Label
	}
	if f := first(items); !slices.Contains([]string{"highest", "lowest", "roll", "random", "reroll", "award", "not", "choice", "tie", "before_after", "by", "default", "first", "order", "quote", "when"}, f) {
		t.Errorf("completion in an order's chain offers %q first, not a criterion", f)
	}
	items = nil
	c.call("textDocument/completion", at(uri, 10, 28), &items) // activation alternate by prio|rity
	if f := first(items); f != "priority" {
		t.Errorf("completion after by offers %q first, want the order priority", f)
	}

	var locs []struct {
		URI   string `json:"uri"`
		Range rng    `json:"range"`
	}
	c.call("textDocument/definition", at(uri, 10, 28), &locs) // by priority
	if len(locs) == 0 || locs[0].URI != uri || locs[0].Range.Start != (pos{4, 4}) {
		t.Errorf("definition of priority: %+v, want the order at 4:4 first", locs)
	}

	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case _, ok := <-c.in:
		if ok {
			t.Error("a message after exit")
		}
	case <-time.After(time.Second):
		t.Error("the server did not close the connection on exit")
	}
	if time.Now().After(deadline) {
		t.Error("the session took more than 5 seconds")
	}
}

// The server survives documents that do not parse and requests at any
// position, and a method it does not know gets an error, not silence.
func TestServerSurvivesGarbage(t *testing.T) {
	c := start(t)
	c.initialize()
	const uri = "untitled:Untitled-1"
	for _, text := range []string{"", "}}}{{", "ruleset {", "ruleset x {\n  phase p {\n    order sides as o {\n      highest roll d6 +\n", "\x00\xff🎲\r\n\tquote", broken[:len(broken)/2]} {
		c.open(uri, text)
		c.diagnostics(uri)
		for line := range 8 {
			for _, char := range []int{0, 3, 9, 40, 1000} {
				c.call("textDocument/hover", at(uri, line, char), nil)
				c.call("textDocument/definition", at(uri, line, char), nil)
				c.call("textDocument/completion", at(uri, line, char), nil)
			}
		}
		c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{}}, nil)
	}
	c.nextID++
	c.send(map[string]any{"id": c.nextID, "method": "textDocument/noSuchThing", "params": map[string]any{}})
	if m := c.next(); m.Error == nil {
		t.Errorf("an unknown method: %+v, want an error", m)
	}
}

// Every request at places all over the bundled rulesets, whole and cut
// short at many lines, gets an answer, not a panic (handle would turn one
// into an error, which an editor shows).
func TestEveryPosition(t *testing.T) {
	s := &server{docs: map[string]*document{}}
	gc := &glsp.Context{Notify: func(string, any) {}}
	const uri = "file:///x.rules"
	for _, name := range rulesets.Names() {
		src, err := rulesets.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(src.Text), "\n")
		for cut := len(lines); cut > 0; cut -= 29 {
			text := strings.Join(lines[:cut], "")
			s.update(gc, uri, text)
			doc := protocol.TextDocumentIdentifier{URI: uri}
			for line := range cut + 1 {
				for char := 0; char < 60; char += 7 {
					tp := protocol.TextDocumentPositionParams{TextDocument: doc,
						Position: protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(char)}}
					if _, err := s.hover(gc, &protocol.HoverParams{TextDocumentPositionParams: tp}); err != nil {
						t.Fatal(err)
					}
					if _, err := s.definition(gc, &protocol.DefinitionParams{TextDocumentPositionParams: tp}); err != nil {
						t.Fatal(err)
					}
					if _, err := s.completion(gc, &protocol.CompletionParams{TextDocumentPositionParams: tp}); err != nil {
						t.Fatal(err)
					}
				}
			}
			if _, err := s.formatting(gc, &protocol.DocumentFormattingParams{TextDocument: doc}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A die, a deck, a draw and a reshuffle each say what they are.
func TestDescribeRandomizers(t *testing.T) {
	src := `ruleset r {
  die prio { blank, crown = 1 }
  deck cards per side reshuffle when empty { 1..3 }
  phase p {
    order sides as o {
      highest draw cards
      tie: highest roll prio
    }
  }
  on end of round { reshuffle cards }
}
`
	f, diags := dsl.Parse("r.rules", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := map[string]string{
		"*dsl.RandomizerDecl":  "rolled with replacement",
		"*dsl.DrawCrit":        "without replacement",
		"*dsl.ReshuffleAction": "goes back in",
	}
	seen := map[string]bool{}
	dsl.Walk(f, func(n dsl.Node) {
		kind := fmt.Sprintf("%T", n)
		w, ok := want[kind]
		if !ok {
			return
		}
		d := describe(n)
		if d == "" {
			t.Errorf("%s has no description", kind)
		}
		if strings.Contains(d, w) {
			seen[kind] = true
		}
	})
	for kind, w := range want {
		if !seen[kind] {
			t.Errorf("no %s is described with %q", kind, w)
		}
	}
}
