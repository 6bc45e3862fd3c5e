package runtime_test

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A message quotes the rule it is about, but a rule of thousands of
// characters is cut short: the source line and caret under the message
// show where it is, and a warning must stay a line a person reads.
func TestMessagesQuoteLongRulesShort(t *testing.T) {
	long := strings.Repeat("1 + ", 2000) + "1"
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
