package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestCredentialsFromFlagsAndToolsFile(t *testing.T) {
	home := t.TempDir()
	parsed := func(args ...string) parsedArgs {
		p, err := parseArgs(args, securityOptions)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if cred, err := credentials(parsed(), home); err != nil || !cred.Empty() {
		t.Fatalf("no tools.yml: %+v %v", cred, err)
	}
	_ = os.MkdirAll(filepath.Join(home, "conf"), 0o755)
	if err := os.WriteFile(filepath.Join(home, toolsFile), []byte("accessKey: rocketmq2\nsecretKey: 12345678\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if cred, err := credentials(parsed(), home); err != nil || cred.AccessKey != "rocketmq2" || cred.SecretKey != "12345678" {
		t.Fatalf("tools.yml: %+v %v", cred, err)
	}
	if cred, _ := credentials(parsed("-ak", "flagKey", "-sk", "flagSecret"), home); cred.AccessKey != "flagKey" || cred.SecretKey != "flagSecret" {
		t.Fatalf("flags do not win: %+v", cred)
	}
	_ = os.WriteFile(filepath.Join(home, toolsFile), []byte("accessKey: [\n"), 0o600)
	if _, err := credentials(parsed(), home); err == nil {
		t.Fatal("a broken tools.yml was accepted")
	}
	cfg, err := nameServerConfig(parsed("-tls", "-ak", "k", "-sk", "s"), "")
	if err != nil || cfg.TLS == nil || cfg.Sign == nil {
		t.Fatalf("config: %+v %v", cfg, err)
	}
	req := remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil)
	cfg.Sign(req)
	if req.ExtFields["AccessKey"] != "k" || req.ExtFields["Signature"] == "" {
		t.Fatalf("not signed: %v", req.ExtFields)
	}
}

// TestTLSTrustFromFlagsAndToolsFile: Java's client TLS keys come from a flag
// (which turns TLS on) or tools.yml; with a trust file the server is verified.
func TestTLSTrustFromFlagsAndToolsFile(t *testing.T) {
	home := t.TempDir()
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	parsed := func(args ...string) parsedArgs {
		p, err := parseArgs(args, securityOptions)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	verifies := func(cfg remoting.ClientConfig) bool {
		return cfg.TLS != nil && !cfg.TLS.InsecureSkipVerify && cfg.TLS.RootCAs != nil
	}
	if cfg, err := nameServerConfig(parsed(), home); err != nil || cfg.TLS != nil {
		t.Fatalf("no TLS asked: %+v %v", cfg.TLS, err)
	}
	if cfg, err := nameServerConfig(parsed("--tls.client.trustCertPath", certs.CACert), home); err != nil || !verifies(cfg) {
		t.Fatalf("trust flag: %v", err)
	}
	if cfg, err := nameServerConfig(parsed("-tlsTrust", certs.CACert, "-tlsCert", certs.ClientCert, "-tlsKey", certs.ClientKey), home); err != nil ||
		!verifies(cfg) || len(cfg.TLS.Certificates) != 1 {
		t.Fatalf("trust and client certificate flags: %v", err)
	}
	_ = os.MkdirAll(filepath.Join(home, "conf"), 0o755)
	text := "useTLS: true\ntls.client.trustCertPath: " + certs.CACert + "\n"
	if err := os.WriteFile(filepath.Join(home, toolsFile), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	if cfg, err := nameServerConfig(parsed(), home); err != nil || !verifies(cfg) {
		t.Fatalf("tools.yml: %v", err)
	}
	if _, err := nameServerConfig(parsed("-tlsTrust", filepath.Join(home, "missing.pem")), home); err == nil {
		t.Fatal("a missing trust file was accepted")
	}
}
