//go:build !wasm

package runtime

// cooperative says that goroutines are not preempted: see ctxErr.
const cooperative = false

// cooperativeBit is 1 where goroutines are not preempted: loops that
// check their context do it more often there (see checkEvery).
const cooperativeBit = 0
