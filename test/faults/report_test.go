package faults

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// row is one fault of docs/reliability.md.
type row struct {
	order    int
	test     string
	fault    string
	injected string
	observed []string
	figures  []string
	verdict  string
	ci       bool // in the short form that make test runs
}

var (
	reportMu sync.Mutex
	rows     []*row
)

// record starts the report row of the running test; its verdict is set when
// the test ends (pass, fail, or skipped with the reason).
func record(t *testing.T, order int, fault, injected string) *row {
	r := &row{order: order, test: t.Name(), fault: fault, injected: injected, ci: !fullOnlyCase[t.Name()]}
	t.Cleanup(func() {
		reportMu.Lock()
		defer reportMu.Unlock()
		switch {
		case t.Skipped():
			r.verdict = "skipped"
		case t.Failed():
			r.verdict = "**fail**"
		default:
			r.verdict = "pass"
		}
		rows = append(rows, r)
	})
	return r
}

// observe adds what was seen (also logged, so a failing test shows it).
func (r *row) observe(t *testing.T, format string, args ...any) {
	t.Helper()
	s := fmt.Sprintf(format, args...)
	t.Log(s)
	reportMu.Lock()
	r.observed = append(r.observed, s)
	reportMu.Unlock()
}

// figure adds a measured value.
func (r *row) figure(t *testing.T, name, value string) {
	t.Helper()
	t.Logf("%s: %s", name, value)
	reportMu.Lock()
	r.figures = append(r.figures, name+": "+value)
	reportMu.Unlock()
}

// skip records why the case could not run and skips it; r may be nil (a
// test outside the report, the failover bench).
func (r *row) skip(t *testing.T, why string) {
	t.Helper()
	if r != nil {
		r.observe(t, "not run: %s", why)
	}
	t.Skip(why)
}

// writeReport writes docs/reliability.md from the rows of this run.
func writeReport(path string) error {
	reportMu.Lock()
	defer reportMu.Unlock()
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].order < rows[j].order })
	var b strings.Builder
	host, _ := os.Hostname()
	fmt.Fprintf(&b, "# Reliability: the fault suite\n\n")
	fmt.Fprintf(&b, "Written by `make faults` (`test/faults`, every case with `FAULTS_FULL=1`) on %s, %s, %d CPUs, %s.\n",
		time.Now().UTC().Format("2006-01-02 15:04 MST"), host, runtime.NumCPU(), runtime.Version())
	b.WriteString("Each case starts the real `cmd/namesrv` and `cmd/broker` binaries on loopback (or in network namespaces it\n" +
		"creates), injects one fault and checks what the routes, the KV store and the clients see. Brokers announce a\n" +
		"3 s heartbeat timeout and send BROKER_HEARTBEAT every second, register every second; NameServers scan every\n" +
		"second (`-scanNotActiveBrokerInterval 1000`). Figures are from a shared 2-core machine: read them as orders of\n" +
		"magnitude. A case passes when what the issue promises holds: for the floods, every route query answered within\n" +
		"2 s and the server's RSS under its bound in operations.md, Limits (the p99 is reported, not judged). The short form that\n" +
		"`make test` (CI) runs is marked in the test column.\n\n")
	pass, fail, skipped := 0, 0, 0
	for _, r := range rows {
		switch r.verdict {
		case "pass":
			pass++
		case "skipped":
			skipped++
		default:
			fail++
		}
	}
	fmt.Fprintf(&b, "**%d passed, %d failed, %d skipped.**\n\n", pass, fail, skipped)
	b.WriteString("| fault | injected | observed | figures | result | test |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range rows {
		ci := ""
		if r.ci {
			ci = " (CI)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | `%s`%s |\n", cell(r.fault), cell(r.injected),
			cell(strings.Join(r.observed, "; ")), cell(strings.Join(r.figures, "; ")), r.verdict, r.test, ci)
	}
	b.WriteString("\nThe soak checker is not part of this page: `make soak DURATION=10m` prints its counts and violations.\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	if s == "" {
		return "—"
	}
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}
