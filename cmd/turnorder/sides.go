package main

// The sides a battle is played with, as the commands name, compare and
// summarise them.

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/turnorder/turnorder/runtime"
)

// sameSides reports whether a and b are the same sides, wherever each was
// written (a copied ruleset's example is the original's).
func sameSides(a, b []runtime.SideSpec) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// sidesSummary names sides and counts their units: "Jay (3 units), Rob".
func sidesSummary(specs []runtime.SideSpec) string {
	parts := make([]string, len(specs))
	for i, s := range specs {
		parts[i] = s.Name
		if len(s.Units) > 0 {
			parts[i] += " (" + plural(len(s.Units), "unit") + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// sidesNames lists the names of sides, in their order.
func sidesNames(specs []runtime.SideSpec) []string {
	out := make([]string, len(specs))
	for i, s := range specs {
		out[i] = s.Name
	}
	return out
}

// plainSides reports whether specs are sides --sides can name: no team,
// value or unit.
func plainSides(specs []runtime.SideSpec) bool {
	for _, s := range specs {
		if s.Team != "" || len(s.Attrs) > 0 || len(s.Units) > 0 || strings.Contains(s.Name, ",") {
			return false
		}
	}
	return true
}
