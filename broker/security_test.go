package broker

import (
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestSecurityKeys(t *testing.T) {
	cfg := DefaultConfig()
	if err := cfg.Apply(map[string]string{"accessKey": "brokerKey", "secretKey": "brokerSecret", "useTLS": "true"}); err != nil {
		t.Fatal(err)
	}
	client, err := cfg.clientConfig(nil)
	if err != nil || client.TLS == nil || client.Sign == nil {
		t.Fatalf("client config: %+v %v", client, err)
	}
	req := remoting.NewRequest(remoting.REGISTER_BROKER, map[string]string{"brokerName": "b"}, []byte("body"))
	client.Sign(req)
	if req.ExtFields["AccessKey"] != "brokerKey" || req.ExtFields["Signature"] == "" {
		t.Fatalf("not signed: %v", req.ExtFields)
	}
	lines := strings.Join(ConfigLines(cfg), "\n")
	if strings.Contains(lines, "brokerSecret") || !strings.Contains(lines, "accessKey=brokerKey") || !strings.Contains(lines, "useTLS=true") {
		t.Fatalf("-p lines:\n%s", lines)
	}
	cfg.TLSTrustCertPath = "/nonexistent.pem"
	if _, err := cfg.clientConfig(nil); err == nil {
		t.Fatal("a missing trust file was accepted")
	}
}
