package test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// TestTLSVerifiedByBrokerAndMqadmin: with a private CA, our broker
// (useTLS, tls.client.trustCertPath, a client certificate) registers with
// a NameServer that enforces TLS and requires client certificates, and
// mqadmin (-tlsTrust and its client certificate) reads it; both verify the
// server for the host they dialled. A CA that did not sign the server is
// refused by both, and a plain mqadmin is told that TLS is required while
// the server logs why it closed.
func TestTLSVerifiedByBrokerAndMqadmin(t *testing.T) {
	ns, certs := startTLSNamesrv(t, "enforcing", "require")
	other, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tlsKeys := func(ca string) []string {
		return []string{"useTLS=true", "tls.client.trustCertPath=" + ca,
			"tls.client.certPath=" + certs.ClientCert, "tls.client.keyPath=" + certs.ClientKey}
	}
	startBroker(t, brokerSpec{cluster: "VerifiedCluster", name: "broker-v", nameServers: []*process{ns}, extra: tlsKeys(certs.CACert)})
	wrongBroker := startBroker(t, brokerSpec{cluster: "VerifiedCluster", name: "broker-w", nameServers: []*process{ns}, extra: tlsKeys(other.CACert)})
	t.Setenv("ROCKETMQ_HOME", t.TempDir())
	verified := []string{"clusterList", "-n", ns.Addr, "-tlsTrust", certs.CACert, "-tlsCert", certs.ClientCert, "-tlsKey", certs.ClientKey}
	eventually(t, 15*time.Second, "the verifying broker is in the cluster list", func() error {
		r := mqadmin(t, verified...)
		// Exit 2 is a partial answer: startTLSNamesrv's own registration
		// names a broker (tls-broker) that no process serves, so its
		// runtime info is missing; broker-v's row is what this test reads.
		if (r.code != 0 && r.code != 2) || !strings.Contains(r.stdout, "broker-v") {
			return errString(r.stdout + r.stderr)
		}
		return nil
	})
	eventually(t, 15*time.Second, "the broker trusting another CA logs why it cannot register", func() error {
		if log, _ := os.ReadFile(wrongBroker.logPath); !strings.Contains(string(log), "tls.client.trustCertPath") {
			return errString("not yet in the broker's log")
		}
		return nil
	})
	if r := mqadmin(t, verified...); strings.Contains(r.stdout, "broker-w") {
		t.Fatalf("the broker trusting another CA registered:\n%s", r.stdout)
	}
	wrong := []string{"clusterList", "-n", ns.Addr, "-tlsTrust", other.CACert, "-tlsCert", certs.ClientCert, "-tlsKey", certs.ClientKey}
	if r := mqadmin(t, wrong...); r.code == 0 || !strings.Contains(r.stderr, "does not verify") {
		t.Fatalf("mqadmin trusting another CA: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	eventually(t, 10*time.Second, "a plain mqadmin is told TLS is required and the server logs it", func() error {
		r := mqadmin(t, "clusterList", "-n", ns.Addr)
		if r.code == 0 || !strings.Contains(r.stderr, "turn TLS on") {
			t.Fatalf("plain mqadmin against an enforcing server: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if log, _ := os.ReadFile(ns.logPath); !strings.Contains(string(log), "first record does not look like a TLS handshake") {
			return errString("not yet in the server's log")
		}
		return nil
	})
}
