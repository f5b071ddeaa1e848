package test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// TestControllerModeBrokersSpeakTLS: a controller and two controller-mode
// brokers, every one of them with tls.server.mode=enforcing and
// useTLS=true (the controller's role notices to the brokers go over TLS). The brokers' registrations and heartbeats reach the
// controller over TLS (the first is elected master, the second becomes its
// slave), and the slave's heartbeats reach its enforcing master over TLS
// (the in-sync set grows to both, which needs them).
func TestControllerModeBrokersSpeakTLS(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	serverTLS := []string{"tls.server.mode=enforcing", "tls.server.certPath=" + certs.ServerCert, "tls.server.keyPath=" + certs.ServerKey}
	ctl := startControllerGroup(t, 1, "-tls.server.mode", "enforcing", "-tls.server.certPath", certs.ServerCert,
		"-tls.server.keyPath", certs.ServerKey, "-useTLS=true", "-tls.client.trustCertPath", certs.CACert)
	// Permissive: the brokers register over TLS, the test reads routes plain.
	ns := startNamesrv(t, "-tls.server.mode", "permissive", "-tls.server.certPath", certs.ServerCert, "-tls.server.keyPath", certs.ServerKey)
	conf := append(controllerModeConf(ctl.addrs[0]), append(serverTLS, "useTLS=true", "tls.client.trustCertPath="+certs.CACert)...)
	const cluster, set = "tls-cluster", "tls-set"
	a, b := startMasterAndSlave(t, ns, cluster, set, conf, 20*time.Second)
	eventually(t, 20*time.Second, "the in-sync set of both", func() error {
		r := mqadmin(t, "getSyncStateSet", "-a", ctl.addrs[0], "-b", set, "-tls", "-tlsTrust", certs.CACert)
		if r.code != 0 {
			return fmt.Errorf("getSyncStateSet: exit %d: %s", r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, "#SyncStateSetNums\t2") || !strings.Contains(r.stdout, a.Addr) || !strings.Contains(r.stdout, b.Addr) {
			return fmt.Errorf("getSyncStateSet:\n%s", r.stdout)
		}
		return nil
	})
}
