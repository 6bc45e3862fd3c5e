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
