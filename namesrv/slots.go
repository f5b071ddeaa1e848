package namesrv

import "runtime"

// registrationSlots is how many registrations may decode and apply their topic
// table at the same time: one fewer than the processors Go runs on, and at
// least one. A 10,000-topic body takes milliseconds of CPU; with every
// processor busy decoding, an event loop that has route queries to answer
// waits for the scheduler to preempt a decoder (about 10 ms), which is what
// route latency under a registration storm would show. Registrations gain
// nothing from more parallelism: the route tables take one writer at a time.
func registrationSlots() int {
	return max(1, runtime.GOMAXPROCS(0)-1)
}

// slots is a counting semaphore.
type slots chan struct{}

func newSlots(n int) slots { return make(slots, n) }

func (s slots) acquire() { s <- struct{}{} }

func (s slots) release() { <-s }
