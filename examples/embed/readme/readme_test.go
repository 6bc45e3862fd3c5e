package main

// This directory is the embedding snippet of the README, as a program:
// README.md shows main.go, TestREADMESnippet keeps the two equal, so the
// snippet always compiles, and Example checks what it prints.

import (
	"os"
	"strings"
	"testing"
)

// snippetMarker precedes the snippet's fenced block in README.md.
const snippetMarker = "<!-- README snippet: examples/embed/readme/main.go -->"

func TestREADMESnippet(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	code, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), snippetMarker)
	if !ok {
		t.Fatalf("README.md lacks the marker %s before the embedding snippet", snippetMarker)
	}
	after = strings.TrimLeft(after, "\n")
	body, ok := strings.CutPrefix(after, "```go\n")
	if !ok {
		t.Fatalf("in README.md, the marker %s is not followed by a ```go block", snippetMarker)
	}
	snippet, _, ok := strings.Cut(body, "\n```\n")
	if !ok {
		t.Fatalf("in README.md, the ```go block after %s is not closed", snippetMarker)
	}
	if snippet+"\n" != string(code) {
		t.Errorf("the README's embedding snippet differs from examples/embed/readme/main.go; copy main.go into README.md.\n--- README.md\n%s\n--- main.go\n%s", snippet, code)
	}
}

func Example() {
	main()
	// Output:
	// round 1 begins
	// hook start
	// Jay rolls 4 for priority
	// Rob rolls 2 for priority
	// Jay chooses to go first
	// priority #1: Jay, by Jay's choice (choice first by winner)
	// priority #2: Rob, by Jay's choice (choice first by winner)
	// hook end
	// round 1 ends
	// holder: Jay - chosen by Jay
}

// The README's set-up is two commands, at the top, exactly as written here.
func TestREADMESetUp(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "```sh\ngo run ./cmd/turnorder run mesbg --rounds 3\ngo test ./...\n```\n"
	i := strings.Index(string(readme), want)
	if i < 0 || i > 1000 {
		t.Errorf("README.md does not begin with the two set-up commands:\n%s", want)
	}
}
