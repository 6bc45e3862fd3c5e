package rulesets_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/dsl"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

const twoRulesets = `ruleset first {
  sides 2
  phase p once {
    order sides as o {
      random
    }
  }
}

ruleset second {
  sides 3
  phase p once {
    order sides as o {
      random
    }
  }
}
`

func TestReadTellsNamesFromPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "house.rules")
	if err := os.WriteFile(file, []byte(twoRulesets), 0o644); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "house") // a file named without .rules
	if err := os.WriteFile(bare, []byte(twoRulesets), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	tests := []struct {
		ref      string
		filename string
		bundled  bool
	}{
		{"mesbg", "rulesets/mesbg.rules", true},
		{file, file, false},
		{"house.rules", "house.rules", false},
		{"house", "house", false},
	}
	for _, tt := range tests {
		src, err := rulesets.Read(tt.ref)
		if err != nil {
			t.Errorf("Read(%q): %v", tt.ref, err)
			continue
		}
		got := struct {
			Filename string
			Bundled  bool
		}{src.Filename, src.Bundled}
		want := struct {
			Filename string
			Bundled  bool
		}{tt.filename, tt.bundled}
		if diff := cmp.Diff(want, got); diff != "" || len(src.Text) == 0 {
			t.Errorf("Read(%q) (-want +got):\n%s", tt.ref, diff)
		}
	}
}

// What cannot be read is said in one line that names it, never Go's
// "open x: ...", and a directory, a device or a pipe is refused before
// it is read, so that nothing blocks or fills the memory.
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.rules")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	tests := []struct {
		ref      string
		want     string
		notExist bool
	}{
		{filepath.Join(dir, "nothere.rules"), filepath.Join(dir, "nothere.rules") + ": no such file or directory", true},
		{dir, dir + " is a directory; name a .rules file or a bundled ruleset (agi, mesbg, morturi, necromunda)", false},
		{fifo, fifo + " is not a regular file; name a .rules file", false},
		{"/dev/zero", "/dev/zero is not a regular file; name a .rules file", false},
		{"mesbgg", `unknown ruleset "mesbgg" (did you mean mesbg?): the bundled rulesets are agi, mesbg, morturi, necromunda (or give the path of a .rules file)`, true},
	}
	for _, tt := range tests {
		_, err := rulesets.Read(tt.ref)
		if err == nil {
			t.Errorf("Read(%q): no error", tt.ref)
			continue
		}
		if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
			t.Errorf("Read(%q) (-want +got):\n%s", tt.ref, diff)
		}
		if errors.Is(err, fs.ErrNotExist) != tt.notExist {
			t.Errorf("Read(%q): errors.Is(err, fs.ErrNotExist) = %v, want %v", tt.ref, !tt.notExist, tt.notExist)
		}
	}
}

// A file larger than the parser accepts is read only as far as the
// parser needs to say so.
func TestReadIsBounded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "big.rules")
	big := "ruleset big {\n  sides 2\n}\n#" + strings.Repeat("x", 2*dsl.MaxSourceBytes) + "\n"
	if err := os.WriteFile(file, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := rulesets.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Text) != dsl.MaxSourceBytes+1 {
		t.Errorf("read %d bytes, want %d", len(src.Text), dsl.MaxSourceBytes+1)
	}
	_, diags, err := rulesets.Compile(src)
	if err == nil || !diags.HasErrors() || !strings.Contains(diags[0].Message, "KiB") {
		t.Errorf("Compile of a file past the limit: %v; want the parser's size error", err)
	}
}

func TestCompile(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		ruleset  string // the Program's name, "" for none
		err      string // a substring of the error, "" for none
		warnings int
	}{
		{name: "first of several rulesets", text: twoRulesets, ruleset: "first"},
		{name: "scenarios only", text: "scenario \"s\" {\n  ruleset mesbg\n  side A\n  side B\n}\n", err: "s.rules has no ruleset (only scenarios)"},
		{name: "syntax error", text: "ruleset x {\n  sides two\n}\n", err: "s.rules:2:9"},
		{name: "compile error", text: "ruleset x {\n  sides 2\n  phase p once {\n    order sides as o {\n      highest nosuch\n    }\n  }\n}\n", err: "nosuch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, diags, err := rulesets.Compile(rulesets.Source{Filename: "s.rules", Text: []byte(tt.text)})
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("Compile: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("Compile: %v; want an error with %q", err, tt.err)
			case tt.err != "":
				if p != nil {
					t.Errorf("Compile failed with a Program")
				}
				if ds, ok := errors.AsType[dsl.Diagnostics](err); ok && len(diags) < len(ds) {
					t.Errorf("diagnostics %v leave out errors of %v", diags, ds)
				}
				return
			}
			if p.Name() != tt.ruleset {
				t.Errorf("compiled %s, want %s", p.Name(), tt.ruleset)
			}
			if len(diags) != len(p.Warnings()) {
				t.Errorf("diagnostics %v, want the Program's warnings %v", diags, p.Warnings())
			}
		})
	}
}

// A bundled ruleset loaded without options is compiled once: a Program is
// immutable and a suite loads the same few for every scenario.
func TestLoadCompilesBundledOnce(t *testing.T) {
	a, err := rulesets.Load("necromunda")
	if err != nil {
		t.Fatal(err)
	}
	b, err := rulesets.Load("necromunda")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("two Programs for one bundled ruleset")
	}
	c, err := rulesets.Load("necromunda", runtime.WithLimits(runtime.Limits{MaxRerolls: 5}))
	if err != nil {
		t.Fatal(err)
	}
	if c == a {
		t.Error("a Program compiled with options is the shared one")
	}
}

func TestLoadFS(t *testing.T) {
	fsys := fstest.MapFS{"house/two.rules": {Data: []byte(twoRulesets)}}
	p, err := rulesets.LoadFS(fsys, "house/two.rules")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "first" {
		t.Errorf("loaded %s, want first", p.Name())
	}
	if _, err := rulesets.LoadFS(fsys, "house/none.rules"); err == nil || err.Error() != "house/none.rules: no such file or directory" {
		t.Errorf("LoadFS of a missing file: %v", err)
	}
	if p, err := rulesets.LoadFS(fsys, "agi"); err != nil || p.Name() != "agi" {
		t.Errorf("LoadFS(agi): %v, %v; want the bundled ruleset", p, err)
	}
}

func ExampleLoad() {
	prog, err := rulesets.Load("mesbg") // a bundled name, or the path of a .rules file
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := prog.NewBattle(runtime.Sides("Jay", "Rob"), runtime.WithDice(runtime.NewSeededDice(1)), runtime.WithDecider(runtime.Policy{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := b.PlayRound(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(prog.Name(), "round", res.Round, "holder:", res.Holder)
	// Output: mesbg round 1 holder: Jay
}

func ExampleCompile() {
	src := rulesets.Source{Filename: "house.rules", Text: []byte(`ruleset house {
  sides 2
  phase priority each round {
    order sides as priority {
      highest nosuch
    }
  }
}
`)}
	_, diags, err := rulesets.Compile(src)
	if err != nil {
		fmt.Print(diags.Render(string(src.Text)))
	}
	// Output:
	// house.rules:5:15: error: unknown name nosuch (to use it, declare it in the ruleset: `side attribute nosuch int`)
	//           highest nosuch
	//                   ^
}
