package test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// startTLSNamesrv starts a NameServer whose -c file sets the TLS keys, with
// certificates made for the test, and registers a broker of two topics.
func startTLSNamesrv(t *testing.T, mode, clientAuth string) (*process, *testcerts.Set) {
	t.Helper()
	dir := t.TempDir()
	certs, err := testcerts.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "namesrv.properties")
	text := "tls.server.mode=" + mode + "\ntls.server.certPath=" + certs.ServerCert + "\ntls.server.keyPath=" + certs.ServerKey +
		"\ntls.server.trustCertPath=" + certs.CACert + "\ntls.server.need.client.auth=" + clientAuth + "\n"
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ns := startNamesrv(t, "-c", conf)
	client := remoting.NewClient(ns.Addr, remoting.ClientConfig{TLS: certs.ClientTLS(clientAuth == "require")})
	t.Cleanup(func() { _ = client.Close() })
	broker := nstest.Broker{Cluster: "TlsCluster", Name: "tls-broker", Addr: "127.0.0.1:10911", Topics: map[string]int32{"TlsTopic": 4, "TlsOther": 4}}
	nstest.Register(t, client, broker)
	return ns, certs
}

// goClientFetchesRoute asks the Apache Go client (WithTls as given) for the
// route; the admin is closed before returning (the client caches one per
// process).
func goClientFetchesRoute(t *testing.T, addr string, useTLS bool) error {
	t.Helper()
	rlog.SetLogLevel("error")
	adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver([]string{addr})), admin.WithTls(useTLS))
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	queues, err := adm.FetchPublishMessageQueues(ctx, "TlsTopic")
	if err == nil && len(queues) != 4 {
		t.Fatalf("%d queues, want 4", len(queues))
	}
	return err
}

// plainRouteQuery asks over a plain connection.
func plainRouteQuery(addr string) error {
	_, _, err := routeOf(addr, "TlsTopic")
	return err
}

func TestTLSEnforcingE2E(t *testing.T) {
	ns, _ := startTLSNamesrv(t, "enforcing", "none")
	if err := goClientFetchesRoute(t, ns.Addr, true); err != nil {
		t.Fatalf("Go client with TLS: %v", err)
	}
	if err := plainRouteQuery(ns.Addr); err == nil {
		t.Fatal("a plain client was served in enforcing mode")
	}
}

func TestTLSPermissiveE2E(t *testing.T) {
	ns, _ := startTLSNamesrv(t, "permissive", "none")
	if err := goClientFetchesRoute(t, ns.Addr, true); err != nil {
		t.Fatalf("Go client with TLS: %v", err)
	}
	if err := plainRouteQuery(ns.Addr); err != nil {
		t.Fatalf("plain client in permissive mode: %v", err)
	}
	if err := goClientFetchesRoute(t, ns.Addr, false); err != nil {
		t.Fatalf("Go client without TLS in permissive mode: %v", err)
	}
}

func TestTLSRequireClientCertE2E(t *testing.T) {
	ns, certs := startTLSNamesrv(t, "enforcing", "require")
	client := remoting.NewClient(ns.Addr, remoting.ClientConfig{TLS: certs.ClientTLS(false)})
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := client.Invoke(ctx, remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil)); err == nil {
		t.Fatal("a client without a certificate was served")
	}
	if err := goClientFetchesRoute(t, ns.Addr, true); err == nil {
		t.Fatal("the Go client, which sends no certificate, was served")
	}
}
