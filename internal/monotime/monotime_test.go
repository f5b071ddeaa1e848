package monotime

import (
	"testing"
	"time"
)

// TestNowIgnoresTheWallClock: a clock whose origin is far from the current
// wall time (as the wall clock is after someone steps it by years) keeps
// counting from its origin; a clock reading the wall clock would jump to it.
func TestNowIgnoresTheWallClock(t *testing.T) {
	origin := time.UnixMilli(1_000_000)
	c := Clock{origin: origin, startNanos: Nanotime()}
	time.Sleep(20 * time.Millisecond)
	elapsed := c.Now().Sub(origin)
	if elapsed < 20*time.Millisecond || elapsed > 10*time.Second {
		t.Fatalf("20 ms after its start the clock is %s past its origin", elapsed)
	}
	if a, b := c.Now(), c.Now(); b.UnixMilli() < a.UnixMilli() {
		t.Fatalf("readings went back: %d then %d", a.UnixMilli(), b.UnixMilli())
	}
}

func TestNewStartsAtTheWallTime(t *testing.T) {
	c := New()
	if d := time.Until(c.Now()); d > time.Second || d < -time.Second {
		t.Fatalf("a new clock reads %s away from the wall time", d)
	}
}

func TestAtIsNowForTheSameReading(t *testing.T) {
	c := New()
	before := c.Now()
	reading := Nanotime()
	after := c.Now()
	at := c.At(reading)
	if at.Before(before) || at.After(after) {
		t.Fatalf("At(a reading taken between two Now calls) = %v, outside [%v, %v]", at, before, after)
	}
	if got := c.At(reading + int64(time.Second)).Sub(at); got != time.Second {
		t.Fatalf("a reading 1 s later is %s later", got)
	}
}
