package config

import "testing"

func TestUpdateSummary(t *testing.T) {
	for _, tc := range []struct {
		changed []string
		want    string
	}{
		{nil, "no key changed"},
		{[]string{"orderMessageEnable"}, "changed now: orderMessageEnable"},
		{[]string{"listenPort", "orderMessageEnable"}, "changed now: orderMessageEnable; changed, waits for a restart: listenPort"},
	} {
		if got := UpdateSummary(tc.changed); got != tc.want {
			t.Errorf("UpdateSummary(%v) = %q, want %q", tc.changed, got, tc.want)
		}
	}
}
