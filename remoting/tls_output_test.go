package remoting

import (
	"bufio"
	"crypto/tls"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// tlsBigAnswerServer is poolAnswerServer with TLS enforced; its handler
// waits for release.
func tlsBigAnswerServer(t *testing.T, cfg ServerConfig, release chan struct{}) (*Server, *testcerts.Set, chan uint64) {
	t.Helper()
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg.TLS = &TLSOptions{Mode: TLSEnforcing, CertPath: certs.ServerCert, KeyPath: certs.ServerKey, TrustCertPath: certs.CACert}
	closed := make(chan uint64, 4)
	var calls atomic.Int64
	return poolAnswerServer(t, cfg, &calls, closed, release), certs, closed
}

// dialTLSSmallWindow is a TLS peer with a small receive buffer.
func dialTLSSmallWindow(t *testing.T, server *Server, certs *testcerts.Set) *rawConn {
	t.Helper()
	raw, err := net.DialTimeout("tcp", server.Addr().String(), waitLimit)
	if err != nil {
		t.Fatal(err)
	}
	_ = raw.(*net.TCPConn).SetReadBuffer(16 << 10)
	conn := tls.Client(raw, certs.ClientTLS(false))
	if err := conn.Handshake(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawConn{t: t, conn: conn, reader: bufio.NewReader(conn)}
}

// TestTLSWorkerAnswersCountAgainstTheBudget: a TLS peer pipelines 40 worker
// answers of 256 KiB (10 MiB) and reads nothing for a while, against a
// 1 MiB budget. Before, the TLS path wrote every worker answer from a
// goroutine of its own with a joined copy, counted nowhere: all 40 were
// SUCCESS. Now they count: the answers past the budget are SYSTEM_BUSY with
// the budget's remark, every request is answered once the peer reads, and
// the budget is free again afterwards.
func TestTLSWorkerAnswersCountAgainstTheBudget(t *testing.T) {
	release := make(chan struct{})
	close(release)
	server, certs, _ := tlsBigAnswerServer(t, ServerConfig{OutboundSoftLimit: 32 << 20, OutboundHardLimit: 64 << 20, OutboundMemoryLimit: 1 << 20}, release)
	peer := dialTLSSmallWindow(t, server, certs)
	peer.write(pipelinedCode(t, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, 40))
	deadline := time.Now().Add(waitLimit)
	for server.OutboundBudgetRefusals() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no answer refused for the budget (held %d)", server.OutboundHeldBytes())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if held := server.OutboundHeldBytes(); held > 1<<20+int64(len(bigAnswerBody))+64<<10 {
		t.Fatalf("held %d bytes past a 1 MiB budget", held)
	}
	ok, busy := readBudgetAnswers(t, peer, 40)
	if ok == 0 || busy == 0 {
		t.Fatalf("%d answered, %d refused; want both", ok, busy)
	}
	waitOutboundReleased(t, server, "once every answer was read")
}

// TestTLSWorkerAnswersToNonReaderCloseAtHardLimit: the same pipeline under
// a 2 MiB hard limit and no budget in the way, every request on the pool
// before the first answer (else the soft limit would leave the rest
// unread): the TLS connection is closed there, as a gnet one is.
func TestTLSWorkerAnswersToNonReaderCloseAtHardLimit(t *testing.T) {
	release := make(chan struct{})
	server, certs, closed := tlsBigAnswerServer(t, ServerConfig{OutboundSoftLimit: 64 << 10, OutboundHardLimit: 2 << 20, OutboundMemoryLimit: 1 << 30}, release)
	peer := dialTLSSmallWindow(t, server, certs)
	peer.write(pipelinedCode(t, GET_ALL_TOPIC_LIST_FROM_NAMESERVER, 40))
	waitOnPools(t, server, 40)
	close(release)
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatalf("the TLS peer that never reads was not closed (held %d)", server.OutboundHeldBytes())
	}
	if server.OutboundClosedConnections() != 1 {
		t.Fatalf("closed %d connections for the hard limit, want 1", server.OutboundClosedConnections())
	}
}
