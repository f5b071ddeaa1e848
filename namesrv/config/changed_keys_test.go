package config

import (
	"slices"
	"testing"
)

// TestLogLevelBackToItsDefaultIsAChange: logLevel=debug, then logLevel=info
// (the default, which the settings text leaves out) lists logLevel as
// changed both times, so the daemon applies it. Before, the second update
// reported nothing and the server stayed at debug.
func TestLogLevelBackToItsDefaultIsAChange(t *testing.T) {
	s, _ := captureServer(t)
	for _, level := range []string{"debug", "info", "warn", "info"} {
		changed, err := s.Update(map[string]string{"logLevel": level})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(changed, "logLevel") || s.Get().LogLevel != level {
			t.Fatalf("logLevel=%s: changed %v, level %q", level, changed, s.Get().LogLevel)
		}
	}
	if changed, err := s.Update(map[string]string{"logLevel": "info"}); err != nil || len(changed) != 0 {
		t.Fatalf("the same level again: changed %v, %v", changed, err)
	}
}
