package remoting

import (
	"testing"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
)

func TestGnetLoggerRoutesToLogrus(t *testing.T) {
	logger, hook := test.NewNullLogger()
	logger.SetLevel(logrus.DebugLevel)
	adapter := newGnetLogger(logrus.NewEntry(logger))
	adapter.Debugf("d %d", 1)
	adapter.Infof("i %d", 2)
	adapter.Warnf("w %d", 3)
	adapter.Errorf("e %d", 4)
	adapter.Fatalf("f %d", 5) // must not exit the process
	want := []struct {
		level   logrus.Level
		message string
	}{{logrus.DebugLevel, "d 1"}, {logrus.InfoLevel, "i 2"}, {logrus.WarnLevel, "w 3"}, {logrus.ErrorLevel, "e 4"}, {logrus.ErrorLevel, "f 5"}}
	entries := hook.AllEntries()
	if len(entries) != len(want) {
		t.Fatalf("%d entries, want %d", len(entries), len(want))
	}
	for i, entry := range entries {
		if entry.Level != want[i].level || entry.Message != want[i].message || entry.Data["component"] != "gnet" {
			t.Errorf("entry %d: %v %q %v", i, entry.Level, entry.Message, entry.Data)
		}
	}
	if entries[4].Data["fatal"] != true {
		t.Error("Fatalf entry not marked fatal")
	}
}
