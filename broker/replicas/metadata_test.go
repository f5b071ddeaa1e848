package replicas

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The files hold Java's BrokerMetadata / TempBrokerMetadata text.
func TestMetadataFilesUseJavaFormat(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "brokerIdentity")
	if err := WriteMetadata(path, Metadata{ClusterName: "c", BrokerName: "b", BrokerID: 3}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "c#b#3" {
		t.Fatalf("metadata file %q", data)
	}
	temp := path + "-temp"
	if err := WriteMetadata(temp, Metadata{ClusterName: "c", BrokerName: "b", BrokerID: 4, RegisterCheckCode: "127.0.0.1:10911;1700000000000"}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(temp); string(data) != "c#b#4#127.0.0.1:10911;1700000000000" {
		t.Fatalf("temp file %q", data)
	}
	m, ok, err := ReadMetadata(temp, true)
	if err != nil || !ok || m.BrokerID != 4 || m.RegisterCheckCode != "127.0.0.1:10911;1700000000000" {
		t.Fatalf("temp read back %+v %v %v", m, ok, err)
	}
	if _, ok, err := ReadMetadata(filepath.Join(dir, "none"), false); ok || err != nil {
		t.Fatalf("missing file: ok %v err %v", ok, err)
	}
}

func TestMetadataRefusesBadFilesAndOtherBrokers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "brokerIdentity")
	for _, text := range []string{"c#b", "c#b#x", "#b#1"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := ReadMetadata(path, false); !errors.Is(err, ErrMetadata) {
			t.Errorf("%q read without ErrMetadata: %v", text, err)
		}
	}
	if _, _, err := ReadMetadata(path, true); !errors.Is(err, ErrMetadata) {
		t.Errorf("temp file without check code read: %v", err)
	}
	m := Metadata{ClusterName: "c", BrokerName: "b", BrokerID: 1}
	if err := m.fits("c", "other", path); !errors.Is(err, ErrMetadata) {
		t.Fatalf("another brokerName fits: %v", err)
	}
	if err := m.fits("c", "b", path); err != nil {
		t.Fatal(err)
	}
}
