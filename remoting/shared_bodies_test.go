package remoting

import (
	"bytes"
	"testing"
)

// TestSharedBodyChargedOnce: two answers holding one large body count it
// once, their frames each; it is uncounted when the last lets go; a small
// body counts with its answer; past the budget nothing is counted.
func TestSharedBodyChargedOnce(t *testing.T) {
	s := NewServer(ServerConfig{OutboundMemoryLimit: 300 << 10})
	frame, body := []byte("header"), bytes.Repeat([]byte{'b'}, 256<<10)
	first, ok1 := s.chargeAnswer(frame, body, true)
	second, ok2 := s.chargeAnswer(frame, body, true)
	if !ok1 || !ok2 || first == nil || first != second {
		t.Fatalf("charges %v %v, keys %p %p", ok1, ok2, first, second)
	}
	if got, want := s.OutboundHeldBytes(), int64(2*len(frame)+len(body)); got != want {
		t.Fatalf("held %d, want %d (the body once)", got, want)
	}
	if _, ok := s.chargeAnswer(frame, bytes.Clone(body), true); ok {
		t.Fatal("a second 256 KiB body fitted a 300 KiB budget")
	}
	s.unchargeAnswer(frame, body, first)
	if got, want := s.OutboundHeldBytes(), int64(len(frame)+len(body)); got != want {
		t.Fatalf("after one let go: held %d, want %d", got, want)
	}
	s.unchargeAnswer(frame, body, second)
	small := []byte("small body")
	if key, ok := s.chargeAnswer(frame, small, false); key != nil || !ok || s.OutboundHeldBytes() != int64(len(frame)+len(small)) {
		t.Fatalf("small body: key %p, held %d", key, s.OutboundHeldBytes())
	}
	s.unchargeAnswer(frame, small, nil)
	if s.OutboundHeldBytes() != 0 {
		t.Fatalf("held %d once all let go", s.OutboundHeldBytes())
	}
}
