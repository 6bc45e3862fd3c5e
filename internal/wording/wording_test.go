package wording

import "testing"

func TestWording(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Possessive("Jay"), "Jay's"},
		{Possessive("Eschers"), "Eschers'"},
		{Possessive("GOLIATHS"), "GOLIATHS'"},
		{AndList(nil), ""},
		{AndList([]string{"A"}), "A"},
		{AndList([]string{"A", "B"}), "A and B"},
		{AndList([]string{"A", "B", "C"}), "A, B and C"},
		{OrNone(nil), "none"},
		{OrNone([]string{"A", "B"}), "A, B"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"abc", "abc", 0},
		{"strat", "start", 1}, {"ed", "end", 1}, {"Start", "start", 1},
		{"restart", "start", 2}, {"kitten", "sitting", 3}, {"ca", "abc", 3},
	} {
		if got := EditDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
