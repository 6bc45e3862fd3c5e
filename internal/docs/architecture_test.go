// Package docs keeps the repository's prose true: the tests here check
// what ARCHITECTURE.md says against the tree it describes.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's top, where ARCHITECTURE.md is.
const root = "../.."

var (
	link     = regexp.MustCompile(`\]\(([^)#]+)\)`)
	backtick = regexp.MustCompile("`([^`\\s]+)`")
	fileName = regexp.MustCompile(`^[a-z0-9_]+\.(go|md|rules|txt)$`)
)

// TestArchitecturePathsExist: every file or folder ARCHITECTURE.md names
// exists. A path (with a slash) is taken from the top of the repository;
// a bare file name ("play_prompt.go") must be the name of some file in it.
func TestArchitecturePathsExist(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		names[d.Name()] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	var paths, bare []string
	for _, m := range link.FindAllStringSubmatch(string(doc), -1) {
		paths = append(paths, m[1])
	}
	for _, m := range backtick.FindAllStringSubmatch(string(doc), -1) {
		switch tok := strings.TrimSuffix(m[1], ","); {
		case strings.Contains(tok, "://"):
		case strings.Contains(tok, "/") && !strings.ContainsAny(tok, "*()<>=") && !strings.HasPrefix(tok, "github.com/"):
			paths = append(paths, tok)
		case fileName.MatchString(tok):
			bare = append(bare, tok)
		}
	}
	if len(paths) < 20 {
		t.Fatalf("found %d paths in ARCHITECTURE.md; the pattern that finds them is broken", len(paths))
	}
	for _, p := range paths {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			t.Errorf("ARCHITECTURE.md names %s, which does not exist", p)
		}
	}
	for _, name := range bare {
		if !names[name] {
			t.Errorf("ARCHITECTURE.md names %s, and no file has that name", name)
		}
	}
}
