package config

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"

	"github.com/gonamesrv/gonamesrv/internal/javafixture"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// fixture is the part of a recorded Java exchange these tests use.
type fixture struct {
	requestBody  string
	responseBody string
	// responseCode and responseRemark come from the recorded response header.
	responseCode   int
	responseRemark string
}

func loadFixture(t *testing.T, number string) fixture {
	t.Helper()
	ex, err := javafixture.Load("testdata", number)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Response == nil {
		t.Fatalf("fixture %s has no response", number)
	}
	var header struct {
		Code   int    `json:"code"`
		Remark string `json:"remark"`
	}
	if err := json.Unmarshal(ex.Response.Header, &header); err != nil {
		t.Fatalf("fixture %s header: %v", number, err)
	}
	f := fixture{responseCode: header.Code, responseRemark: header.Remark}
	if ex.Request.BodyText != nil {
		f.requestBody = *ex.Request.BodyText
	}
	if ex.Response.BodyText != nil {
		f.responseBody = *ex.Response.BodyText
	}
	return f
}

// captureServer starts settings the way the fixture server was started: a -c
// file with its address, port, data paths and one NettyClientConfig key. It
// returns the settings and the fixture's redacted values filled in.
func captureServer(t *testing.T) (*Settings, *strings.Replacer) {
	t.Helper()
	t.Setenv("ROCKETMQ_HOME", "/opt/rocketmq")
	dir := t.TempDir()
	file := filepath.Join(dir, "namesrv.properties")
	kvPath := filepath.Join(dir, "kvConfig.json")
	content := "bindAddress=127.0.0.1\nlistenPort=19876\nkvConfigPath=" + kvPath +
		"\nconfigStorePath=" + file + "\nscanAvailableNameSrv=false\n"
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, printOnly, err := FromArgs([]string{"-c", file}, io.Discard)
	if err != nil || printOnly {
		t.Fatalf("FromArgs: %v %v", printOnly, err)
	}
	redacted := strings.NewReplacer(
		"configStorePath=<redacted>", "configStorePath="+file,
		"kvConfigPath=<redacted>", "kvConfigPath="+kvPath,
		"rocketmqHome=<redacted>", "rocketmqHome=/opt/rocketmq")
	return NewSettings(cfg, testlog.Discard()), redacted
}

func TestPropertiesMatchJavaCapture(t *testing.T) {
	s, redacted := captureServer(t)
	want := redacted.Replace(loadFixture(t, "073").responseBody)
	if got := string(s.Properties()); got != want {
		t.Fatalf("GET_NAMESRV_CONFIG body\n%s\nwant (fixture 073)\n%s", got, want)
	}
}

func TestDefaultPropertiesHaveJavaKeySet(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ROCKETMQ_HOME", "/opt/rocketmq")
	captured, err := javaprops.Parse([]byte(loadFixture(t, "073").responseBody))
	if err != nil {
		t.Fatal(err)
	}
	// The capture's installation differs from the defaults only in these.
	delete(captured, "scanAvailableNameSrv") // came from its -c file
	captured["bindAddress"] = "0.0.0.0"
	captured["listenPort"] = "9876"
	captured["rocketmqHome"] = "/opt/rocketmq"
	captured["kvConfigPath"] = filepath.Join(home, "namesrv", "kvConfig.json")
	captured["configStorePath"] = filepath.Join(home, "namesrv", "namesrv.properties")

	got, err := javaprops.Parse(NewSettings(Default(), testlog.Discard()).Properties())
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, captured) {
		t.Fatalf("default properties\n%v\nwant\n%v", got, captured)
	}
}

// TestJavaUpdateScenario replays the recorded UPDATE_NAMESRV_CONFIG exchanges
// (018, 023, 074, 076, 077) and checks the final GET (078) matches the Java
// server's, then that a restart from the written file gives the same settings.
func TestJavaUpdateScenario(t *testing.T) {
	s, redacted := captureServer(t)
	steps := []struct {
		fixture string
		live    func(*Config) bool
		want    bool
	}{
		{"018", func(c *Config) bool { return c.OrderMessageEnable }, true},
		{"023", func(c *Config) bool { return c.OrderMessageEnable }, false},
		{"074", func(c *Config) bool { return c.EnableAllTopicList }, false},
		{"076", func(c *Config) bool { return c.OrderMessageEnable }, false},
		{"077", func(c *Config) bool { return c.EnableAllTopicList }, true},
	}
	for _, step := range steps {
		f := loadFixture(t, step.fixture)
		props, err := javaprops.Parse([]byte(f.requestBody))
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Update(props)
		switch f.responseCode {
		case 0:
			if err != nil {
				t.Fatalf("%s: %v", step.fixture, err)
			}
		case 16:
			if !errors.Is(err, ErrBlackListed) || err.Error() != f.responseRemark {
				t.Fatalf("%s: err = %v, want the remark %q", step.fixture, err, f.responseRemark)
			}
		default:
			t.Fatalf("%s: unexpected recorded code %d", step.fixture, f.responseCode)
		}
		if got := step.live(s.Get()); got != step.want {
			t.Fatalf("%s: setting is %v, want %v", step.fixture, got, step.want)
		}
	}
	want := redacted.Replace(loadFixture(t, "078").responseBody)
	if got := string(s.Properties()); got != want {
		t.Fatalf("GET after the updates\n%s\nwant (fixture 078)\n%s", got, want)
	}
	if s.DataVersion() != 4 {
		t.Fatalf("data version %d after 4 accepted updates", s.DataVersion())
	}
	written, err := os.ReadFile(s.Get().ConfigStorePath)
	if err != nil {
		t.Fatal(err)
	}
	if string(written) != want {
		t.Fatalf("persisted file\n%s\nwant the GET text", written)
	}
	assertReloadsTheSame(t, s)
}

// assertReloadsTheSame starts again from the persisted file (-c) and compares.
func assertReloadsTheSame(t *testing.T, s *Settings) {
	t.Helper()
	cfg, _, err := FromArgs([]string{"-c", s.Get().ConfigStorePath}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(cfg.Values(), s.Get().Values()) {
		t.Fatalf("reloaded settings %v\ndiffer from %v", cfg.Values(), s.Get().Values())
	}
	if got, want := string(NewSettings(cfg, testlog.Discard()).Properties()), string(s.Properties()); got != want {
		t.Fatalf("reloaded GET text\n%s\nwant\n%s", got, want)
	}
}

func TestUpdateRules(t *testing.T) {
	s, _ := captureServer(t)
	before := s.Get()
	changed, err := s.Update(map[string]string{
		"supportActingMaster":   "true",
		"logLevel":              "debug", // Go addition: applied and listed
		"waitSecondsForService": "45",    // unchanged value
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"logLevel", "supportActingMaster"}
	if !slices.Equal(changed, want) {
		t.Fatalf("changed = %v, want %v", changed, want)
	}
	cfg := s.Get()
	if !cfg.SupportActingMaster || cfg.ListenPort != 19876 || cfg.LogLevel != "debug" {
		t.Fatalf("update applied wrongly: %+v", cfg)
	}
	if before.SupportActingMaster {
		t.Fatal("update modified the previous snapshot")
	}
	props, err := javaprops.Parse(s.Properties())
	if err != nil {
		t.Fatal(err)
	}
	if props["scanAvailableNameSrv"] != "false" || props["logLevel"] != "debug" {
		t.Fatalf("GET text misses the update: %v", props)
	}
	if _, listed := props["noSuchKey"]; listed {
		t.Fatal("an unknown key was added to the GET text")
	}
	if _, listed := props["logFormat"]; listed {
		t.Fatal("a Go addition at its default is listed")
	}
	assertReloadsTheSame(t, s)
}

// A key no setting has is refused, naming it and the closest known key, and
// nothing of the request is applied or written: Java stored the typo and
// answered success. A key of the -c file no setting has is refused too.
func TestUpdateRefusesUnknownKeys(t *testing.T) {
	s, _ := captureServer(t)
	path := s.Get().ConfigStorePath
	fileBefore, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"orderMesageEnable", "scanAvailableNameSrv"} {
		_, err := s.Update(map[string]string{"supportActingMaster": "true", key: "true"})
		var ke *KeyError
		if !errors.As(err, &ke) || ke.Key != key {
			t.Fatalf("%s: err %v, want a KeyError naming it", key, err)
		}
		if key == "orderMesageEnable" && !strings.Contains(err.Error(), "closest known key: orderMessageEnable") {
			t.Errorf("no suggestion: %v", err)
		}
	}
	if s.Get().SupportActingMaster || s.DataVersion() != 0 {
		t.Fatal("a refused request applied a key")
	}
	if fileAfter, _ := os.ReadFile(path); string(fileAfter) != string(fileBefore) {
		t.Fatalf("a refused request rewrote the file:\n%s", fileAfter)
	}
}

func TestUpdateBlackListed(t *testing.T) {
	cfg := Default()
	cfg.ConfigStorePath = filepath.Join(t.TempDir(), "namesrv.properties")
	cfg.ConfigBlackList = "configBlackList;listenPort;;"
	s := NewSettings(cfg, testlog.Discard())
	for _, key := range []string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome", "listenPort"} {
		changed, err := s.Update(map[string]string{"orderMessageEnable": "true", key: "1"})
		if !errors.Is(err, ErrBlackListed) || changed != nil {
			t.Fatalf("update of %s: %v %v, want ErrBlackListed", key, changed, err)
		}
	}
	if s.Get().OrderMessageEnable || s.DataVersion() != 0 {
		t.Fatal("a refused update changed something")
	}
	if _, err := os.Stat(cfg.ConfigStorePath); !os.IsNotExist(err) {
		t.Fatalf("a refused update wrote the file: %v", err)
	}
	want := []string{"configBlackList", "configStorePath", "kvConfigPath", "listenPort", "rocketmqHome"}
	if !slices.Equal(s.BlackList(), want) {
		t.Fatalf("BlackList = %v, want %v", s.BlackList(), want)
	}
	// Later changes of configBlackList do not matter: the list is read at start.
	if _, err := s.Update(map[string]string{"productEnvName": "x"}); err != nil {
		t.Fatal(err)
	}
}

func TestUpdateRefusesInvalidResult(t *testing.T) {
	s, _ := captureServer(t)
	before, _ := os.ReadFile(s.Get().ConfigStorePath)
	if _, err := s.Update(map[string]string{"logFormat": "xml", "orderMessageEnable": "true"}); !errors.Is(err, ErrInvalidValue) {
		t.Fatalf("err = %v, want ErrInvalidValue", err)
	}
	if s.Get().OrderMessageEnable || s.Get().LogFormat != LogFormatText {
		t.Fatal("an invalid update was partly applied")
	}
	after, _ := os.ReadFile(s.Get().ConfigStorePath)
	if string(before) != string(after) {
		t.Fatal("an invalid update rewrote the file")
	}
}

func TestUpdateWriteFailureChangesNothing(t *testing.T) {
	s, _ := captureServer(t)
	// A non-empty directory in place of the file makes the rename fail, even for root.
	path := s.Get().ConfigStorePath
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(path, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(map[string]string{"orderMessageEnable": "true"}); err == nil {
		t.Fatal("update succeeded although the file cannot be written")
	}
	if s.Get().OrderMessageEnable || s.DataVersion() != 0 {
		t.Fatal("a failed write left the update applied")
	}
}

func TestUpdateEmptyIsNoOp(t *testing.T) {
	s, _ := captureServer(t)
	changed, err := s.Update(map[string]string{})
	if err != nil || changed != nil || s.DataVersion() != 0 {
		t.Fatalf("empty update: %v %v version %d", changed, err, s.DataVersion())
	}
}

func TestConcurrentGetDuringUpdates(t *testing.T) {
	s, _ := captureServer(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			cfg := s.Get()
			// Both keys change together in every update: a snapshot must never mix them.
			if cfg.EnableTopicList != cfg.EnableAllTopicList {
				t.Error("a reader saw half an update")
				return
			}
			_ = s.Properties()
		}
	}()
	for i := 0; i < 20; i++ {
		v := "false"
		if i%2 == 1 {
			v = "true"
		}
		if _, err := s.Update(map[string]string{"enableTopicList": v, "enableAllTopicList": v}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}
