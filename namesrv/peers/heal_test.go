package peers

import (
	"reflect"
	"testing"
	"time"
)

// A difference is healing until it has been seen for the window, then
// lasting; one no longer seen is forgotten, so it starts again if it comes
// back; a peer that is not up or leaves the list is forgotten too.
func TestHealTrackerClassifies(t *testing.T) {
	var h healTracker
	t0 := time.Unix(1000, 0)
	broker := difference{differenceKinds[1], "DefaultCluster/broker-a/0=10.0.0.1:10911"}
	topic := difference{differenceKinds[2], "TopicA"}
	window := 40 * time.Second
	if lasting, healing := h.classify("p", []difference{broker}, t0, window); len(lasting) != 0 || len(healing) != 1 {
		t.Fatalf("first sight: lasting %v healing %v", lasting, healing)
	}
	lasting, healing := h.classify("p", []difference{broker, topic}, t0.Add(window), window)
	if !reflect.DeepEqual(lasting, []difference{broker}) || !reflect.DeepEqual(healing, []difference{topic}) {
		t.Fatalf("after the window: lasting %v healing %v", lasting, healing)
	}
	h.classify("p", []difference{topic}, t0.Add(window+time.Second), window) // the broker healed
	if lasting, _ := h.classify("p", []difference{broker, topic}, t0.Add(2*window), window); !reflect.DeepEqual(lasting, []difference{topic}) {
		t.Fatalf("a difference seen again starts again: lasting %v", lasting)
	}
	h.keep(map[string]bool{})
	if lasting, _ := h.classify("p", []difference{topic}, t0.Add(3*window), window); len(lasting) != 0 {
		t.Fatalf("a peer left the list kept its memory: lasting %v", lasting)
	}
	if lasting, _ := h.classify("p", []difference{topic}, t0.Add(3*window), 0); len(lasting) != 1 {
		t.Fatal("a window of 0 does not count every difference at once")
	}
}

func TestLinesNameTheItemsByKind(t *testing.T) {
	diffs := []difference{{differenceKinds[3], "T1"}, {differenceKinds[1], "c/b/0=a:1"}, {differenceKinds[1], "c/b/1=a:2"},
		{differenceKinds[1], "c/b/2=a:3"}, {differenceKinds[1], "c/b/3=a:4"}}
	want := []string{"4 broker addresses only there: c/b/0=a:1, c/b/1=a:2, c/b/2=a:3, …", "1 topics only there: T1"}
	if got := lines(diffs); !reflect.DeepEqual(got, want) {
		t.Fatalf("lines = %q, want %q", got, want)
	}
}
