package test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// strictACLFile has no globalWhiteRemoteAddresses: every broker must sign,
// with an admin account (broker control needs one).
const strictACLFile = `
accounts:
  - accessKey: brokerKey01
    secretKey: brokerSecret01
    admin: true
  - accessKey: userKey01
    secretKey: userSecret01
  - accessKey: adminKey01
    secretKey: adminSecret01
    admin: true
`

// startSecureNamesrv runs a NameServer with aclEnable (strictACLFile) and
// TLS enforcing, both from its -c file.
func startSecureNamesrv(t *testing.T) *process {
	t.Helper()
	dir := t.TempDir()
	certs, err := testcerts.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	aclFile := filepath.Join(dir, "plain_acl.yml")
	conf := filepath.Join(dir, "namesrv.properties")
	text := "aclEnable=true\naclFile=" + aclFile + "\naclAnonymousRouteRead=false\ntls.server.mode=enforcing\n" +
		"tls.server.certPath=" + certs.ServerCert + "\ntls.server.keyPath=" + certs.ServerKey + "\n"
	if os.WriteFile(aclFile, []byte(strictACLFile), 0o600) != nil || os.WriteFile(conf, []byte(text), 0o644) != nil {
		t.Fatal("write config")
	}
	return startNamesrv(t, "-c", conf)
}

// TestBrokerAndMqadminSignOverTLS: our broker registers signed over TLS
// (accessKey, secretKey, useTLS in broker.conf), and mqadmin reads and
// writes with credentials from flags or conf/tools.yml, over TLS.
func TestBrokerAndMqadminSignOverTLS(t *testing.T) {
	ns := startSecureNamesrv(t)
	// clusterList's -tls reaches the broker too (its runtime info): the
	// broker's port takes TLS, permissive.
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	startBroker(t, brokerSpec{cluster: "SecureCluster", name: "broker-s", nameServers: []*process{ns},
		extra: []string{"accessKey=brokerKey01", "secretKey=brokerSecret01", "useTLS=true",
			"tls.server.mode=permissive", "tls.server.certPath=" + certs.ServerCert, "tls.server.keyPath=" + certs.ServerKey}})
	t.Setenv("ROCKETMQ_HOME", t.TempDir()) // no tools.yml yet
	eventually(t, 10*time.Second, "the signed broker is in the cluster list", func() error {
		r := mqadmin(t, "clusterList", "-n", ns.Addr, "-tls", "-ak", "userKey01", "-sk", "userSecret01")
		if r.code != 0 || !strings.Contains(r.stdout, "broker-s") {
			return errString(r.stdout + r.stderr)
		}
		return nil
	})
	if r := mqadmin(t, "clusterList", "-n", ns.Addr, "-tls"); r.code == 0 || !strings.Contains(r.stderr, "CODE: 16") {
		t.Fatalf("unsigned clusterList: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mqadmin(t, "clusterList", "-n", ns.Addr, "-ak", "userKey01", "-sk", "userSecret01"); r.code == 0 {
		t.Fatalf("a plain mqadmin was served by an enforcing server:\n%s", r.stdout)
	}
	write := []string{"updateKvConfig", "-n", ns.Addr, "-tls", "-s", "ns1", "-k", "k1", "-v", "v1"}
	if r := mqadmin(t, append(write, "-ak", "userKey01", "-sk", "userSecret01")...); r.code == 0 || !strings.Contains(r.stderr, "not an admin") {
		t.Fatalf("non-admin write: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	home := os.Getenv("ROCKETMQ_HOME")
	if os.MkdirAll(filepath.Join(home, "conf"), 0o755) != nil ||
		os.WriteFile(filepath.Join(home, "conf", "tools.yml"), []byte("accessKey: adminKey01\nsecretKey: adminSecret01\n"), 0o600) != nil {
		t.Fatal("write tools.yml")
	}
	mustMqadmin(t, write...)
	if out := mustMqadmin(t, "getNamesrvConfig", "-n", ns.Addr, "-tls"); strings.Contains(out, "Secret") || !strings.Contains(out, "aclEnable") {
		t.Fatalf("getNamesrvConfig:\n%s", out)
	}
}
