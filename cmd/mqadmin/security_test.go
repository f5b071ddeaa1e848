package main

import (
	"os"
	"path/filepath"
	"testing"

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
