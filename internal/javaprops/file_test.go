package javaprops

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFileParsesAndNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a.properties")
	if err := os.WriteFile(good, []byte("a=1\n# c\nb : 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	props, err := ReadFile(good)
	if err != nil || props["a"] != "1" || props["b"] != "2" || len(props) != 2 {
		t.Fatalf("ReadFile: %v %v", props, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.properties")
	if err := os.WriteFile(bad, []byte(`a=\u12`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("malformed file: %v", err)
	}
}
