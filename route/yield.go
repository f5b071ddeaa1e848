package route

import "runtime"

// yieldEvery is how many topics a registration decodes or applies between
// two offers of its processor to other goroutines (yielder). The
// registration workers run a 2 MB body's decode and apply (tens of
// milliseconds) without a blocking call, and Go's scheduler takes a
// processor from a running goroutine only every 10 ms: on 2 cores, with
// one worker and two event loops, a loop coming back from epoll_wait
// waited that long for a processor while a worker decoded, and route
// queries with it (issue 22). 512 topics are ~0.3-0.6 ms of decoding; an
// offer with nothing else to run costs ~100 ns.
const yieldEvery = 512

// yielder offers the processor every yieldEvery calls of tick.
type yielder struct{ n int }

func (y *yielder) tick() {
	if y.n++; y.n%yieldEvery == 0 {
		runtime.Gosched()
	}
}
