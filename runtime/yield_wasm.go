//go:build wasm

package runtime

// cooperative says that goroutines are not preempted: see ctxErr.
const cooperative = true

// cooperativeBit is 1 where goroutines are not preempted: loops that
// check their context do it more often there (see checkEvery).
const cooperativeBit = 1
