package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The keys changeable online are exactly these: a key added to Config is
// refused over the wire until it is listed in online.go.
func TestOnlineKeysAreTheListedOnes(t *testing.T) {
	want := []string{"scanNotActiveBrokerInterval", "scanInactiveMasterInterval", "electMasterMaxRetryCount",
		"enableElectUncleanMaster", "notifyBrokerRoleChanged", "processReadEvent", "controllerCommitTimeoutMillis"}
	if got := OnlineKeys(); !slices.Equal(got, want) {
		t.Fatalf("online keys %v, want %v", got, want)
	}
}

// assertRefused checks that an update is refused naming key and that
// nothing was written.
func assertRefused(t *testing.T, cfg *Config, store string, props map[string]string, key string) {
	t.Helper()
	next, err := cfg.Update(props)
	if err == nil || next != nil || !errors.Is(err, ErrRefusedOnline) || !strings.Contains(err.Error(), key) {
		t.Errorf("update %v: %v %v; want refused naming %s", props, next, err, key)
	}
	if _, err := os.Stat(store); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("update %v wrote %s (%v)", props, store, err)
	}
}

// A stranger's 1009 moved controllerStorePath and the peers and persisted
// them; after a restart the node ran on an empty store. Every key that is
// not changeable online is refused, with the whole request, and nothing is
// written.
func TestUpdateRefusesEveryKeyNotChangeableOnline(t *testing.T) {
	args, store := startArgs(t, "")
	cfg := mustFromArgs(t, args...)
	for _, key := range Keys() {
		if ChangeableOnline(key) {
			continue
		}
		value, _ := cfg.Value(key)
		assertRefused(t, cfg, store, map[string]string{key: value}, key)
	}
	// Keys of other branches (Raft TLS, ACL, TLS, bind address,
	// credentials) and any unknown key are refused by default.
	for _, key := range []string{"controllerRaftTlsCertPath", "controllerRaftTlsKeyPath", "controllerRaftTlsTrustCertPath",
		"aclEnable", "aclFile", "adminWhiteRemoteAddresses", "tls.server.mode", "bindAddress",
		"innerClientAuthenticationCredentials", "noSuchKey"} {
		assertRefused(t, cfg, store, map[string]string{key: "x"}, key)
	}
	// All or nothing: a changeable key beside a refused one is not applied.
	assertRefused(t, cfg, store, map[string]string{"enableElectUncleanMaster": "true",
		"controllerStorePath": filepath.Join(t.TempDir(), "elsewhere"), "controllerDLegerPeers": "n0-6.6.6.6:9877"}, "controllerStorePath")
	// Values that do not convert or are out of bounds.
	for _, bad := range []map[string]string{
		{"electMasterMaxRetryCount": "x"}, {"electMasterMaxRetryCount": "0"}, {"enableElectUncleanMaster": "yes"},
		{"scanNotActiveBrokerInterval": "99999999999999999999"}, {"controllerCommitTimeoutMillis": "1"},
	} {
		for key := range bad {
			assertRefused(t, cfg, store, bad, key)
		}
	}
	if cfg.EnableElectUncleanMaster || cfg.ControllerDLegerPeers != "n0-127.0.0.1:9877" {
		t.Fatalf("a refused update changed the config: %+v", cfg)
	}
	// The online keys themselves go through, booleans in any case.
	next, err := cfg.Update(map[string]string{"scanNotActiveBrokerInterval": "2000", "scanInactiveMasterInterval": "3000",
		"electMasterMaxRetryCount": "4", "enableElectUncleanMaster": "TRUE", "notifyBrokerRoleChanged": "false",
		"processReadEvent": "true", "controllerCommitTimeoutMillis": "6000"})
	if err != nil || !next.EnableElectUncleanMaster || next.NotifyBrokerRoleChanged || next.CommitTimeoutMillis != 6000 {
		t.Fatalf("online keys: %v %+v", err, next)
	}
}

// A configStorePath file of an older version may name keys that are no
// longer changeable online: at start they are skipped and named.
func TestStoredFileKeysNotChangeableOnlineAreIgnored(t *testing.T) {
	args, store := startArgs(t, "controllerStorePath=/the/real/store\n")
	if err := os.MkdirAll(filepath.Dir(store), 0o755); err != nil {
		t.Fatal(err)
	}
	stored := wireKeysComment + "g1/n0: controllerDLegerPeers,controllerStorePath,enableElectUncleanMaster\n" +
		"controllerDLegerPeers=n0-6.6.6.6:9877\ncontrollerStorePath=/tmp/empty\nenableElectUncleanMaster=true\n"
	if err := os.WriteFile(store, []byte(stored), 0o644); err != nil {
		t.Fatal(err)
	}
	c := mustFromArgs(t, args...)
	if c.ControllerStorePath != "/the/real/store" || c.ControllerDLegerPeers != "n0-127.0.0.1:9877" || !c.EnableElectUncleanMaster {
		t.Fatalf("store %q peers %q unclean %v", c.ControllerStorePath, c.ControllerDLegerPeers, c.EnableElectUncleanMaster)
	}
	if got := strings.Join(c.IgnoredStoredKeys(), ","); got != "controllerDLegerPeers,controllerStorePath" {
		t.Fatalf("ignored keys %q", got)
	}
	if got := strings.Join(c.WireKeys(), ","); got != "enableElectUncleanMaster" {
		t.Fatalf("wire keys %q", got)
	}
	// FromFile (the embedded controller) leaves the file's configStorePath
	// to the NameServer: its own file is beside its store.
	f, err := FromFile(args[1])
	if err != nil || f.ControllerStorePath != "/the/real/store" || f.StorePath() != "/the/real/store/raft-n0/controller.properties" ||
		len(f.IgnoredStoredKeys()) != 0 {
		t.Fatalf("FromFile: %v %+v", err, f)
	}
}

// An unknown key's refusal names the closest known key when one is near.
func TestUpdateUnknownKeySuggestsTheClosest(t *testing.T) {
	c := Default()
	c.ConfigStorePath = filepath.Join(t.TempDir(), "controller.properties")
	_, err := c.Update(map[string]string{"scanInactiveMastrInterval": "1000"})
	if err == nil || !strings.Contains(err.Error(), "unknown controller setting: scanInactiveMastrInterval (closest known key: scanInactiveMasterInterval)") {
		t.Fatalf("err %v", err)
	}
	if _, err := c.Update(map[string]string{"noSuchControllerKey": "1"}); err == nil || strings.Contains(err.Error(), "closest") {
		t.Fatalf("far key: %v", err)
	}
}
