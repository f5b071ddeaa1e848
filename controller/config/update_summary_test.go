package config

import "testing"

func TestUpdateSummary(t *testing.T) {
	old := Default()
	next := old.Clone()
	if got := UpdateSummary(old, next); got != "no key changed" {
		t.Fatalf("unchanged: %q", got)
	}
	next.EnableElectUncleanMaster = true
	next.ScanInactiveMasterInterval = 9000
	want := "changed now: enableElectUncleanMaster; changed, waits for a restart: scanInactiveMasterInterval"
	if got := UpdateSummary(old, next); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
