package route

import "testing"

func liveAt(lastMillis, timeoutMillis int64) *liveBroker {
	entry := &liveBroker{timeoutMillis: timeoutMillis}
	entry.lastUpdateMillis.Store(lastMillis)
	return entry
}

func TestExpiryWheelCollectsOnlyPastDeadlines(t *testing.T) {
	w := newExpiryWheel()
	early, exact, late := liveAt(0, 1000), liveAt(500, 1000), liveAt(5000, 1000)
	for _, e := range []*liveBroker{early, exact, late} {
		w.file(e)
	}
	// deadline < now is expired, deadline == now is not (Java: last + timeout < now)
	got := w.collect(1500, nil)
	if len(got) != 1 || got[0] != early {
		t.Fatalf("collect(1500) = %v", got)
	}
	got = w.collect(1501, nil)
	if len(got) != 1 || got[0] != exact {
		t.Fatalf("collect(1501) = %v", got)
	}
	if w.size() != 1 {
		t.Fatalf("wheel keeps %d entries, want 1", w.size())
	}
}

func TestExpiryWheelRefilesRefreshedAndDropsRetired(t *testing.T) {
	w := newExpiryWheel()
	refreshed, retired := liveAt(0, 1000), liveAt(0, 1000)
	w.file(refreshed)
	w.file(retired)
	refreshed.lastUpdateMillis.Store(9000) // a heartbeat
	retired.retired = true
	if got := w.collect(2000, nil); len(got) != 0 {
		t.Fatalf("collect = %v, want nothing", got)
	}
	if w.size() != 1 {
		t.Fatalf("wheel size = %d, want the refiled entry only", w.size())
	}
	if got := w.collect(10001, nil); len(got) != 1 || got[0] != refreshed {
		t.Fatalf("refiled entry not collected: %v", got)
	}
}

func TestFloorDiv(t *testing.T) {
	for _, c := range []struct{ a, b, want int64 }{{7, 2, 3}, {-7, 2, -4}, {-8, 2, -4}, {0, 5, 0}} {
		if got := floorDiv(c.a, c.b); got != c.want {
			t.Fatalf("floorDiv(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
