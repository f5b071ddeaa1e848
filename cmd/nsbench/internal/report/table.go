package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteTable prints the phases, facts and targets as aligned columns.
func WriteTable(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\ttarget\top\tconns x inflight\treq/s\tp50 us\tp90 us\tp99 us\tp99.9 us\tmax us\terrors\tcpu us/op\tgen us/op\theadroom\t")
	for _, p := range r.Phases {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d x %d\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			p.Scenario, p.Target, p.Op, p.Conns, p.InFlight, p.PerSecond,
			FormatMicros(p.Latency.P50), FormatMicros(p.Latency.P90), FormatMicros(p.Latency.P99),
			FormatMicros(p.Latency.P999), FormatMicros(p.Latency.Max), FormatErrors(p.Errors), FormatOptionalMicros(p.ServerCPUMicrosPerOp),
			FormatOptionalMicros(p.GeneratorCPUMicrosPerOp), FormatHeadroom(p.Headroom))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	for _, f := range r.Facts {
		fmt.Fprintf(w, "%s: %s %s\n", f.Name, formatValue(f.Value), f.Unit)
	}
	for _, t := range r.Targets {
		fmt.Fprintf(w, "[%s] %s: %s\n", metWord(t.Met), t.Goal, t.Measured)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// WriteJSON writes the report as one indented JSON object.
func WriteJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// FormatMicros prints a latency in microseconds with a precision that suits
// its size: 3 significant digits at most, no decimals from 100 on.
func FormatMicros(us float64) string {
	switch {
	case us >= 100:
		return fmt.Sprintf("%.0f", us)
	case us >= 10:
		return fmt.Sprintf("%.1f", us)
	default:
		return fmt.Sprintf("%.2f", us)
	}
}

// FormatErrors prints error counts as "kind=n" pairs in kind order, or "0".
func FormatErrors(errors map[string]uint64) string {
	if len(errors) == 0 {
		return "0"
	}
	parts := make([]string, 0, len(errors))
	for _, kind := range slices.Sorted(maps.Keys(errors)) {
		parts = append(parts, fmt.Sprintf("%s=%d", kind, errors[kind]))
	}
	return strings.Join(parts, ",")
}

// FormatOptionalMicros is FormatMicros, or "-" for a figure not measured (0).
func FormatOptionalMicros(us float64) string {
	if us <= 0 {
		return "-"
	}
	return FormatMicros(us)
}

func formatValue(v float64) string {
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.2f", v)
}

func metWord(met bool) string {
	if met {
		return "met"
	}
	return "NOT met"
}
