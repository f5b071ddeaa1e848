package quiet

import (
	"testing"
	"time"
)

// TestEvictClosesTheOldestStillQuiet: the oldest entry that has not spoken
// and is older than the cutoff is closed; ones that spoke are skipped and
// dropped, younger ones are left, removed ones are never closed.
func TestEvictClosesTheOldestStillQuiet(t *testing.T) {
	var q Queue
	base := time.Unix(1000, 0)
	closed := map[string]int{}
	add := func(name string, at int, spoke *bool) *Entry {
		var f func() bool
		if spoke != nil {
			f = func() bool { return *spoke }
		}
		return q.Add(base.Add(time.Duration(at)*time.Second), f, func() { closed[name]++ })
	}
	yes, no := true, false
	add("spoke", 0, &yes)
	removed := add("removed", 1, nil)
	add("old", 2, &no)
	add("young", 10, nil)
	q.Remove(removed)
	q.Remove(removed) // twice is fine
	if !q.Evict(base.Add(5 * time.Second)) {
		t.Fatal("nothing evicted")
	}
	if closed["old"] != 1 || closed["spoke"] != 0 || closed["removed"] != 0 || closed["young"] != 0 {
		t.Fatalf("closed %v, want only old", closed)
	}
	if q.Evict(base.Add(5 * time.Second)) {
		t.Fatalf("evicted a connection younger than the cutoff: %v", closed)
	}
	if q.Len() != 1 || q.Evicted() != 1 {
		t.Fatalf("len %d evicted %d, want 1 and 1", q.Len(), q.Evicted())
	}
	if !q.Evict(base.Add(11*time.Second)) || closed["young"] != 1 || q.Len() != 0 {
		t.Fatalf("young not evicted past its age: %v", closed)
	}
}
