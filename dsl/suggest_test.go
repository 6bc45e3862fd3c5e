package dsl

import "testing"

func TestSuggest(t *testing.T) {
	names := []string{"agi", "mesbg", "morturi", "necromunda"}
	for _, tt := range []struct{ word, want string }{
		{"mesgb", "mesbg"}, // two letters swapped
		{"MESBG", "mesbg"}, // case
		{"necromunds", "necromunda"},
		{"morturii", "morturi"},
		{"agl", "agi"},
		{"xyz", ""}, // nothing close
		{"", ""},
	} {
		if got := Suggest(tt.word, names); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	// Two as close: no one thing to suggest.
	if got := Suggest("ab", []string{"ax", "ay"}); got != "" {
		t.Errorf(`Suggest("ab", ax, ay) = %q, want ""`, got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"abc", "abc", 0},
		{"abc", "abd", 1}, {"abc", "acb", 1}, {"abcd", "acbd", 1},
		{"kitten", "sitting", 3}, {"ca", "abc", 3},
	} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
