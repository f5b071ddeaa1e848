package latest

import (
	"slices"
	"testing"
)

func TestMailboxKeepsTheNewestValueOfEachKeyInOrder(t *testing.T) {
	b := New[string, int](2)
	if !b.Put("a", 1) || !b.Put("b", 2) || !b.Put("a", 3) {
		t.Fatal("a put within the limit was dropped")
	}
	if b.Put("c", 4) {
		t.Fatal("a third key past the limit of 2 was kept")
	}
	select {
	case <-b.Ready():
	default:
		t.Fatal("no signal after a put")
	}
	if got := b.Take(); !slices.Equal(got, []int{3, 2}) {
		t.Fatalf("Take %v, want [3 2] (a's newest first, as a was put first)", got)
	}
	if got := b.Take(); len(got) != 0 {
		t.Fatalf("a second Take found %v", got)
	}
	if !b.Put("c", 5) {
		t.Fatal("an emptied mailbox refused a key")
	}
}

func TestServeHandsEachPutValueOverUntilDone(t *testing.T) {
	b := New[string, int](4)
	got := make(chan int, 4)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() { defer close(stopped); b.Serve(done, func(v int) { got <- v }) }()
	b.Put("a", 1)
	if v := <-got; v != 1 {
		t.Fatalf("served %d, want 1", v)
	}
	b.Put("b", 2)
	if v := <-got; v != 2 {
		t.Fatalf("served %d, want 2", v)
	}
	close(done)
	<-stopped
}
