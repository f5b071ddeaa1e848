package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func raftTLSConfig(t *testing.T) (*Config, string) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"node.pem", "node.key", "ca.pem"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("pem"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c := Default()
	c.ControllerDLegerPeers, c.ControllerDLegerSelfID = "n0-127.0.0.1:9877", "n0"
	return c, dir
}

// The three controllerRaftTls* keys are set together or not at all, and
// each names a readable file; the error names the key.
func TestRaftTLSKeysAllOrNoneAndReadable(t *testing.T) {
	c, dir := raftTLSConfig(t)
	if err := c.Validate(); err != nil || c.RaftTLS() {
		t.Fatalf("no key set: %v, TLS %v", err, c.RaftTLS())
	}
	c.RaftTLSCertPath = filepath.Join(dir, "node.pem")
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "controllerRaftTlsKeyPath") || !strings.Contains(err.Error(), "controllerRaftTlsTrustCertPath") {
		t.Fatalf("only the cert set: %v", err)
	}
	c.RaftTLSKeyPath, c.RaftTLSTrustCertPath = filepath.Join(dir, "node.key"), filepath.Join(dir, "ca.pem")
	if err := c.Validate(); err != nil || !c.RaftTLS() {
		t.Fatalf("all three set: %v, TLS %v", err, c.RaftTLS())
	}
	for _, tc := range []struct {
		key string
		set func(*Config, string)
	}{
		{"controllerRaftTlsCertPath", func(c *Config, p string) { c.RaftTLSCertPath = p }},
		{"controllerRaftTlsKeyPath", func(c *Config, p string) { c.RaftTLSKeyPath = p }},
		{"controllerRaftTlsTrustCertPath", func(c *Config, p string) { c.RaftTLSTrustCertPath = p }},
	} {
		bad := c.Clone()
		tc.set(bad, filepath.Join(dir, "missing.pem"))
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s unreadable: %v", tc.key, err)
		}
		tc.set(bad, dir) // a directory: opens, does not read
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s a directory: %v", tc.key, err)
		}
	}
}

// The keys come from a controller.conf (or the NameServer's -c file when
// embedded), and a bad one stops the load naming it.
func TestRaftTLSKeysFromFile(t *testing.T) {
	_, dir := raftTLSConfig(t)
	conf := filepath.Join(dir, "controller.conf")
	write := func(trust string) {
		body := "controllerDLegerPeers=n0-127.0.0.1:9877\ncontrollerDLegerSelfId=n0\ncontrollerStorePath=" + dir + "\n" +
			"configStorePath=" + filepath.Join(dir, "stored.properties") + "\n" +
			"controllerRaftTlsCertPath=" + filepath.Join(dir, "node.pem") + "\ncontrollerRaftTlsKeyPath=" + filepath.Join(dir, "node.key") +
			"\ncontrollerRaftTlsTrustCertPath=" + trust + "\n"
		if err := os.WriteFile(conf, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "ca.pem"))
	c, err := FromFile(conf)
	if err != nil {
		t.Fatal(err)
	}
	if c.RaftTLSCertPath != filepath.Join(dir, "node.pem") || c.RaftTLSKeyPath != filepath.Join(dir, "node.key") || !c.RaftTLS() {
		t.Fatalf("read %+v", c)
	}
	write(filepath.Join(dir, "nope.pem"))
	if _, err := FromFile(conf); err == nil || !strings.Contains(err.Error(), "controllerRaftTlsTrustCertPath") {
		t.Fatalf("missing trust file: %v", err)
	}
}
