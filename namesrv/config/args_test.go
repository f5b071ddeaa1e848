package config

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// writeFile writes a properties file in a test directory and returns its path.
func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "namesrv.properties")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFromArgsNoArguments(t *testing.T) {
	cfg, printOnly, err := FromArgs(nil, io.Discard)
	if err != nil || printOnly {
		t.Fatalf("FromArgs(nil) = %v %v", printOnly, err)
	}
	want := Default().Values()
	for key, value := range cfg.Values() {
		if want[key] != value {
			t.Errorf("%s = %q, want the default %q", key, value, want[key])
		}
	}
	if cfg.FileProperties() != nil {
		t.Error("file properties without -c")
	}
}

func TestFromArgsConfigFile(t *testing.T) {
	path := writeFile(t, "listenPort=19876\n"+
		"orderMessageEnable = TRUE\n"+
		"scanNotActiveBrokerInterval: 1000\n"+
		"configStorePath=/elsewhere/namesrv.properties\n"+
		"scanAvailableNameSrv=false\n")
	cfg, _, err := FromArgs([]string{"-c", path}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ListenPort != 19876 || !cfg.OrderMessageEnable || cfg.ScanNotActiveBrokerInterval != 1000 {
		t.Fatalf("file not applied: %+v", cfg)
	}
	if u := cfg.UnknownKeys(); len(u) != 1 || u[0].Key != "scanAvailableNameSrv" || u[0].Line != 5 {
		t.Fatalf("unknown keys %+v, want scanAvailableNameSrv on line 5", u)
	}
	if cfg.ConfigStorePath != path {
		t.Fatalf("configStorePath = %q, want the -c file %q", cfg.ConfigStorePath, path)
	}
	if cfg.FileProperties()["scanAvailableNameSrv"] != "false" {
		t.Fatal("a key no setting knows was not kept")
	}
	// The long form works too.
	if cfg2, _, err := FromArgs([]string{"--configFile=" + path}, io.Discard); err != nil || cfg2.ListenPort != 19876 {
		t.Fatalf("--configFile: %v", err)
	}
}

// A value that does not parse stops the start, naming file, line, key and
// value; Java ignores it.
func TestFromArgsRefusesUnparsableFileValue(t *testing.T) {
	path := writeFile(t, "listenPort=19876\nserverWorkerThreads=lots\n")
	_, _, err := FromArgs([]string{"-c", path}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), path+`:2: serverWorkerThreads="lots"`) {
		t.Fatalf("err %v", err)
	}
}

func TestFromArgsFlagsOverrideFile(t *testing.T) {
	path := writeFile(t, "listenPort=19876\nbindAddress=10.0.0.1\nenableTopicList=false\nlogLevel=warn\n")
	dataDir := t.TempDir()
	for _, args := range [][]string{
		{"-listenPort", "1234", "-c", path, "-bindAddress=127.0.0.1", "-enableTopicList", "-log-level", "debug", "-data", dataDir},
		{"-c", path, "-port=1234", "-bindAddress", "127.0.0.1", "-enableTopicList=true", "-logLevel=debug", "--data=" + dataDir},
	} {
		cfg, _, err := FromArgs(args, io.Discard)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if cfg.ListenPort != 1234 || cfg.BindAddress != "127.0.0.1" || !cfg.EnableTopicList || cfg.LogLevel != "debug" {
			t.Fatalf("%v: flags did not override the file: %+v", args, cfg)
		}
		if cfg.KvConfigPath != filepath.Join(dataDir, "kvConfig.json") || cfg.ConfigStorePath != filepath.Join(dataDir, "namesrv.properties") {
			t.Fatalf("%v: -data gave %q and %q", args, cfg.KvConfigPath, cfg.ConfigStorePath)
		}
	}
}

func TestFromArgsFlagOrder(t *testing.T) {
	dataDir := t.TempDir()
	cfg, _, err := FromArgs([]string{"-data", dataDir, "-kvConfigPath", "/kv/explicit.json"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.KvConfigPath != "/kv/explicit.json" || cfg.ConfigStorePath != filepath.Join(dataDir, "namesrv.properties") {
		t.Fatalf("a later flag did not win: %q %q", cfg.KvConfigPath, cfg.ConfigStorePath)
	}
}

func TestFromArgsGenericKeys(t *testing.T) {
	cfg, _, err := FromArgs([]string{
		"-scanNotActiveBrokerInterval", "1000", "-supportActingMaster", "-frameMaxLength=1024",
		"-log-format", "json", "-n", "127.0.0.1:9876", "--namesrvAddr=x",
	}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ScanNotActiveBrokerInterval != 1000 || !cfg.SupportActingMaster || cfg.MaxFrameSize != 1024 || cfg.LogFormat != LogFormatJSON {
		t.Fatalf("generic flags not applied: %+v", cfg)
	}
}

func TestFromArgsErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want error
	}{
		{"bad number", []string{"-listenPort", "port"}, ErrInvalidValue},
		{"out of range", []string{"-listenPort", "70000"}, ErrInvalidValue},
		{"invalid log format", []string{"-log-format", "xml"}, ErrInvalidValue},
		{"unknown flag", []string{"-m"}, nil},
		{"boolean with separate value", []string{"-clusterTest", "true"}, nil},
		{"missing file", []string{"-c", filepath.Join(t.TempDir(), "none.properties")}, os.ErrNotExist},
		{"malformed file", []string{"-c", writeFile(t, `a=\u12`)}, javaprops.ErrMalformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _, err := FromArgs(tc.args, io.Discard)
			if err == nil || cfg != nil {
				t.Fatalf("FromArgs(%v) = %v, %v; want an error", tc.args, cfg, err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestFromArgsPrint(t *testing.T) {
	path := writeFile(t, "listenPort=19876\n")
	var out bytes.Buffer
	cfg, printOnly, err := FromArgs([]string{"-c", path, "-p", "-orderMessageEnable"}, &out)
	if err != nil || !printOnly {
		t.Fatalf("-p: %v %v", printOnly, err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	keys := Keys()
	if len(lines) != len(keys) {
		t.Fatalf("-p printed %d lines, want %d:\n%s", len(lines), len(keys), out.String())
	}
	for i, line := range lines {
		want, _ := cfg.Value(keys[i])
		if line != keys[i]+"="+want {
			t.Fatalf("line %d = %q, want %s=%s", i, line, keys[i], want)
		}
	}
	for _, want := range []string{"listenPort=19876", "orderMessageEnable=true", "configStorePath=" + path} {
		if !strings.Contains(out.String(), want+"\n") {
			t.Errorf("-p output lacks %q", want)
		}
	}
}

func TestFromArgsHelp(t *testing.T) {
	for _, flag := range []string{"-h", "--help"} {
		var out bytes.Buffer
		_, printOnly, err := FromArgs([]string{flag}, &out)
		if err != nil || !printOnly {
			t.Fatalf("%s: %v %v", flag, printOnly, err)
		}
		if !strings.Contains(out.String(), "-c, -configFile FILE") {
			t.Fatalf("%s printed %q", flag, out.String())
		}
	}
}
