package dsl

import "fmt"

// escapeError is a string's escape that Go does not have, such as the \'
// of a string copied from a rulebook. Participle wraps it in a message of
// its own ("failed to capture: ..."); the parser finds it inside with
// errors.As, and makes the diagnostic from it, its hint apart.
type escapeError struct {
	esc string // the backslash and the character after it
}

func (e *escapeError) Error() string { return e.message() + ": " + escapeHint(e.esc) }

func (e *escapeError) message() string {
	return fmt.Sprintf("%s %s in a string", badEscapeMsg, e.esc)
}
