package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// startArgs is a 1-node command line with its own -c file and store file.
func startArgs(t *testing.T, conf string) (args []string, store string) {
	t.Helper()
	dir := t.TempDir()
	store = filepath.Join(dir, "stored", "controller.properties")
	file := filepath.Join(dir, "controller.conf")
	conf += "controllerDLegerGroup=g1\ncontrollerDLegerPeers=n0-127.0.0.1:9877\ncontrollerDLegerSelfId=n0\nconfigStorePath=" + filepath.ToSlash(store) + "\n"
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"-c", file}, store
}

func mustFromArgs(t *testing.T, args ...string) *Config {
	t.Helper()
	cfg, _, err := FromArgs(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestUpdateWritesEverySettingAndRestartReadsBackTheWireKeys(t *testing.T) {
	args, store := startArgs(t, "scanNotActiveBrokerInterval=2000\n")
	cfg := mustFromArgs(t, args...)
	next, err := cfg.Update(map[string]string{"enableElectUncleanMaster": "true", "electMasterMaxRetryCount": "5"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.EnableElectUncleanMaster || !next.EnableElectUncleanMaster || next.ElectMasterMaxRetryCount != 5 {
		t.Fatalf("the update changed the original or missed the copy: %+v", next)
	}
	data, err := os.ReadFile(store)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "#set by UPDATE_CONTROLLER_CONFIG on g1/n0: electMasterMaxRetryCount,enableElectUncleanMaster\n") {
		t.Fatalf("stored file head:\n%s", data)
	}
	props, err := javaprops.Parse(data)
	if err != nil || len(props) != len(Keys())-2 /* secretKey, innerClientAuthenticationCredentials */ || props["scanNotActiveBrokerInterval"] != "2000" || props["enableElectUncleanMaster"] != "true" {
		t.Fatalf("stored file is not every setting but the secrets (%d of %d, %v):\n%s", len(props), len(Keys()), err, data)
	}

	// The -c file is edited meanwhile: its keys win except the wire's.
	conf, _ := os.ReadFile(args[1])
	if err := os.WriteFile(args[1], append(conf, "scanNotActiveBrokerInterval=3000\nelectMasterMaxRetryCount=2\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	back := mustFromArgs(t, args...)
	if !back.EnableElectUncleanMaster || back.ElectMasterMaxRetryCount != 5 || back.ScanNotActiveBrokerInterval != 3000 {
		t.Fatalf("after restart: unclean %v retries %d scan %d, want true 5 3000", back.EnableElectUncleanMaster,
			back.ElectMasterMaxRetryCount, back.ScanNotActiveBrokerInterval)
	}
	if got := strings.Join(back.WireKeys(), ","); got != "electMasterMaxRetryCount,enableElectUncleanMaster" {
		t.Fatalf("wire keys after restart %q", got)
	}
	// A flag still wins over the stored file.
	if c := mustFromArgs(t, append(args, "-electMasterMaxRetryCount", "7")...); c.ElectMasterMaxRetryCount != 7 {
		t.Fatalf("flag lost to the stored file: %d", c.ElectMasterMaxRetryCount)
	}
	// A later update keeps the earlier wire keys in the file.
	if _, err := back.Update(map[string]string{"processReadEvent": "true"}); err != nil {
		t.Fatal(err)
	}
	if c := mustFromArgs(t, args...); !c.ProcessReadEvent || c.ElectMasterMaxRetryCount != 5 {
		t.Fatalf("second update: processReadEvent %v retries %d", c.ProcessReadEvent, c.ElectMasterMaxRetryCount)
	}
}

func TestStoredFileNotOursOrBlackListedIsNotApplied(t *testing.T) {
	args, store := startArgs(t, "")
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		t.Fatal(err)
	}
	// A Java controller's file (no wire-keys line) is left to -c.
	if err := os.WriteFile(store, []byte("enableElectUncleanMaster=true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := mustFromArgs(t, args...); c.EnableElectUncleanMaster {
		t.Fatal("a file without the wire-keys line was applied")
	}
	// A black-listed key named by a hand-edited line is skipped.
	if err := os.WriteFile(store, []byte(wireKeysComment+"g1/n0: rocketmqHome,notifyBrokerRoleChanged\nrocketmqHome=/x\nnotifyBrokerRoleChanged=false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := mustFromArgs(t, args...); c.RocketmqHome == "/x" || c.NotifyBrokerRoleChanged {
		t.Fatalf("rocketmqHome %q notifyBrokerRoleChanged %v", c.RocketmqHome, c.NotifyBrokerRoleChanged)
	}
}

func TestUpdateThatCannotBeWrittenChangesNothing(t *testing.T) {
	args, store := startArgs(t, "")
	cfg := mustFromArgs(t, args...)
	// The store's folder is a file: the write fails.
	if err := os.WriteFile(filepath.Dir(store), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if next, err := cfg.Update(map[string]string{"enableElectUncleanMaster": "true"}); err == nil || next != nil ||
		!strings.Contains(err.Error(), "configStorePath") && !strings.Contains(err.Error(), store) {
		t.Fatalf("update over an unwritable store: %v %v", next, err)
	}
	if _, err := cfg.Update(map[string]string{"electMasterMaxRetryCount": "0"}); err == nil {
		t.Fatal("an out-of-bounds value was accepted")
	}
}

// A node reads back only the file it wrote: a file naming another node of
// the group (an explicit configStorePath two nodes share), or one of an
// earlier version naming no node, is not applied and IgnoredStoreOwner says
// whose it was (the node logs a warning).
func TestStoredFileOfAnotherNodeIsNotApplied(t *testing.T) {
	args, store := startArgs(t, "")
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		t.Fatal(err)
	}
	for owner, text := range map[string]string{
		"g1/n1": wireKeysComment + "g1/n1: enableElectUncleanMaster\nenableElectUncleanMaster=true\n",
		"g2/n0": wireKeysComment + "g2/n0: enableElectUncleanMaster\nenableElectUncleanMaster=true\n",
		"(no node named: a file of an earlier version)": oldWireKeysComment + "enableElectUncleanMaster\nenableElectUncleanMaster=true\n",
	} {
		if err := os.WriteFile(store, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		c := mustFromArgs(t, args...)
		if c.EnableElectUncleanMaster || c.IgnoredStoreOwner() != owner {
			t.Errorf("file of %s: applied %v, owner %q", owner, c.EnableElectUncleanMaster, c.IgnoredStoreOwner())
		}
	}
	if err := os.WriteFile(store, []byte(wireKeysComment+"g1/n0: enableElectUncleanMaster\nenableElectUncleanMaster=true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c := mustFromArgs(t, args...); !c.EnableElectUncleanMaster || c.IgnoredStoreOwner() != "" {
		t.Fatal("the node's own file was not applied")
	}
}

// Without configStorePath each node's file is beside its own store
// (controllerStorePath/raft-<selfId>/controller.properties): two nodes
// sharing a controllerStorePath, or two groups of one user, never share it,
// and one node's update is not read back by the other.
func TestDefaultStorePathIsPerNode(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-controllerDLegerGroup", "g1", "-controllerDLegerPeers", "n0-127.0.0.1:9877;n1-127.0.0.1:9878", "-controllerStorePath", dir}
	n0 := mustFromArgs(t, append(common, "-controllerDLegerSelfId", "n0")...)
	n1 := mustFromArgs(t, append(common, "-controllerDLegerSelfId", "n1")...)
	if want := filepath.Join(dir, "raft-n0", StoreFileName); n0.ConfigStorePath != want || n0.StorePath() != want {
		t.Fatalf("n0 configStorePath %q, want %q", n0.ConfigStorePath, want)
	}
	if n0.ConfigStorePath == n1.ConfigStorePath {
		t.Fatalf("two nodes share %s", n0.ConfigStorePath)
	}
	if _, err := n0.Update(map[string]string{"enableElectUncleanMaster": "true"}); err != nil {
		t.Fatal(err)
	}
	if !mustFromArgs(t, append(common, "-controllerDLegerSelfId", "n0")...).EnableElectUncleanMaster {
		t.Fatal("n0 did not read its update back")
	}
	if mustFromArgs(t, append(common, "-controllerDLegerSelfId", "n1")...).EnableElectUncleanMaster {
		t.Fatal("n1 read n0's update")
	}
	var out strings.Builder
	if _, _, err := FromArgs(append(common, "-controllerDLegerSelfId", "n1", "-p"), &out); err != nil ||
		!strings.Contains(out.String(), "configStorePath="+filepath.Join(dir, "raft-n1", StoreFileName)+"\n") {
		t.Fatalf("-p: %v\n%s", err, out.String())
	}
	// The ACL file's default stays ~/controller/plain_acl.yml, not the store.
	if home, _ := os.UserHomeDir(); n0.ACLFile() != filepath.Join(home, "controller", DefaultACLFileName) {
		t.Fatalf("aclFile default %q", n0.ACLFile())
	}
}
