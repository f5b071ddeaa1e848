package report

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
)

// Point is one mark of a chart series, with an optional label drawn beside it.
type Point struct {
	X, Y  float64
	Label string
}

// Series is one line of a chart.
type Series struct {
	Name  string
	Color string
	// Dash is an SVG stroke-dasharray ("" for a solid line).
	Dash   string
	Width  float64
	Points []Point
}

// Chart is a line chart with a linear X axis and a logarithmic Y axis, the
// shape of a latency-against-load plot, where tails span decades.
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
}

// Chart geometry in SVG user units.
const (
	chartWidth   = 860
	chartHeight  = 480
	marginLeft   = 80
	marginRight  = 200
	marginTop    = 40
	marginBottom = 60
	plotWidth    = chartWidth - marginLeft - marginRight
	plotHeight   = chartHeight - marginTop - marginBottom
)

// percentileStyles are the percentiles a latency chart draws, lightest first.
var percentileStyles = []struct {
	name  string
	value func(Percentiles) float64
	dash  string
	width float64
}{
	{"p50", func(p Percentiles) float64 { return p.P50 }, "", 1.5},
	{"p99", func(p Percentiles) float64 { return p.P99 }, "6 3", 2.5},
	{"p99.9", func(p Percentiles) float64 { return p.P999 }, "2 3", 2},
}

// targetColors tell the servers apart in a chart.
var targetColors = map[string]string{TargetNamesrv: "#1f6fd1", TargetBaseline: "#888888"}

// LatencyChart draws latency percentiles against throughput for every phase
// of the given op, one line per target and percentile, each point labelled
// with its load (connections x in flight).
func LatencyChart(title string, phases []Phase, op string) Chart {
	chart := Chart{Title: title, XLabel: "requests per second (achieved)", YLabel: "latency (microseconds, log scale)"}
	byTarget := map[string][]Phase{}
	var targets []string
	for _, p := range phases {
		if p.Op != op || p.Requests == 0 {
			continue
		}
		if _, seen := byTarget[p.Target]; !seen {
			targets = append(targets, p.Target)
		}
		byTarget[p.Target] = append(byTarget[p.Target], p)
	}
	for _, target := range targets {
		runs := byTarget[target]
		slices.SortStableFunc(runs, func(a, b Phase) int { return cmp.Compare(a.Conns*a.InFlight, b.Conns*b.InFlight) })
		color := cmp.Or(targetColors[target], "#d14d1f")
		for _, style := range percentileStyles {
			series := Series{Name: target + " " + style.name, Color: color, Dash: style.dash, Width: style.width}
			for _, p := range runs {
				series.Points = append(series.Points, Point{X: p.PerSecond, Y: style.value(p.Latency),
					Label: fmt.Sprintf("%dx%d", p.Conns, p.InFlight)})
			}
			chart.Series = append(chart.Series, series)
		}
	}
	return chart
}

// WriteSVG draws the chart as a standalone SVG document.
func WriteSVG(w io.Writer, c Chart) error {
	xMax, yMin, yMax := chartRanges(c)
	xScale := func(x float64) float64 { return marginLeft + x/xMax*plotWidth }
	logMin, logMax := math.Log10(yMin), math.Log10(yMax)
	yScale := func(y float64) float64 {
		y = max(y, yMin)
		return marginTop + plotHeight - (math.Log10(y)-logMin)/(logMax-logMin)*plotHeight
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		chartWidth, chartHeight, chartWidth, chartHeight)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", chartWidth, chartHeight)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", marginLeft, html.EscapeString(c.Title))
	writeAxes(&b, c, xMax, logMin, logMax, xScale, yScale)
	for i, s := range c.Series {
		writeSeries(&b, s, xScale, yScale, i)
	}
	b.WriteString("</svg>\n")
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write svg: %w", err)
	}
	return nil
}

// chartRanges picks axis ranges: X from 0 to a round number above the
// largest point, Y over whole decades around every point.
func chartRanges(c Chart) (xMax, yMin, yMax float64) {
	xMax, yMin, yMax = 1, math.Inf(1), 0
	for _, s := range c.Series {
		for _, p := range s.Points {
			xMax = max(xMax, p.X)
			if p.Y > 0 {
				yMin, yMax = min(yMin, p.Y), max(yMax, p.Y)
			}
		}
	}
	if yMax == 0 {
		yMin, yMax = 1, 10
	}
	return niceCeil(xMax * 1.05), math.Pow(10, math.Floor(math.Log10(yMin))), math.Pow(10, math.Ceil(math.Log10(yMax*1.0001)))
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	magnitude := math.Pow(10, math.Floor(math.Log10(v)))
	for _, step := range []float64{1, 2, 5, 10} {
		if step*magnitude >= v {
			return step * magnitude
		}
	}
	return 10 * magnitude
}

func writeAxes(b *strings.Builder, c Chart, xMax, logMin, logMax float64, xScale, yScale func(float64) float64) {
	bottom, right := float64(marginTop+plotHeight), float64(marginLeft+plotWidth)
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>`+"\n", marginLeft, marginTop, plotWidth, plotHeight)
	for i := 0; i <= 5; i++ {
		x := xMax * float64(i) / 5
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%.1f" stroke="#eee"/>`, xScale(x), marginTop, xScale(x), bottom)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n", xScale(x), bottom+16, formatTick(x))
	}
	for decade := logMin; decade <= logMax+1e-9; decade++ {
		y := math.Pow(10, decade)
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`, marginLeft, yScale(y), right, yScale(y))
		fmt.Fprintf(b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", marginLeft-6, yScale(y)+4, formatTick(y))
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", float64(marginLeft)+plotWidth/2.0, chartHeight-15, html.EscapeString(c.XLabel))
	fmt.Fprintf(b, `<text transform="translate(20,%.1f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", float64(marginTop)+plotHeight/2.0, html.EscapeString(c.YLabel))
}

func writeSeries(b *strings.Builder, s Series, xScale, yScale func(float64) float64, index int) {
	points := make([]string, 0, len(s.Points))
	for _, p := range s.Points {
		points = append(points, fmt.Sprintf("%.1f,%.1f", xScale(p.X), yScale(p.Y)))
	}
	dash := ""
	if s.Dash != "" {
		dash = fmt.Sprintf(` stroke-dasharray="%s"`, s.Dash)
	}
	fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="%.1f"%s points="%s"><title>%s</title></polyline>`+"\n",
		s.Color, cmp.Or(s.Width, 1.5), dash, strings.Join(points, " "), html.EscapeString(s.Name))
	for _, p := range s.Points {
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s %s: %s us at %.0f/s</title></circle>`+"\n",
			xScale(p.X), yScale(p.Y), s.Color, html.EscapeString(s.Name), html.EscapeString(p.Label), FormatMicros(p.Y), p.X)
		if p.Label != "" && index%len(percentileStyles) == len(percentileStyles)-1 {
			fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="10" fill="%s">%s</text>`+"\n",
				xScale(p.X)+4, yScale(p.Y)-6, s.Color, html.EscapeString(p.Label))
		}
	}
	legendY := marginTop + 10 + index*20
	legendX := marginLeft + plotWidth + 15
	fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%.1f"%s/>`, legendX, legendY, legendX+30, legendY, s.Color, cmp.Or(s.Width, 1.5), dash)
	fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", legendX+36, legendY+4, html.EscapeString(s.Name))
}

// formatTick prints an axis value compactly: 1500 as 1.5k, 2000000 as 2M.
func formatTick(v float64) string {
	switch {
	case v >= 1e6:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", v/1e6), ".0") + "M"
	case v >= 1e3:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", v/1e3), ".0") + "k"
	case v >= 1:
		return fmt.Sprintf("%.0f", v)
	default:
		return fmt.Sprintf("%g", v)
	}
}
