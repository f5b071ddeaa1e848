package broker

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadConfigFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "broker.conf")
	text := "# a Java broker.conf\nbrokerClusterName = ClusterX\nbrokerName=broker-b\nbrokerId=1\n" +
		"namesrvAddr=127.0.0.1:9876;127.0.0.1:9877\nlistenPort:10921\nregisterNameServerPeriod=5000\n" +
		"flushDiskType=ASYNC_FLUSH\n! another comment\nforceRegister false\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	unknown, err := LoadConfigFile(path, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 1 || unknown[0].Key != "flushDiskType" || unknown[0].Line != 8 {
		t.Fatalf("unknown keys %+v, want flushDiskType on line 8", unknown)
	}
	if cfg.BrokerClusterName != "ClusterX" || cfg.BrokerName != "broker-b" || cfg.BrokerID != 1 || cfg.ListenPort != 10921 || cfg.ForceRegister {
		t.Fatalf("cfg = %+v", cfg)
	}
	if got := cfg.NameServers(); len(got) != 2 || got[1] != "127.0.0.1:9877" {
		t.Fatalf("NameServers() = %v", got)
	}
	if cfg.registerPeriod() != 10*time.Second {
		t.Fatalf("5 s period not clamped to 10 s: %v", cfg.registerPeriod())
	}
	cfg.AllowShortRegisterPeriod = true
	if cfg.registerPeriod() != 5*time.Second {
		t.Fatalf("period with allowShortRegisterPeriod = %v", cfg.registerPeriod())
	}
}

// A value that does not parse stops the load naming file, line, key and
// value; a boolean is true or false only (Java reads "yes" or "1" as false).
func TestLoadConfigFileRefusesBadValues(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"brokerName=b\nlistenPort=abc\n", `:2: listenPort="abc"`},
		{"forceRegister=yes\n", `:1: forceRegister="yes"`},
		{"compressedRegister=1\n", `:1: compressedRegister="1"`},
	} {
		path := filepath.Join(t.TempDir(), "broker.conf")
		if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		if _, err := LoadConfigFile(path, &cfg); err == nil || !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("%q: err %v, want %s%s", tc.text, err, path, tc.want)
		}
	}
}

func TestApplyRejectsBadValues(t *testing.T) {
	cfg := DefaultConfig()
	err := cfg.Apply(map[string]string{"listenPort": "ten"})
	if !errors.Is(err, ErrBrokerConfig) || !strings.Contains(err.Error(), "listenPort") {
		t.Fatalf("err = %v", err)
	}
	cfg = DefaultConfig()
	cfg.BrokerName = ""
	if err := cfg.Validate(); !errors.Is(err, ErrBrokerConfig) {
		t.Fatalf("Validate with empty brokerName: %v", err)
	}
}

func TestPropertiesRoundTrip(t *testing.T) {
	cfg := DefaultConfig()
	cfg.BrokerName = "round-trip"
	cfg.RegisterNameServerPeriod = 1234 * time.Millisecond
	var back Config
	if err := back.Apply(cfg.Properties()); err != nil {
		t.Fatal(err)
	}
	if back != cfg {
		t.Fatalf("Apply(Properties()) = %+v, want %+v", back, cfg)
	}
	lines := ConfigLines(cfg)
	if len(lines) != len(cfg.Properties()) || lines[0] != "aclEnable=false" {
		t.Fatalf("ConfigLines = %v", lines)
	}
}

func TestControllerModeKeys(t *testing.T) {
	cfg := DefaultConfig()
	cfg.StorePathRootDir = "/data/a"
	err := cfg.Apply(map[string]string{"enableControllerMode": "true", "syncBrokerMetadataPeriod": "700",
		"brokerElectionPriority": "3", "simulatedOffsetRate": "0", "haMaxGapNotInSync": "1024", "brokerHeartbeatInterval": "250",
		"accessKey": "rocketmq2", "secretKey": "12345678"})
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "controllerAddr") {
		t.Fatalf("controller mode without controllerAddr: %v", err)
	}
	if err := cfg.Apply(map[string]string{"controllerAddr": "127.0.0.1:9878"}); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	rc := cfg.controllerConfig()
	if rc.SyncBrokerMetadataPeriod != 700*time.Millisecond || rc.BrokerElectionPriority != 3 || rc.SimulatedOffsetRate != 0 ||
		rc.HaMaxGapNotInSync != 1024 || rc.BrokerHeartbeatInterval != 250*time.Millisecond ||
		rc.StorePathBrokerIdentity != "/data/a/brokerIdentity" || rc.CheckSyncStateSetPeriod != 5*time.Second ||
		rc.Credentials.AccessKey != "rocketmq2" || rc.Credentials.SecretKey != "12345678" {
		t.Fatalf("controller config %+v", rc)
	}
	if p := cfg.Properties(); p["enableControllerMode"] != "true" || p["storePathBrokerIdentity"] != "" || p["controllerHeartBeatTimeoutMills"] != "10000" {
		t.Fatalf("properties %v", p)
	}
}
