// Package monotime gives times that advance with the monotonic clock only.
// The route manager keeps liveness deadlines as Unix milliseconds; fed with
// time.Now, a wall-clock step (NTP, an operator's date) back would stop
// expiry for its length and a step forward would expire every broker at
// once. A Clock's times start at the wall time of its creation and then move
// exactly as much as the monotonic clock, so deadlines computed from them are
// immune to steps. They are not meant to be shown as dates.
package monotime

import (
	"time"
	_ "unsafe" // for go:linkname
)

// Clock is a monotonic time source; the zero value is not usable, use New.
type Clock struct {
	origin     time.Time // the wall time of the first reading, no monotonic part
	startNanos int64     // Nanotime at the same instant
}

// New returns a clock whose first reading is the current wall time.
func New() Clock {
	return Clock{origin: time.Now().Round(0), startNanos: Nanotime()}
}

// Now is the origin plus the monotonic time elapsed since the clock was
// made: it never reads the wall clock again.
func (c Clock) Now() time.Time { return c.At(Nanotime()) }

// At is the clock's time at nanos, a reading of Nanotime the caller took:
// a hot path that reads the clock anyway (the remoting fast path times every
// answer) passes that reading on instead of reading the clock twice, which
// on a virtual machine was 4% of a heartbeat's server CPU.
func (c Clock) At(nanos int64) time.Time { return c.origin.Add(time.Duration(nanos - c.startNanos)) }

// Nanotime is the runtime's monotonic clock in nanoseconds: one clock read,
// where time.Now takes two (wall and monotonic). Only differences between
// readings mean anything.
//
//go:linkname Nanotime runtime.nanotime
func Nanotime() int64
