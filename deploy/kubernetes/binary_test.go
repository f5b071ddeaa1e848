package kubernetes

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/deploy/internal/repo"
)

func TestMain(m *testing.M) { repo.Main(m) }

// TestBinaryTakesTheContainerArgs runs the real NameServer with the
// container's args as the kubelet expands them (the ConfigMap file in place
// of its mount, $(POD_NAMESPACE) as "default") and -p: the file and flags are
// accepted and the effective config has the ConfigMap's values.
func TestBinaryTakesTheContainerArgs(t *testing.T) {
	m := load(t)
	c := m.container(t)
	dir := t.TempDir()
	cfgFile := argValue(t, c, "-c")
	local := filepath.Join(dir, path.Base(cfgFile))
	if err := os.WriteFile(local, []byte(m.config.Data[path.Base(cfgFile)]), 0o644); err != nil {
		t.Fatal(err)
	}
	var nsaddr string
	for _, e := range c.Env {
		if e.Name == "NAMESRV_ADDR" {
			nsaddr = strings.ReplaceAll(e.Value, "$(POD_NAMESPACE)", "default")
		}
	}
	var args []string
	for _, a := range c.Args {
		switch a {
		case cfgFile:
			a = local
		case argValue(t, c, "-data"):
			a = filepath.Join(dir, "data")
		case "$(NAMESRV_ADDR)":
			a = nsaddr
		}
		args = append(args, a)
	}
	out, err := exec.Command(repo.Namesrv(t), append(args, "-p")...).CombinedOutput()
	if err != nil {
		t.Fatalf("namesrv %v -p: %v\n%s", args, err, out)
	}
	printed := string(out)
	for key, value := range properties(t, m.config.Data[path.Base(cfgFile)]) {
		if !strings.Contains(printed, "\n"+key+"="+value+"\n") && !strings.HasPrefix(printed, key+"="+value+"\n") {
			t.Errorf("effective config lacks %s=%s", key, value)
		}
	}
	if !strings.Contains(printed, "addressServerList="+nsaddr+"\n") {
		t.Errorf("effective config lacks addressServerList=%s:\n%s", nsaddr, printed)
	}
}
