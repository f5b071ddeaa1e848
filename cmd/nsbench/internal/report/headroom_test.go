package report

import "testing"

func TestFillHeadroom(t *testing.T) {
	phases := []Phase{
		{Scenario: "route", Target: TargetNamesrv, Op: "route", Conns: 64, InFlight: 8, PerSecond: 200},
		{Scenario: "route", Target: TargetBaseline, Op: "route", Conns: 64, InFlight: 8, PerSecond: 500},
		{Scenario: "route", Target: TargetNamesrv, Op: "route", Conns: 64, InFlight: 1, PerSecond: 100},
	}
	FillHeadroom(phases)
	if phases[0].Headroom != 2.5 || phases[1].Headroom != 1 || phases[2].Headroom != 0 {
		t.Fatalf("headroom %v %v %v, want 2.5 1 0", phases[0].Headroom, phases[1].Headroom, phases[2].Headroom)
	}
	if got := FormatHeadroom(phases[0].Headroom); got != "2.50x" {
		t.Fatalf("FormatHeadroom = %q", got)
	}
	if got := FormatHeadroom(0); got != "-" {
		t.Fatalf("FormatHeadroom(0) = %q", got)
	}
}
