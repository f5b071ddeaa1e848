package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "namesrv.properties")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A -c value that does not parse for its key stops the start (Java ignores
// it and starts on the default): the error names file, line, key and value.
// -p so that the old code, which loads leniently, exits 0 instead of serving.
func TestRunRefusesUnparsableValues(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"listenPort=abc\n", `:1: listenPort="abc"`},
		{"# comment\nhttpListenPort=abc\n", `:2: httpListenPort="abc"`},
		{"enableShutdownGracefully=yes\n", `:1: enableShutdownGracefully="yes"`},
		{"listenPort=0\nscanNotActiveBrokerInterval=5s\n", `:2: scanNotActiveBrokerInterval="5s"`},
	} {
		path := writeConfig(t, tc.text)
		var code int
		_, stderr := captureOutput(t, func() { code = run([]string{"-c", path, "-p"}) })
		if code == 0 || !strings.Contains(stderr, path+tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want non-zero and %s%s", tc.text, code, stderr, path, tc.want)
		}
	}
	var code int
	_, stderr := captureOutput(t, func() { code = run([]string{"-p", "-enableShutdownGracefully=yes"}) })
	if code == 0 || !strings.Contains(stderr, `-enableShutdownGracefully "yes"`) {
		t.Errorf("flag: exit %d, stderr %q", code, stderr)
	}
}

// An unknown key is listed by -p as a comment with the closest known key;
// the controller's keys are known when the embedded controller runs.
func TestPrintListsUnknownKeys(t *testing.T) {
	path := writeConfig(t, "listenPrt=9999\ncontrollerDLegerSelfId=n0\n")
	var code int
	stdout, stderr := captureOutput(t, func() { code = run([]string{"-c", path, "-p"}) })
	if code != 0 || !strings.Contains(stdout, "line 1: listenPrt=9999 (closest known key: listenPort)") ||
		!strings.Contains(stdout, "line 2: controllerDLegerSelfId=n0") {
		t.Fatalf("exit %d stderr %q stdout:\n%s", code, stderr, stdout)
	}
	path = writeConfig(t, "listenPrt=9999\ncontrollerDLegerSelfId=n0\nenableControllerInNamesrv=true\n")
	stdout, _ = captureOutput(t, func() { code = run([]string{"-c", path, "-p"}) })
	if code != 0 || !strings.Contains(stdout, "listenPrt") || strings.Contains(stdout, "controllerDLegerSelfId=n0") {
		t.Fatalf("embedded: exit %d stdout:\n%s", code, stdout)
	}
}

func TestWarnUnknownKeysNamesTheClosestKey(t *testing.T) {
	var buf bytes.Buffer
	logger := logrus.New()
	logger.SetOutput(&buf)
	warnUnknownKeys(logrus.NewEntry(logger), "/etc/ns.properties", []javaprops.UnknownKey{{Line: 3, Key: "listenPrt", Value: "9999", Closest: "listenPort"}})
	for _, want := range []string{"level=warning", "closestKnownKey=listenPort", "key=listenPrt", "line=3", "file=/etc/ns.properties"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %q: %s", want, buf.String())
		}
	}
}
