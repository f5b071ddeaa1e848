package logsetup

import (
	"testing"

	"github.com/sirupsen/logrus"
)

func TestNewSetsFormatLevelAndService(t *testing.T) {
	defer logrus.StandardLogger().SetLevel(logrus.GetLevel())
	entry, err := New("json", "warn", "svc")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := entry.Logger.Formatter.(*logrus.JSONFormatter); !ok || entry.Logger.Level != logrus.WarnLevel || entry.Data["service"] != "svc" {
		t.Fatalf("logger %T %v %v", entry.Logger.Formatter, entry.Logger.Level, entry.Data)
	}
	if _, err := New("xml", "", "svc"); err == nil {
		t.Error("format xml accepted")
	}
	if _, err := New("text", "loud", "svc"); err == nil {
		t.Error("level loud accepted")
	}
	if entry, _ := New("", "", "svc"); entry.Logger.Level != logrus.InfoLevel {
		t.Errorf("default level %v", entry.Logger.Level)
	}
}
