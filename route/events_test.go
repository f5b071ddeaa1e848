package route

import (
	"slices"
	"testing"
)

func TestMinBrokerIDChangeRecipients(t *testing.T) {
	addrs := map[int64]string{0: "m", 1: "s1", 2: "s2"}
	registration := newMinBrokerIDChange("b", addrs, "", "ha")
	if !slices.Equal(registration.Recipients, []string{"s1", "s2"}) || registration.MinBrokerAddr != "m" {
		t.Fatalf("registration: %+v", registration)
	}
	unregistration := newMinBrokerIDChange("b", addrs, "gone", "")
	if !slices.Equal(unregistration.Recipients, []string{"m", "s1", "s2"}) {
		t.Fatalf("unregistration: %+v", unregistration)
	}
	alone := newMinBrokerIDChange("b", map[int64]string{3: "x"}, "", "ha")
	if !slices.Equal(alone.Recipients, []string{"x"}) || alone.MinBrokerID != 3 {
		t.Fatalf("single member: %+v", alone)
	}
}
