package config

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestDefaultFollowsEnvironment(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ROCKETMQ_HOME", "/opt/rocketmq")
	cfg := Default()
	if cfg.RocketmqHome != "/opt/rocketmq" {
		t.Errorf("rocketmqHome = %q, want $ROCKETMQ_HOME", cfg.RocketmqHome)
	}
	if want := filepath.Join(home, "namesrv", "kvConfig.json"); cfg.KvConfigPath != want {
		t.Errorf("kvConfigPath = %q, want %q", cfg.KvConfigPath, want)
	}
	if want := filepath.Join(home, "namesrv", "namesrv.properties"); cfg.ConfigStorePath != want {
		t.Errorf("configStorePath = %q, want %q", cfg.ConfigStorePath, want)
	}
	t.Setenv("ROCKETMQ_HOME", "")
	if got := Default().RocketmqHome; got != home {
		t.Errorf("rocketmqHome without ROCKETMQ_HOME = %q, want the home directory %q", got, home)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
}

func TestCloneIsIndependent(t *testing.T) {
	cfg := Default()
	cfg.fileProperties = map[string]string{"x": "1"}
	clone := cfg.Clone()
	clone.ListenPort = 1
	clone.fileProperties["x"] = "2"
	if cfg.ListenPort == 1 || cfg.fileProperties["x"] != "1" {
		t.Fatal("changing the clone changed the original")
	}
	props := cfg.FileProperties()
	props["x"] = "3"
	if cfg.fileProperties["x"] != "1" {
		t.Fatal("FileProperties returned the internal map")
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name   string
		change func(*Config)
	}{
		{"negative port", func(c *Config) { c.ListenPort = -1 }},
		{"port too large", func(c *Config) { c.ListenPort = 65536 }},
		{"zero scan interval", func(c *Config) { c.ScanNotActiveBrokerInterval = 0 }},
		{"zero pause threshold", func(c *Config) { c.PauseDetectThresholdMillis = 0 }},
		{"zero unregister queue", func(c *Config) { c.UnRegisterBrokerQueueCapacity = 0 }},
		{"zero frame size", func(c *Config) { c.MaxFrameSize = 0 }},
		{"zero route workers", func(c *Config) { c.ClientRequestThreadPoolNums = 0 }},
		{"negative queue", func(c *Config) { c.DefaultThreadPoolQueueCapacity = -5 }},
		{"unknown log format", func(c *Config) { c.LogFormat = "xml" }},
		{"unknown log level", func(c *Config) { c.LogLevel = "loud" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Default()
			tc.change(cfg)
			if err := cfg.Validate(); !errors.Is(err, ErrInvalidValue) {
				t.Fatalf("Validate = %v, want ErrInvalidValue", err)
			}
		})
	}
	cfg := Default()
	cfg.ListenPort, cfg.LogFormat, cfg.LogLevel = 0, LogFormatJSON, "debug"
	if err := cfg.Validate(); err != nil {
		t.Fatalf("port 0, json, debug rejected: %v", err)
	}
}
