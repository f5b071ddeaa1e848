package report

import "fmt"

// FillHeadroom sets every phase's Headroom: the rate the same scenario and
// op reached against the baseline at the same load, over the phase's own
// rate. A phase with no such baseline phase keeps 0.
func FillHeadroom(phases []Phase) {
	for i := range phases {
		p := &phases[i]
		if p.PerSecond <= 0 {
			continue
		}
		for _, b := range phases {
			if b.Target == TargetBaseline && b.Scenario == p.Scenario && b.Op == p.Op &&
				b.Conns == p.Conns && b.InFlight == p.InFlight {
				p.Headroom = b.PerSecond / p.PerSecond
				break
			}
		}
	}
}

// FormatHeadroom prints a headroom as "1.52x", or "-" when unknown.
func FormatHeadroom(h float64) string {
	if h <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", h)
}
