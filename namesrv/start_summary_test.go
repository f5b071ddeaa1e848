package namesrv

import (
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
}
