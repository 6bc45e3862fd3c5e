package main

// The progress line of a long analysis (odds, exact or --sim), drawn on a
// terminal only, and only once the work has taken about a second: a
// quick run should not flicker.

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

const (
	progressDelay = time.Second            // nothing is drawn before
	progressTick  = 250 * time.Millisecond // how often the line is redrawn
)

// progress draws a line on a terminal, and nothing elsewhere.
type progress struct {
	w     io.Writer
	total int
	unit  string // what is counted: "battles", "rounds"
	on    bool
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup

	mu    sync.Mutex
	count int
	drawn bool
	last  string
}

// newProgress starts a progress line on w for total units. Between
// reports, it is redrawn now and then, so that the time elapsed moves
// while a single long step (a round of seven players) works.
func newProgress(w io.Writer, total int, unit string) *progress {
	if lw, ok := w.(*labelWriter); ok {
		// Standard error coloured for diagnostics: the line is not one,
		// and must not count as a line begun.
		w = lw.w
	}
	p := &progress{w: w, total: total, unit: unit, on: isTTY(w), start: time.Now()}
	if !p.on {
		return p
	}
	p.stop = make(chan struct{})
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressTick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// set reports the units done so far.
func (p *progress) set(done int) {
	if !p.on {
		return
	}
	p.mu.Lock()
	p.count = done
	p.mu.Unlock()
}

func (p *progress) draw() {
	elapsed := time.Since(p.start)
	if elapsed < progressDelay {
		return
	}
	line := progressLine(p.count, p.total, p.unit, elapsed)
	if line == p.last {
		return
	}
	p.last, p.drawn = line, true
	fmt.Fprintf(p.w, "\r\033[K%s", line)
}

// done stops the line and clears it.
func (p *progress) done() {
	if !p.on {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// progressLine is the line drawn after elapsed, with done of total units
// done: a bar, the count, the rate and the time left, estimated from the
// rate so far (none before the first unit is done).
func progressLine(done, total int, unit string, elapsed time.Duration) string {
	const width = 30
	done = min(max(done, 0), total)
	pct := 0
	if total > 0 {
		pct = done * 100 / total
	}
	n := pct * width / 100
	line := fmt.Sprintf("[%s%s] %3d%% %d/%d %s", strings.Repeat("=", n), strings.Repeat(" ", width-n), pct, done, total, unit)
	secs := elapsed.Seconds()
	if done == 0 || secs <= 0 {
		return line + fmt.Sprintf(", %s elapsed", elapsed.Round(time.Second))
	}
	rate := float64(done) / secs
	line += ", " + rateString(rate) + " " + unit + "/s"
	if done < total {
		left := time.Duration(float64(total-done) / rate * float64(time.Second))
		line += ", ETA " + left.Round(time.Second).String()
	}
	return line
}

// rateString keeps about three significant figures: 12300, 123, 12.3, 1.23.
func rateString(r float64) string {
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0f", r)
	case r >= 10:
		return fmt.Sprintf("%.1f", r)
	default:
		return fmt.Sprintf("%.2f", r)
	}
}
