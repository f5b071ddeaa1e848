package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A -c value that does not parse stops the start naming file, line, key
// and value; an unknown key is listed by -p with the closest known key.
func TestRunRefusesUnparsableValuesAndListsUnknownKeys(t *testing.T) {
	conf := filepath.Join(t.TempDir(), "broker.conf")
	if err := os.WriteFile(conf, []byte("brokerName=b\nautoCreateTopicEnable=yes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-c", conf, "-p"}, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), conf+`:2: autoCreateTopicEnable="yes"`) {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if err := os.WriteFile(conf, []byte("brokerName=b\nbrokerClustrName=C\nflushDiskType=ASYNC_FLUSH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	if code := run([]string{"-c", conf, "-p"}, &stdout, &stderr); code != 0 ||
		!strings.Contains(stdout.String(), "#   line 2: brokerClustrName=C (closest known key: brokerClusterName)\n") ||
		!strings.Contains(stdout.String(), "#   line 3: flushDiskType=ASYNC_FLUSH\n") {
		t.Fatalf("exit %d stdout:\n%s", code, stdout.String())
	}
}
