package test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// controllerOnNameServerPort is a controller address on 9877, which the docs
// give the second NameServer of a host (local cluster, the systemd pair).
var controllerOnNameServerPort = regexp.MustCompile(`(?i)(controllerDLegerPeers|controllerAddr|getControllerMetaData|getControllerConfig|updateControllerConfig|BASE_PORT)[^\n]*(127\.0\.0\.1:|:-)9877\b`)

// TestDocsControllerPortsClearOfNameServers: the docs, the samples of conf/,
// `make run-controller` and the READMEs put a controller on Java's sample
// ports (9878, 9868, 9858), never on 9877, where the docs' second NameServer
// listens (both once did: the group of make run-controller could not start
// beside the local cluster).
func TestDocsControllerPortsClearOfNameServers(t *testing.T) {
	var files []string
	for _, pattern := range []string{"README.md", "docs/*.md", "*/README.md", "*/*/README.md", "conf/*", "scripts/*.sh", "Makefile"} {
		found, err := filepath.Glob(filepath.Join("..", pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, found...)
	}
	if len(files) < 20 {
		t.Fatalf("only %d files found", len(files))
	}
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(raw), "\n") {
			if controllerOnNameServerPort.MatchString(line) {
				t.Errorf("%s:%d: a controller on the second NameServer's 9877: %s", file, i+1, line)
			}
		}
	}
	script, err := os.ReadFile("../scripts/run-controller.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "BASE_PORT=${BASE_PORT:-9878}") {
		t.Error("make run-controller does not start on 9878")
	}
}
