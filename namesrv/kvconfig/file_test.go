package kvconfig

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestDecodeConfigFile(t *testing.T) {
	cases := []struct {
		name    string
		content string
		want    configTable
		corrupt bool
	}{
		{"empty file", "", configTable{}, false},
		{"blank file", " \n", configTable{}, false},
		{"json null", "null", configTable{}, false},
		{"empty store", `{"configTable":{}}`, configTable{}, false},
		{"java file", `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:4"},"capture-ns":{"k2":"größe=√2 名前","k1":"v1"}}}`,
			configTable{"ORDER_TOPIC_CONFIG": {"TopicOrder": "broker-a:4"}, "capture-ns": {"k1": "v1", "k2": "größe=√2 名前"}}, false},
		{"empty namespace kept", `{"configTable":{"ns":{}}}`, configTable{"ns": {}}, false},
		{"null value skipped", `{"configTable":{"ns":{"a":null,"b":"x"}}}`, configTable{"ns": {"b": "x"}}, false},
		{"null namespace skipped", `{"configTable":{"ns":null}}`, configTable{}, false},
		{"unknown field ignored", `{"configTable":{"ns":{"a":"1"}},"other":1}`, configTable{"ns": {"a": "1"}}, false},
		{"truncated", `{"configTable":{"ns":{"a":"1"`, nil, true},
		{"not json", "configTable=1", nil, true},
		{"wrong type", `{"configTable":[]}`, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeConfigFile([]byte(tc.content))
			if tc.corrupt {
				if !errors.Is(err, ErrCorruptFile) {
					t.Fatalf("err = %v, want ErrCorruptFile", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("decoded %v, want %v", got, tc.want)
			}
		})
	}
}

func TestReadConfigFileMissingIsEmpty(t *testing.T) {
	got, err := readConfigFile(filepath.Join(t.TempDir(), "none", "kvConfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("missing file gave %v", got)
	}
}

func TestReadConfigFileUnreadableIsError(t *testing.T) {
	// A directory in place of the file cannot be read: that must not be taken
	// for an empty store, or the next write would replace the operator's data.
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "kvConfig.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := readConfigFile(filepath.Join(dir, "kvConfig.json")); err == nil {
		t.Fatal("reading a directory succeeded")
	}
}
