package runtime

import (
	"context"
	goruntime "runtime"
	"time"
)

// ctxErr is ctx.Err() for the long loops of odds and simulation, which
// check it now and then. Where goroutines are not preempted (GOARCH=wasm:
// one thread, a goroutine runs until it blocks), the timer of a context's
// deadline fires, and the goroutine that cancels it runs, only when the
// loop lets the scheduler run: there it yields first, so that Odds and
// Simulate, compiled to WebAssembly, end when their context is done.
// A deadline past is seen at once, without waiting for its timer.
func ctxErr(ctx context.Context) error {
	if cooperative {
		goruntime.Gosched()
		if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
			return context.DeadlineExceeded
		}
	}
	return ctx.Err()
}
