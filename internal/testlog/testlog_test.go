package testlog

import (
	"io"
	"testing"

	"github.com/sirupsen/logrus"
)

func TestDiscardWritesNothing(t *testing.T) {
	log := Discard()
	if log.Logger.Out != io.Discard {
		t.Fatalf("output %v, want io.Discard", log.Logger.Out)
	}
}

func TestWarningsShowsOnlyWarningsAndErrors(t *testing.T) {
	log := Warnings()
	if log.Logger.IsLevelEnabled(logrus.InfoLevel) || !log.Logger.IsLevelEnabled(logrus.WarnLevel) {
		t.Fatalf("level %s, want warn", log.Logger.GetLevel())
	}
}
