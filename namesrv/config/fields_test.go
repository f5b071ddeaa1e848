package config

import (
	"errors"
	"maps"
	"testing"
)

func TestKeysAreUniqueAndComplete(t *testing.T) {
	keys := Keys()
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[k] {
			t.Fatalf("key %s declared twice", k)
		}
		seen[k] = true
	}
	// 22 NamesrvConfig keys + 18 NettyServerConfig keys + 48 Go additions.
	if len(keys) != 88 {
		t.Fatalf("%d keys, want 88", len(keys))
	}
	if keys[0] != "rocketmqHome" || keys[len(keys)-1] != "tls.server.need.client.auth" {
		t.Fatalf("keys not in declaration order: first %s last %s", keys[0], keys[len(keys)-1])
	}
	for _, ext := range []string{"frameMaxLength", "requestMemoryLimit", "maxConnections",
		"connectionOutboundSoftLimit", "connectionOutboundHardLimit", "outboundMemoryLimit", "logFormat", "logLevel",
		"logFile", "logMaxSizeMB", "logMaxAgeDays", "logMaxBackups",
		"httpBindAddress", "httpListenPort", "addressServerList", "peerNamesrvAddrs", "pauseDetectThresholdMillis", "readinessWarmUpMillis",
		"peerRoutesHealMillis",
		"requestMemoryBrokerHeadroom", "requestMemoryPerConnection", "requestMemoryPerStranger",
		"largeFrameStallTimeoutMillis", "largeFrameMinBytesPerSecond"} {
		if !IsExtension(ext) {
			t.Errorf("%s not marked as a Go addition", ext)
		}
	}
	if IsExtension("listenPort") {
		t.Error("listenPort marked as a Go addition")
	}
}

func TestSetJavaConversions(t *testing.T) {
	cases := []struct {
		key, value, want string
	}{
		{"listenPort", "19876", "19876"},
		{"listenPort", "+42", "42"},
		{"listenPort", " 7 ", "7"},
		{"scanNotActiveBrokerInterval", "9000000000", "9000000000"},
		{"orderMessageEnable", "true", "true"},
		{"orderMessageEnable", "TRUE", "true"},
		{"orderMessageEnable", "true ", "true"},
		{"enableTopicList", "yes", "false"},
		{"enableTopicList", "1", "false"},
		{"productEnvName", "  unit-a \t", "unit-a"},
		{"configBlackList", "a;b", "a;b"},
		{"logFormat", "json", "json"},
	}
	for _, tc := range cases {
		cfg := Default()
		if err := cfg.Set(tc.key, tc.value); err != nil {
			t.Errorf("Set(%s, %q): %v", tc.key, tc.value, err)
			continue
		}
		if got, _ := cfg.Value(tc.key); got != tc.want {
			t.Errorf("Set(%s, %q) then Value = %q, want %q", tc.key, tc.value, got, tc.want)
		}
	}
}

func TestSetRejects(t *testing.T) {
	cases := []struct {
		key, value string
		want       error
	}{
		{"listenPort", "abc", ErrInvalidValue},
		{"listenPort", "", ErrInvalidValue},
		{"listenPort", "3000000000", ErrInvalidValue}, // beyond a Java int
		{"listenPort", "1.5", ErrInvalidValue},
		{"scanNotActiveBrokerInterval", "1e3", ErrInvalidValue},
		{"noSuchKey", "1", ErrUnknownKey},
	}
	for _, tc := range cases {
		cfg := Default()
		before := cfg.Values()
		if err := cfg.Set(tc.key, tc.value); !errors.Is(err, tc.want) {
			t.Errorf("Set(%s, %q) = %v, want %v", tc.key, tc.value, err, tc.want)
		}
		if !maps.Equal(before, cfg.Values()) {
			t.Errorf("failed Set(%s, %q) changed the config", tc.key, tc.value)
		}
	}
}

func TestValuesMatchFields(t *testing.T) {
	cfg := Default()
	cfg.ListenPort = 1234
	cfg.SupportActingMaster = true
	cfg.ScanNotActiveBrokerInterval = 777
	values := cfg.Values()
	for key, want := range map[string]string{"listenPort": "1234", "supportActingMaster": "true", "scanNotActiveBrokerInterval": "777", "frameMaxLength": "16777216"} {
		if values[key] != want {
			t.Errorf("Values()[%s] = %q, want %q", key, values[key], want)
		}
	}
	if _, ok := cfg.Value("noSuchKey"); ok {
		t.Error("Value of an unknown key reported found")
	}
}
