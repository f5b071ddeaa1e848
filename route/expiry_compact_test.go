package route

import "testing"

func TestDropRetiredKeepsCurrentEntries(t *testing.T) {
	w := newExpiryWheel()
	current := &liveBroker{timeoutMillis: 5000}
	current.lastUpdateMillis.Store(1000)
	retired := &liveBroker{timeoutMillis: 5000, retired: true}
	retired.lastUpdateMillis.Store(1000)
	w.file(current)
	w.file(retired)
	w.dropRetired()
	if w.size() != 1 {
		t.Fatalf("%d entries after dropping the retired one", w.size())
	}
	if got := w.collect(7000, nil); len(got) != 1 || got[0] != current {
		t.Fatalf("collect after dropRetired = %v", got)
	}
}
