package runtime_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/runtime"
)

// A message quotes the rule it is about, but a rule of thousands of
// characters is cut short: the source line and caret under the message
// show where it is, and a warning must stay a line a person reads.
func TestMessagesQuoteLongRulesShort(t *testing.T) {
	long := strings.Repeat("1 + ", 300) + "1"
	p := compileInline(t, "ruleset big {\n sides 2\n phase p each round { order sides as o { highest "+long+" } }\n}\n")
	w := p.Warnings()
	if len(w) != 1 {
		t.Fatalf("want one warning (the order can end tied), got %v", w)
	}
	msg := w[0].Message
	if n := utf8.RuneCountInString(msg); n > 200 {
		t.Errorf("the warning is %d characters long:\n%s", n, msg)
	}
	if !strings.Contains(msg, "`highest 1 + 1 + 1") || !strings.Contains(msg, "…`") {
		t.Errorf("the warning does not quote the start of the criterion, cut short:\n%s", msg)
	}
}

// An expression of thousands of parts is refused at compile time, in a
// few words at its start: its checking would recurse deep enough to crash
// a WebAssembly build.
func TestExpressionTooLong(t *testing.T) {
	long := strings.Repeat("1 + ", 2000) + "1"
	f, diags := dsl.Parse("big.rules", []byte("ruleset big {\n sides 2\n phase p each round { order sides as o { highest "+long+"\n random } }\n}\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, err := runtime.Compile(f)
	want := "big.rules:3:50: error: this expression is too long: it has more than 1000 parts (numbers, names and operators), where a rule's expression has a few dozen"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Compile: %v\nwant: %s", err, want)
	}
}
