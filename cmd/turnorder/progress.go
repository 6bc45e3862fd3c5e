package main

// The progress bar of a long simulation, drawn on a terminal only.

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// progress draws a bar on a terminal, and nothing elsewhere.
type progress struct {
	w     io.Writer
	total int
	on    bool
	last  int
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

func (p *progress) set(done int) {
	if !p.on {
		return
	}
	pctDone := done * 100 / p.total
	if pctDone == p.last {
		return
	}
	p.last = pctDone
	const width = 40
	n := pctDone * width / 100
	fmt.Fprintf(p.w, "\r[%s%s] %3d%% %d/%d", strings.Repeat("=", n), strings.Repeat(" ", width-n), pctDone, done, p.total)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
