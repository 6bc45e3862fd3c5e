package conformance_test

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/turnorder/turnorder/conformance"
)

func TestSuite(t *testing.T) {
	results, err := conformance.RunFS(context.Background(), conformance.Suite(), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) < 30 {
		t.Errorf("the suite has %d scenarios; want at least 30", len(results))
	}
	for _, r := range results {
		t.Run(r.File+"/"+r.Title, func(t *testing.T) {
			for _, f := range r.Failures {
				t.Error(f)
			}
		})
	}
}

// The README's table counts the scenarios of each file; keep it true.
func TestREADMECounts(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	results, err := conformance.RunFS(context.Background(), conformance.Suite(), conformance.Options{})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range results {
		count[r.File]++
	}
	for file, n := range count {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(file) + "` \\|.*\\| (\\d+) \\|$").FindSubmatch(readme)
		if row == nil {
			t.Errorf("README.md has no row for %s", file)
		} else if string(row[1]) != strconv.Itoa(n) {
			t.Errorf("README.md says %s has %s scenarios; it has %d", file, row[1], n)
		}
	}
}
