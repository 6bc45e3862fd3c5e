package conformance_test

import (
	"context"
	"testing"

	"github.com/turnorder/turnorder/conformance"
)

func TestSuite(t *testing.T) {
	results, err := conformance.RunFS(context.Background(), conformance.Suite, conformance.Options{})
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
