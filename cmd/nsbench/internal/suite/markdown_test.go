package suite

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
)

func TestWriteMarkdownHasEverySection(t *testing.T) {
	r := fullRun(1)
	r.Started = time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	r.Machine = proc.Machine{CPUModel: "Test CPU", CPUs: 2, MemoryMiB: 4096, Kernel: "6.1", GoVersion: "go1.26", OS: "linux/amd64"}
	r.Notes = []string{"shared cores"}
	r.Targets = Evaluate(r, goBenchFast, 10000)
	r.Phases[0].Errors = map[string]uint64{"a|b": 1}
	var out bytes.Buffer
	err := WriteMarkdown(&out, Page{Report: r, GoBenchOutput: sampleGoBench, ChartFile: "route-latency.svg", Commands: []string{"make bench"}})
	if err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{
		"# Performance", "2026-01-02 03:04 UTC", "Test CPU, 2 logical CPUs", "- shared cores",
		"## Targets (21 of 21 met)", "## Route queries", "## Route queries with ACL", "acl-signed-r1", "## Route queries over TLS", "tls-on-r1", "![Route latency", "(route-latency.svg)",
		"## Heartbeats", "## Registrations", "## Java JMH shapes", "jmh-route storm",
		"## Memory and sizes", "## In-process benchmarks", "BenchmarkHeartbeat-2", "```sh\nmake bench\n```",
		"## Method", "notes/performance-notebook.md", `a\|b=1`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Every table row has as many cells as its header.
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "| route |") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 16 {
			t.Errorf("row with the wrong number of cells: %s", line)
		}
	}
}
