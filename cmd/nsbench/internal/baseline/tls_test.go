package baseline

import (
	"context"
	"testing"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestTLSBaselineAnswersOverTLSAndPlain: the TLS baseline answers route
// queries over TLS as the gnet one does, and over plain TCP (the seeding
// brokers' connections), and stops with its connections open.
func TestTLSBaselineAnswersOverTLSAndPlain(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	srv, err := StartTLS("127.0.0.1:0", testSpec, certs.ServerCert, certs.ServerKey, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	l := load.NewLayout(testSpec)
	topic, cluster := l.Topic(3)
	for _, secure := range []bool{true, false} {
		cfg := remoting.ClientConfig{}
		if secure {
			cfg.TLS = certs.ClientTLS(false)
		}
		c := remoting.NewClient(srv.Addr(), cfg)
		for range 3 {
			resp, err := c.Invoke(context.Background(), load.RouteRequest(topic))
			if err != nil {
				t.Fatalf("tls=%v: %v", secure, err)
			}
			if kind := l.ExpectRoute(cluster)(resp); kind != "" {
				t.Fatalf("tls=%v: route of %s: %s", secure, topic, kind)
			}
		}
		if !secure {
			if err := srv.Shutdown(); err != nil { // with this client's connection open
				t.Fatal(err)
			}
		}
		_ = c.Close()
	}
}
