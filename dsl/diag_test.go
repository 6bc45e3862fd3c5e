package dsl_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/turnorder/turnorder/dsl"
)

// A hint is kept apart from its message, and every form of output puts
// them together on the diagnostic's line.
func TestDiagnosticHint(t *testing.T) {
	pos := dsl.Pos{Filename: "r.rules", Line: 2, Column: 3, Offset: 14}
	d := dsl.Errorf(pos, "unexpected %q", "(").WithHint("random is a criterion, not a function: write `random`")
	d.End = dsl.Pos{Filename: "r.rules", Line: 2, Column: 4, Offset: 15}

	const text = "unexpected \"(\": random is a criterion, not a function: write `random`"
	if got := d.Text(); got != text {
		t.Errorf("Text() = %q, want %q", got, text)
	}
	if got, want := d.String(), "r.rules:2:3: error: "+text; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	src := "ruleset x {\n  random()\n}"
	ds := dsl.Diagnostics{d}
	if got := ds.Render(src); !strings.HasPrefix(got, "r.rules:2:3: error: "+text+"\n") {
		t.Errorf("Render: the first line is not the diagnostic's with its hint:\n%s", got)
	}

	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"file": "r.rules", "line": 2.0, "column": 3.0, "end_line": 2.0, "end_column": 4.0,
		"severity": "error", "message": text, "hint": "random is a criterion, not a function: write `random`"}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
	var back dsl.Diagnostic
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	d.Pos.Offset, d.End.Offset = 0, 0 // not in the JSON
	if diff := cmp.Diff(d, back); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}

// A diagnostic without a hint or an end encodes as it always did.
func TestDiagnosticJSONWithoutHint(t *testing.T) {
	d := dsl.Errorf(dsl.Pos{Filename: "r.rules", Line: 1, Column: 1}, "empty file")
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"file":"r.rules","line":1,"column":1,"severity":"error","message":"empty file"}`
	if string(data) != want {
		t.Errorf("JSON = %s, want %s", data, want)
	}
}

// A syntax error that blames a token ends where the token does.
func TestSyntaxErrorEnd(t *testing.T) {
	_, ds := dsl.Parse("e.rules", []byte("ruleset x {\n  sides two\n}\n"))
	if len(ds) != 1 {
		t.Fatalf("want one diagnostic, got:\n%v", ds)
	}
	d := ds[0]
	if d.Pos.Line != 2 || d.Pos.Column != 9 || d.End.Line != 2 || d.End.Column != 12 {
		t.Errorf("%v: at %d:%d to %d:%d, want 2:9 to 2:12, the word two", d, d.Pos.Line, d.Pos.Column, d.End.Line, d.End.Column)
	}
}
