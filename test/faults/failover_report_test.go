package faults

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The failover figures' verdicts follow the targets (p99, failed trials,
// the split brain's stale reads and exit), and the section goes before the
// broker section of the page, then is replaced in place.
func TestFailoverFiguresJudgeTheTargetsAndReplaceTheirSection(t *testing.T) {
	fast := failoverCase{name: "kill", layout: "l", fault: "f", target: time.Second, targetText: "p99 < 1 s"}
	split := fast
	split.name, split.splitBrain, split.target = "split", true, 11*time.Second
	ok := func(d time.Duration) trialResult { return trialResult{newMaster: d, oldOut: d, elected: d / 2} }
	cases := []struct {
		f    caseFigures
		want bool
	}{
		{caseFigures{c: fast, results: []trialResult{ok(100 * time.Millisecond), ok(900 * time.Millisecond)}}, true},
		{caseFigures{c: fast, results: []trialResult{ok(100 * time.Millisecond), ok(1200 * time.Millisecond)}}, false},
		{caseFigures{c: fast, results: []trialResult{ok(100 * time.Millisecond), {failed: "none"}}}, false},
		{caseFigures{c: fast, results: []trialResult{ok(100 * time.Millisecond)}, aborted: "after 1 trials"}, false},
		{caseFigures{c: fast}, false},
		{caseFigures{c: split, results: []trialResult{ok(9 * time.Second), ok(10 * time.Second)}}, true},
		{caseFigures{c: split, results: []trialResult{ok(9 * time.Second), {newMaster: time.Second, oldOut: -1}}}, false},
		{caseFigures{c: split, results: []trialResult{ok(9 * time.Second), {newMaster: time.Second, oldOut: time.Second, stale: 1}}}, false},
	}
	for i, c := range cases {
		if met, _, _, _, notes := c.f.judge(); met != c.want {
			t.Errorf("case %d: met %v, want %v (%s)", i, met, c.want, notes)
		}
	}
	if _, p50, p99, worst, _ := cases[1].f.judge(); p50 != 1200*time.Millisecond || p99 != 1200*time.Millisecond || worst != 1200*time.Millisecond {
		t.Errorf("p50 %s p99 %s max %s of 100 ms and 1.2 s", p50, p99, worst)
	}

	path := filepath.Join(t.TempDir(), "controller.md")
	if err := os.WriteFile(path, []byte("# Controller\n\n## Figures\n\nx\n\n## Our broker in controller mode\n\ny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{failoverTable([]caseFigures{cases[0].f}), failoverTable([]caseFigures{cases[1].f})} {
		if err := writeFailoverSection(path, 2, table); err != nil {
			t.Fatal(err)
		}
	}
	page, _ := os.ReadFile(path)
	got := string(page)
	if strings.Count(got, "## Failover figures") != 1 || !strings.Contains(got, "**not met**") || strings.Contains(got, "| met |") ||
		!strings.Contains(got, failoverBlock.End+"\n\n## Our broker in controller mode") || !strings.HasSuffix(got, "y\n") {
		t.Fatalf("page after two writes:\n%s", got)
	}
}
