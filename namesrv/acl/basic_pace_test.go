package acl

import (
	"errors"
	"net/netip"
	"testing"
	"time"
)

// TestBasicPacerBurstThenRefill: BasicGuessBurst guesses at once, then one
// per BasicGuessRefill; addresses apart, an IPv6 /64 as one.
func TestBasicPacerBurstThenRefill(t *testing.T) {
	var p basicPacer
	now := time.Unix(1000, 0)
	for i := range BasicGuessBurst {
		if !p.take(local, now) {
			t.Fatalf("guess %d refused within the burst", i+1)
		}
	}
	if p.take(local, now) {
		t.Fatal("a guess past the burst was taken")
	}
	if !p.take(other, now) {
		t.Fatal("another address was paced with the first")
	}
	if !p.take(local, now.Add(BasicGuessRefill)) || p.take(local, now.Add(BasicGuessRefill)) {
		t.Fatal("not one guess back per refill period")
	}
	p.giveBack(local, now.Add(BasicGuessRefill))
	if !p.take(local, now.Add(BasicGuessRefill)) {
		t.Fatal("a given-back guess was not there")
	}
	a, b := netip.MustParseAddr("fd00::1"), netip.MustParseAddr("fd00::2")
	for range BasicGuessBurst {
		p.take(a, now)
	}
	if p.take(b, now) {
		t.Fatal("a second address of the same IPv6 /64 was not paced with the first")
	}
}

// TestBasicPacerBounded: the table never holds more than
// BasicPaceAddresses; idle addresses are forgotten to make room, and when
// none is idle the newcomers share one bucket.
func TestBasicPacerBounded(t *testing.T) {
	var p basicPacer
	now := time.Unix(1000, 0)
	addr := func(i int) netip.Addr {
		return netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
	}
	for i := range BasicPaceAddresses + 100 {
		p.take(addr(i), now)
	}
	if n := p.tracked(); n != BasicPaceAddresses {
		t.Fatalf("%d addresses tracked, want %d", n, BasicPaceAddresses)
	}
	for range BasicGuessBurst {
		p.take(addr(BasicPaceAddresses+200), now)
	}
	if p.take(addr(BasicPaceAddresses+300), now) {
		t.Fatal("untracked newcomers do not share the overflow bucket")
	}
	later := now.Add(BasicGuessBurst * BasicGuessRefill)
	if !p.take(addr(BasicPaceAddresses+400), later) || p.tracked() != 1 {
		t.Fatalf("idle addresses not forgotten: %d tracked", p.tracked())
	}
}

// TestCheckBasicPacesWrongSecrets: wrong secrets use up an address's
// guesses, after which even the right one waits; right secrets never count.
func TestCheckBasicPacesWrongSecrets(t *testing.T) {
	c, _ := newTestChecker(t, testFile, Options{Enabled: true})
	for range 3 * BasicGuessBurst {
		if err := c.CheckBasic("userKey1", "userSecret1", local, false); err != nil {
			t.Fatalf("right secret: %v", err)
		}
	}
	for range BasicGuessBurst {
		var d *Denial
		if err := c.CheckBasic("userKey1", "guess123", local, false); !errors.As(err, &d) || d.Reason != SignatureMismatch {
			t.Fatalf("wrong secret: %v", err)
		}
	}
	var d *Denial
	if err := c.CheckBasic("userKey1", "userSecret1", local, false); !errors.As(err, &d) || d.Reason != TooManyGuesses {
		t.Fatalf("after %d wrong secrets: %v, want too_many_guesses", BasicGuessBurst, err)
	}
	if err := c.CheckBasic("userKey1", "userSecret1", other, false); err != nil {
		t.Fatalf("another address: %v", err)
	}
	if c.Denied(AdminRead, TooManyGuesses) != 1 {
		t.Fatalf("denials %+v", c.Denials())
	}
}
