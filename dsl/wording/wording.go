// Package wording holds the few ways of writing names in English that the
// runtime's errors and transcript, the conformance runner's failures and
// the command's prompts share, so that they all say a list, or whose a
// unit is, alike. It is not part of the language: it lives under dsl, the
// package every other one builds on, so that all of them can share it.
package wording

import "strings"

// Possessive writes a side's or unit's name as its owner's: "Jay's", and
// "Eschers'" for a name that ends in s, as a gang's or a school's often
// does.
func Possessive(name string) string {
	if strings.HasSuffix(name, "s") || strings.HasSuffix(name, "S") {
		return name + "'"
	}
	return name + "'s"
}

// AndList writes names as a list in words: "A", "A and B", "A, B and C".
func AndList(names []string) string {
	if len(names) < 3 {
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// OrNone writes names as a list, "A, B, C", or "none" when there are none.
func OrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
