package namesrv

import (
	"runtime"
	"testing"

	"github.com/sirupsen/logrus"
)

const startSummary = "name server started (start summary, logged at warn so every log level keeps it)"

// TestStartSummaryKeptAtWarnLevel reproduces an operator trap of issue 13:
// at -log-level warn nothing recorded the listen address, and no line gave
// the config file and the limits in effect. Now one warn line does.
func TestStartSummaryKeptAtWarnLevel(t *testing.T) {
	s := startServer(t, nil)
	var summary *logrus.Entry
	for _, e := range s.hook.AllEntries() {
		if e.Message == startSummary {
			if summary != nil {
				t.Fatal("the start summary was logged twice")
			}
			summary = e
		}
	}
	if summary == nil || summary.Level > logrus.WarnLevel {
		t.Fatalf("no start summary at warn level or above: %+v", summary)
	}
	if summary.Data["address"] != s.addr() {
		t.Errorf("summary address %v, want %s", summary.Data["address"], s.addr())
	}
	for _, key := range []string{"configFile", "configStorePath", "kvConfigPath", "frameMaxLength", "requestMemoryLimit",
		"maxConnections", "connectionOutboundSoftLimit", "connectionOutboundHardLimit"} {
		if _, ok := summary.Data[key]; !ok {
			t.Errorf("summary lacks %s: %v", key, summary.Data)
		}
	}
	if got, want := summary.Data["maxConnections"], s.ns.server.MaxConnections(); got != want {
		t.Errorf("summary maxConnections %v, want the cap in effect %d", got, want)
	}
	// defaultThreadPoolNums is what was configured; registrationWorkers is
	// what runs: never more than the processors less one (at least 1).
	configured := s.ns.settings.Get().DefaultThreadPoolNums
	if got, want := summary.Data["registrationWorkers"], max(1, min(configured, runtime.GOMAXPROCS(0)-1)); got != want {
		t.Errorf("summary registrationWorkers %v, want the workers started for %d configured on %d processors: %d",
			got, configured, runtime.GOMAXPROCS(0), want)
	}
}
