package config

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// TestUpdateNeverWritesCommandLineValuesIntoTheFile: started with -c and
// flags that override the file (a protected key among them), an update
// writes the file's own values of the flagged keys, leaves out a flagged key
// the file did not have, and writes what the update itself set, a flagged
// key included. Before, the flags' values were written into the -c file and
// applied at every later start.
func TestUpdateNeverWritesCommandLineValuesIntoTheFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "namesrv.properties")
	content := "listenPort=19876\nkvConfigPath=" + filepath.Join(dir, "kv.json") + "\norderMessageEnable=false\nmyOwnKey=kept\n"
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := FromArgs([]string{"-c", file, "-listenPort", "19999", "-scanNotActiveBrokerInterval", "1000",
		"-orderMessageEnable=true", "-bindAddress", "127.0.0.1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ListenPort != 19999 || cfg.ScanNotActiveBrokerInterval != 1000 {
		t.Fatalf("flags not applied: %d %d", cfg.ListenPort, cfg.ScanNotActiveBrokerInterval)
	}
	s := NewSettings(cfg, testlog.Discard())
	if _, err := s.Update(map[string]string{"supportActingMaster": "true", "orderMessageEnable": "true"}); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	written, err := javaprops.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"listenPort": "19876", "orderMessageEnable": "true", "supportActingMaster": "true", "myOwnKey": "kept"}
	for key, value := range want {
		if written[key] != value {
			t.Errorf("%s=%q in the file, want %q", key, written[key], value)
		}
	}
	for _, key := range []string{"scanNotActiveBrokerInterval", "bindAddress"} {
		if value, ok := written[key]; ok {
			t.Errorf("the command line's %s=%s was written into the -c file", key, value)
		}
	}
	if s.Get().ListenPort != 19999 {
		t.Fatal("the running value changed")
	}
}
