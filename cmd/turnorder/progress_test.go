package main

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// The progress line: the count, and once a unit is done, the rate and the
// time left at that rate.
func TestProgressLine(t *testing.T) {
	for _, tt := range []struct {
		done, total int
		unit        string
		elapsed     time.Duration
		want        string
	}{
		{0, 10, "rounds", 1500 * time.Millisecond, "[                              ]   0% 0/10 rounds, 2s elapsed"},
		{2, 10, "rounds", 4 * time.Second, "[======                        ]  20% 2/10 rounds, 0.50 rounds/s, ETA 16s"},
		{4500, 10000, "battles", 3 * time.Second, "[=============                 ]  45% 4500/10000 battles, 1500 battles/s, ETA 4s"},
		{150, 1000, "battles", 10 * time.Second, "[====                          ]  15% 150/1000 battles, 15.0 battles/s, ETA 57s"},
		{1, 200, "rounds", 2 * time.Second, "[                              ]   0% 1/200 rounds, 0.50 rounds/s, ETA 6m38s"},
		// Done: no time left to guess.
		{10, 10, "rounds", 5 * time.Second, "[==============================] 100% 10/10 rounds, 2.00 rounds/s"},
		// A count past the total (a last report rounded up) stays in the bar.
		{12, 10, "rounds", 5 * time.Second, "[==============================] 100% 10/10 rounds, 2.00 rounds/s"},
	} {
		if got := progressLine(tt.done, tt.total, tt.unit, tt.elapsed); got != tt.want {
			t.Errorf("progressLine(%d, %d, %q, %v) =\n%q, want\n%q", tt.done, tt.total, tt.unit, tt.elapsed, got, tt.want)
		}
	}
}

// Off a terminal nothing is drawn, however long the run.
func TestProgressOffTerminal(t *testing.T) {
	var b testWriter
	p := newProgress(&b, 10, "rounds")
	p.start = p.start.Add(-time.Minute)
	p.set(3)
	p.done()
	if b.n != 0 {
		t.Errorf("%d bytes drawn off a terminal", b.n)
	}
}

type testWriter struct{ n int }

func (w *testWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// On a terminal, a run past the delay gets its line, and the line is
// cleared when the run ends; a run under it draws nothing.
func TestProgressOnTerminal(t *testing.T) {
	saved := isTTY
	isTTY = func(any) bool { return true }
	t.Cleanup(func() { isTTY = saved })

	var quick strings.Builder
	p := newProgress(&lockedWriter{w: &quick}, 10, "rounds")
	p.set(10)
	p.done()
	if quick.Len() != 0 {
		t.Errorf("a quick run drew %q", quick.String())
	}

	var slow strings.Builder
	w := &lockedWriter{w: &slow}
	p = newProgress(w, 10, "rounds")
	p.mu.Lock()
	p.start = p.start.Add(-4 * time.Second)
	p.count = 2
	p.draw()
	p.mu.Unlock()
	p.done()
	w.mu.Lock()
	defer w.mu.Unlock()
	if got := slow.String(); !strings.HasPrefix(got, "\r\033[K[======") || !strings.Contains(got, " 2/10 rounds, ") ||
		!strings.Contains(got, " rounds/s, ETA ") || !strings.HasSuffix(got, "\r\033[K") {
		t.Errorf("a slow run drew %q", got)
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}
