// Package monotime gives times that advance with the monotonic clock only.
// The route manager keeps liveness deadlines as Unix milliseconds; fed with
// time.Now, a wall-clock step (NTP, an operator's date) back would stop
// expiry for its length and a step forward would expire every broker at
// once. A Clock's times start at the wall time of its creation and then move
// exactly as much as the monotonic clock, so deadlines computed from them are
// immune to steps. They are not meant to be shown as dates.
package monotime

import "time"

// Clock is a monotonic time source; the zero value is not usable, use New.
type Clock struct {
	origin time.Time // the wall time of the first reading, no monotonic part
	start  time.Time // the same instant with its monotonic reading
}

// New returns a clock whose first reading is the current wall time.
func New() Clock {
	now := time.Now()
	return Clock{origin: now.Round(0), start: now}
}

// Now is the origin plus the monotonic time elapsed since the clock was made
// (time.Since reads the monotonic clock): it never reads the wall clock again.
func (c Clock) Now() time.Time { return c.origin.Add(time.Since(c.start)) }
