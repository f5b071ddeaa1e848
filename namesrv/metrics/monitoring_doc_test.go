package metrics

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// monitoringDoc is docs/monitoring.md, from this package's folder.
var monitoringDoc = filepath.Join("..", "..", "docs", "monitoring.md")

// docRows are the first cells of the rows of docs/monitoring.md's tables
// whose first cell is one code span matching name.
func docRows(t *testing.T, name *regexp.Regexp) []string {
	t.Helper()
	raw, err := os.ReadFile(monitoringDoc)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range strings.Split(string(raw), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || cells[0] != "" {
			continue
		}
		first := strings.TrimSpace(cells[1])
		if m := regexp.MustCompile("^`([^`]+)`$").FindStringSubmatch(first); m != nil && name.MatchString(m[1]) {
			names = append(names, m[1])
		}
	}
	return names
}

// TestMonitoringDocListsEveryMetric: every metric of the rocketmq_namesrv
// namespace a fully wired NameServer exports has one row in
// docs/monitoring.md, and every row names one that exists, so the table
// cannot drift from the code.
func TestMonitoringDocListsEveryMetric(t *testing.T) {
	src := testSources()
	src.EvictionPauses = func() uint64 { return 0 }
	src.Guards = func() GuardCounts { return GuardCounts{} }
	m := New(src, []string{"admin", "lists"}, time.Unix(1000, 0))
	m.Answered(remoting.GET_ROUTEINFO_BY_TOPIC, remoting.SUCCESS, time.Millisecond, 200) // the request families appear once seen
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var exported []string
	for _, f := range families {
		if strings.HasPrefix(f.GetName(), Namespace+"_") {
			exported = append(exported, f.GetName())
		}
	}
	documented := docRows(t, regexp.MustCompile("^"+Namespace+"_"))
	for _, name := range exported {
		if !slices.Contains(documented, name) {
			t.Errorf("%s is exported but has no row in docs/monitoring.md", name)
		}
	}
	for _, name := range documented {
		if !slices.Contains(exported, name) {
			t.Errorf("docs/monitoring.md has a row for %s, which is not exported", name)
		}
	}
	if len(exported) < 50 {
		t.Errorf("only %d metrics gathered: a source is not wired in this test", len(exported))
	}
}

// TestMonitoringDocListsEveryAlert: the alert table names exactly the rules
// of monitoring/prometheus-alerts.yml.
func TestMonitoringDocListsEveryAlert(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "monitoring", "prometheus-alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, m := range regexp.MustCompile(`(?m)^\s*- alert:\s*(\S+)\s*$`).FindAllStringSubmatch(string(raw), -1) {
		rules = append(rules, m[1])
	}
	documented := docRows(t, regexp.MustCompile(`^RocketMQ`))
	slices.Sort(rules)
	slices.Sort(documented)
	if len(rules) == 0 || !slices.Equal(rules, documented) {
		t.Fatalf("alert rules %v, docs/monitoring.md lists %v", rules, documented)
	}
}
