package javaprops

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type strictCfg struct {
	Port    int    `prop:"listenPort"`
	Enabled bool   `prop:"enableShutdownGracefully"`
	Name    string `prop:"name"`
}

func writeFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.properties")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A value that does not parse stops the load with file:line key value.
func TestFileLoaderRefusesBadValues(t *testing.T) {
	f := NewFields[strictCfg](errors.New("unknown"), nil)
	for _, tc := range []struct{ text, want string }{
		{"# c\nname=x\nlistenPort=abc\n", ":3: listenPort=\"abc\""},
		{"enableShutdownGracefully=yes\n", ":1: enableShutdownGracefully=\"yes\""},
	} {
		path := writeFile(t, tc.text)
		var c strictCfg
		_, _, err := f.FileLoader(&c).Load(path)
		var ve *ValueError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), path+tc.want) {
			t.Errorf("%q: err %v, want %s%s", tc.text, err, path, tc.want)
		}
	}
}

// Unknown keys are reported with the closest known key, not set.
func TestFileLoaderReportsUnknownKeys(t *testing.T) {
	f := NewFields[strictCfg](errors.New("unknown"), nil)
	path := writeFile(t, "listenPrt=9999\nbrokerClusterName=DefaultCluster\nlistenPort=1\nenableShutdownGracefully=TRUE\n")
	var c strictCfg
	props, unknown, err := f.FileLoader(&c).Load(path)
	if err != nil || c.Port != 1 || !c.Enabled || props["listenPrt"] != "9999" {
		t.Fatalf("err %v cfg %+v props %v", err, c, props)
	}
	want := []UnknownKey{{Line: 1, Key: "listenPrt", Value: "9999", Closest: "listenPort"}, {Line: 2, Key: "brokerClusterName", Value: "DefaultCluster"}}
	if len(unknown) != 2 || unknown[0] != want[0] || unknown[1] != want[1] {
		t.Fatalf("unknown %+v, want %+v", unknown, want)
	}
	block := string(UnknownComment(path, unknown))
	if !strings.Contains(block, "#   line 1: listenPrt=9999 (closest known key: listenPort)\n") {
		t.Fatalf("comment block:\n%s", block)
	}
	if props, err := Parse([]byte(block)); err != nil || len(props) != 0 {
		t.Fatalf("the block is not comments only: %v %v", props, err)
	}
}

func TestParseEntriesLines(t *testing.T) {
	entries, err := ParseEntries([]byte("a=1\n\n# x\nb=2\\\n  3\nc=4\na=5\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{{"a", "1", 1}, {"b", "23", 4}, {"c", "4", 6}, {"a", "5", 7}}
	if len(entries) != len(want) {
		t.Fatalf("%+v", entries)
	}
	for i := range want {
		if entries[i] != want[i] {
			t.Errorf("entry %d: %+v, want %+v", i, entries[i], want[i])
		}
	}
}

func TestClosest(t *testing.T) {
	keys := []string{"listenPort", "orderMessageEnable", "scanNotActiveBrokerInterval"}
	for key, want := range map[string]string{"listenPrt": "listenPort", "orderMesageEnable": "orderMessageEnable",
		"ListenPort": "listenPort", "brokerClusterName": "", "x": ""} {
		if got := Closest(key, keys); got != want {
			t.Errorf("Closest(%s) = %q, want %q", key, got, want)
		}
	}
}
