package config

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestKeysCount(t *testing.T) {
	// 20 Java keys and 39 of ours: a new key needs a README row and a bound.
	if got := len(Keys()); got != 59 {
		t.Fatalf("%d keys, want 59: %v", got, Keys())
	}
	java := 0
	for _, k := range Keys() {
		if !IsExtension(k) {
			java++
		}
	}
	if java != 20 {
		t.Fatalf("%d Java keys, want 20", java)
	}
}

func TestReadmeListsEveryKeyWithItsDefault(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if cells := strings.Split(line, "|"); len(cells) > 5 {
			rows[strings.Trim(strings.TrimSpace(cells[1]), "`")] = cells
		}
	}
	def := Default()
	for _, key := range Keys() {
		cells, ok := rows[key]
		if !ok {
			t.Errorf("README has no row for %s", key)
			continue
		}
		value, _ := def.Value(key)
		if key != "rocketmqHome" && key != "configStorePath" && key != "controllerStorePath" && !strings.Contains(cells[2], "`"+value+"`") {
			t.Errorf("README default of %s is %q, code says %q", key, cells[2], value)
		}
		if want := map[bool]string{true: "ours", false: "Java"}[IsExtension(key)]; strings.TrimSpace(cells[3]) != want {
			t.Errorf("README origin of %s is %q, want %s", key, cells[3], want)
		}
		if b, ok := bounds[key]; ok && strings.TrimSpace(cells[4]) == "" {
			t.Errorf("README lacks the bounds [%d, %d] of %s", b.min, b.max, key)
		}
	}
}

func TestPeersSelfAndPorts(t *testing.T) {
	c := Default()
	c.ControllerDLegerPeers = "n0-127.0.0.1:9877; n1-127.0.0.1:9878;n2-127.0.0.1:9879;"
	c.ControllerDLegerSelfID = "n1"
	self, err := c.Self()
	if err != nil {
		t.Fatal(err)
	}
	if self.Addr != "127.0.0.1:9878" || self.RaftAddr != "127.0.0.1:10878" {
		t.Fatalf("self %+v", self)
	}
	if port, _ := c.HTTPPort(); port != 11878 {
		t.Fatalf("side port %d, want 11878", port)
	}
	c.HTTPListenPort = -1
	if port, _ := c.HTTPPort(); port != -1 {
		t.Fatalf("side port %d, want off", port)
	}
	for _, bad := range []string{"", "n0", "n0-host", "n0-127.0.0.1:x", "n0-127.0.0.1:9877;n0-127.0.0.1:9878", "-127.0.0.1:1"} {
		c.ControllerDLegerPeers = bad
		if _, err := c.Peers(); err == nil {
			t.Errorf("peers %q accepted", bad)
		}
	}
	c.ControllerDLegerPeers = "n0-127.0.0.1:65000"
	if _, err := c.Peers(); err == nil || !strings.Contains(err.Error(), "Raft port") {
		t.Errorf("raft port past 65535: %v", err)
	}
	c.ControllerDLegerPeers, c.ControllerDLegerSelfID = "n0-127.0.0.1:9877", "n9"
	if err := c.Validate(); err == nil {
		t.Error("a self id outside the peers validated")
	}
}

func TestFromArgsFileThenFlagsAndPrint(t *testing.T) {
	file := filepath.Join(t.TempDir(), "controller.conf")
	conf := "controllerDLegerGroup = group1\ncontrollerDLegerPeers=n0-127.0.0.1:9877;n1-127.0.0.1:9878\n" +
		"controllerDLegerSelfId=n0\ncontrollerType=jRaft\nmappedFileSize=1024\nenableElectUncleanMaster=true\nelectMasterRetryCount=4\n"
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cfg, printOnly, err := FromArgs([]string{"-c", file, "-controllerDLegerSelfId", "n1", "-p"}, &out)
	if err != nil || !printOnly {
		t.Fatalf("FromArgs: %v %v", printOnly, err)
	}
	if cfg.ControllerDLegerSelfID != "n1" || !cfg.EnableElectUncleanMaster || cfg.ElectMasterMaxRetryCount != 3 || cfg.ControllerType != "jRaft" {
		t.Fatalf("config %+v", cfg)
	}
	if !strings.Contains(out.String(), "controllerDLegerSelfId=n1\n") || !strings.Contains(out.String(), "controllerDLegerGroup=group1\n") ||
		!strings.Contains(out.String(), "#   line 7: electMasterRetryCount=4 (closest known key: electMasterMaxRetryCount)\n") ||
		!strings.Contains(out.String(), "#   line 5: mappedFileSize=1024\n") {
		t.Fatalf("-p output:\n%s", out.String())
	}
	if _, _, err := FromArgs([]string{"-c", file, "-controllerType", "Zab"}, &out); err == nil {
		t.Error("controllerType Zab accepted")
	}
	if _, _, err := FromArgs([]string{"-c", file, "-scanNotActiveBrokerInterval", "0"}, &out); err == nil {
		t.Error("scanNotActiveBrokerInterval 0 accepted")
	}
}

// A -c value or flag that does not parse for its key stops the start,
// naming file, line, key and value (Java ignores it).
func TestFromArgsRefusesUnparsableValues(t *testing.T) {
	file := filepath.Join(t.TempDir(), "controller.conf")
	conf := "controllerDLegerPeers=n0-127.0.0.1:9877\ncontrollerDLegerSelfId=n0\nelectMasterMaxRetryCount=x\n"
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := FromArgs([]string{"-c", file, "-p"}, io.Discard); err == nil || !strings.Contains(err.Error(), file+`:3: electMasterMaxRetryCount="x"`) {
		t.Fatalf("err %v", err)
	}
	if _, _, err := FromArgs([]string{"-enableElectUncleanMaster=yes", "-p"}, io.Discard); err == nil || !strings.Contains(err.Error(), `-enableElectUncleanMaster "yes"`) {
		t.Fatalf("flag: err %v", err)
	}
}

func TestBlackListAlwaysHoldsRocketmqHome(t *testing.T) {
	c := Default()
	c.ConfigBlackList = "configStorePath; listenPort;"
	got := strings.Join(c.BlackList(), ",")
	if got != "rocketmqHome,configStorePath,listenPort" {
		t.Fatalf("black list %s", got)
	}
}

func TestJRaftKeysGiveThePeers(t *testing.T) {
	c := Default()
	c.ControllerType = "jRaft"
	c.JRaftServerID = "127.0.0.1:9881"
	peers, err := c.Peers()
	if err != nil || len(peers) != 3 {
		t.Fatalf("peers %v %v", peers, err)
	}
	if _, err := c.Self(); err == nil || !strings.Contains(err.Error(), "jRaftServerId") {
		t.Fatalf("a jRaftServerId outside jRaftInitConf: %v", err)
	}
	c.JRaftInitConf = "127.0.0.1:9880,127.0.0.1:9881"
	c.JRaftControllerRPCAddr = "127.0.0.1:9770,127.0.0.1:9771"
	self, err := c.Self()
	if err != nil || self.Addr != "127.0.0.1:9771" || self.RaftAddr != "127.0.0.1:9881" || c.Group() != "jRaft-Controller" {
		t.Fatalf("self %+v %v group %s", self, err, c.Group())
	}
	c.JRaftControllerRPCAddr = "127.0.0.1:9770"
	if _, err := c.Peers(); err == nil {
		t.Error("2 Raft addresses with 1 broker-facing one accepted")
	}
	c.ControllerDLegerPeers, c.ControllerDLegerSelfID = "n0-127.0.0.1:9877", "n0"
	if c.JRaftPeers() || c.SelfID() != "n0" {
		t.Error("controllerDLegerPeers set: the JRaft keys should not be used")
	}
}
