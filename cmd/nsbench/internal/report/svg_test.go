package report

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"
)

func routePhases() []Phase {
	var phases []Phase
	for i, load := range [][2]int{{1, 1}, {64, 8}, {64, 1}} {
		for _, target := range []string{TargetNamesrv, TargetBaseline} {
			phases = append(phases, Phase{Scenario: "route", Target: target, Op: "route", Conns: load[0], InFlight: load[1],
				Requests: 1000, PerSecond: float64(10000 * (i + 1)), Latency: Percentiles{P50: 40, P99: 400 + float64(i), P999: 2000}})
		}
	}
	phases = append(phases, Phase{Op: "register", Requests: 5, PerSecond: 1e6}) // another op: not drawn
	return phases
}

func TestLatencyChartSeriesPerTargetAndPercentile(t *testing.T) {
	chart := LatencyChart("route", routePhases(), "route")
	if len(chart.Series) != 2*len(percentileStyles) {
		t.Fatalf("%d series, want %d", len(chart.Series), 2*len(percentileStyles))
	}
	first := chart.Series[0]
	if first.Name != "namesrv p50" || len(first.Points) != 3 {
		t.Fatalf("first series %+v", first)
	}
	// Points go in load order (1x1, 64x1, 64x8), not in the order measured.
	if got := []string{first.Points[0].Label, first.Points[1].Label, first.Points[2].Label}; strings.Join(got, " ") != "1x1 64x1 64x8" {
		t.Fatalf("point order %v", got)
	}
	for _, s := range chart.Series {
		if s.Points[0].X > 1e5 {
			t.Fatalf("the register phase leaked into %s", s.Name)
		}
	}
}

// circles reads the cy of every point of the series with the given name.
func pointYs(t *testing.T, svg []byte, series string) []float64 {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var ys []float64
	var cy float64
	inCircle := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return ys
		}
		if err != nil {
			t.Fatalf("svg is not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local == "circle" {
				inCircle = true
				for _, a := range el.Attr {
					if a.Name.Local == "cy" {
						cy, _ = strconv.ParseFloat(a.Value, 64)
					}
				}
			}
		case xml.CharData:
			if inCircle && strings.HasPrefix(string(el), series+" ") {
				ys = append(ys, cy)
			}
		case xml.EndElement:
			if el.Name.Local == "circle" {
				inCircle = false
			}
		}
	}
}

func TestWriteSVGDrawsHigherLatencyHigherUp(t *testing.T) {
	var out bytes.Buffer
	if err := WriteSVG(&out, LatencyChart("Route <latency>", routePhases(), "route")); err != nil {
		t.Fatal(err)
	}
	svg := out.Bytes()
	if n := bytes.Count(svg, []byte("<polyline")); n != 6 {
		t.Fatalf("%d polylines, want 6", n)
	}
	if !bytes.Contains(svg, []byte("Route &lt;latency&gt;")) || !bytes.Contains(svg, []byte(">baseline p99.9<")) {
		t.Fatal("title must be escaped and every series named in the legend")
	}
	p50, p99 := pointYs(t, svg, "namesrv p50"), pointYs(t, svg, "namesrv p99")
	if len(p50) != 3 || len(p99) != 3 {
		t.Fatalf("points: p50 %v p99 %v", p50, p99)
	}
	for i := range p50 {
		// SVG y grows downwards: a larger latency has a smaller y.
		if p99[i] >= p50[i] {
			t.Fatalf("point %d: p99 at y=%v is not above p50 at y=%v", i, p99[i], p50[i])
		}
	}
}

func TestWriteSVGWithoutData(t *testing.T) {
	var out bytes.Buffer
	if err := WriteSVG(&out, Chart{Title: "empty"}); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(out.Bytes(), new(struct{})); err != nil {
		t.Fatalf("empty chart is not valid XML: %v", err)
	}
}

func TestNiceCeilAndTicks(t *testing.T) {
	for v, want := range map[float64]float64{0.7: 1, 3: 5, 1001: 2000, 45000: 50000, 100: 100} {
		if got := niceCeil(v); got != want {
			t.Errorf("niceCeil(%v) = %v, want %v", v, got, want)
		}
	}
	for v, want := range map[float64]string{1500: "1.5k", 2e6: "2M", 10: "10", 0.1: "0.1", 1000: "1k"} {
		if got := formatTick(v); got != want {
			t.Errorf("formatTick(%v) = %q, want %q", v, got, want)
		}
	}
}
