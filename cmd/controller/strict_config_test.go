package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A -c value that does not parse for its key stops the start (Java ignores
// it): exit 1 naming file, line, key and value. -p so that the old, lenient
// code exits 0 instead of serving.
func TestRunRefusesUnparsableValues(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"scanNotActiveBrokerInterval=5s\n", `:3: scanNotActiveBrokerInterval="5s"`},
		{"httpListenPort=abc\n", `:3: httpListenPort="abc"`},
		{"enableElectUncleanMaster=yes\n", `:3: enableElectUncleanMaster="yes"`},
	} {
		file := filepath.Join(t.TempDir(), "controller.conf")
		text := "controllerDLegerPeers=n0-127.0.0.1:9877\ncontrollerDLegerSelfId=n0\n" + tc.text
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		if code := run([]string{"-c", file, "-p"}, &out, &errOut); code == 0 || !strings.Contains(errOut.String(), file+tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want non-zero and %s%s", tc.text, code, errOut.String(), file, tc.want)
		}
	}
}

// An unknown key is listed by -p with the closest known key.
func TestPrintListsUnknownKeys(t *testing.T) {
	file := filepath.Join(t.TempDir(), "controller.conf")
	if err := os.WriteFile(file, []byte("controllerDLegerPeers=n0-127.0.0.1:9877\ncontrollerDLegerSelfId=n0\nscanInactiveMastrInterval=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-c", file, "-p"}, &out, &errOut); code != 0 ||
		!strings.Contains(out.String(), "#   line 3: scanInactiveMastrInterval=1 (closest known key: scanInactiveMasterInterval)\n") {
		t.Fatalf("exit %d stderr %q stdout:\n%s", code, errOut.String(), out.String())
	}
}
