package test

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// raftPortOf is a node's Raft address: its listed port + 1000 (the default
// controllerRaftPortOffset).
func raftPortOf(t *testing.T, addr string) string {
	t.Helper()
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	return net.JoinHostPort(host, strconv.Itoa(p+1000))
}

// closedUnanswered dials addr from src, writes a few bytes and wants the
// connection closed without a byte back.
func closedUnanswered(t *testing.T, src, addr string) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Skipf("cannot dial %s from %s: %v", addr, src, err)
	}
	defer c.Close()
	c.Write([]byte{0, 0x80, 1, 2, 3, 4, 5, 6}) // an AppendEntries type byte, then junk
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	if n, err := c.Read(make([]byte, 64)); n != 0 || err == nil || strings.Contains(err.Error(), "timeout") {
		t.Fatalf("%s from %s: read %d bytes, %v; want the connection closed unanswered", addr, src, n, err)
	}
}

// The controllerRaftTls* keys in the NameServer's -c file put an embedded
// group's Raft on mutual TLS: the group elects and commits; a plain
// connection from a peer's host and any connection from another host are
// refused and counted on the NameServer's /metrics.
func TestEmbeddedControllerRaftMutualTLS(t *testing.T) {
	certs, err := testcerts.WriteGroup(t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	nss, addrs := startEmbeddedGroup(t, 3, func(i int) []string {
		return []string{"controllerRaftTlsCertPath=" + certs.Certs[i], "controllerRaftTlsKeyPath=" + certs.Keys[i],
			"controllerRaftTlsTrustCertPath=" + certs.CACert}
	})
	leader := controllerLeader(t, addrs)
	b := ctltest.NewBroker(t, "cluster-t", "set-tls", addrs)
	b.Register(t) // answered once a majority stored it: over TLS
	md, err := b.Metadata(addrs[leader])
	if err != nil || md.Group != "embedded" || !md.IsLeader {
		t.Fatalf("metadata %+v %v", md, err)
	}

	raftAddr := raftPortOf(t, addrs[leader])
	closedUnanswered(t, "127.0.0.1", raftAddr)
	closedUnanswered(t, "127.0.0.2", raftAddr)
	for _, want := range []string{`rocketmq_controller_raft_refused_total{reason="tls"} 1`, `rocketmq_controller_raft_refused_total{reason="not_a_peer"} 1`} {
		eventually(t, 20*time.Second, want, func() error {
			_, body, err := nss[leader].get("/metrics")
			if err != nil {
				return err
			}
			if !strings.Contains(string(body), want+"\n") {
				return fmt.Errorf("/metrics lacks %s", want)
			}
			return nil
		})
	}
}
