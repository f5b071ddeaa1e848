package node

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/raftnet"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
)

// fromStream is a raft.StreamLayer that dials from a chosen source address
// (Linux routes all of 127/8 to lo), over TLS when tlsCfg is set: a
// stranger's hashicorp/raft client.
type fromStream struct {
	net.Listener
	src    net.IP
	tlsCfg *tls.Config
}

func (s fromStream) Dial(addr raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: s.src}, Timeout: timeout}
	c, err := d.Dial("tcp", string(addr))
	if err != nil || s.tlsCfg == nil {
		return c, err
	}
	tc := tls.Client(c, s.tlsCfg)
	tc.SetDeadline(time.Now().Add(timeout))
	if err := tc.Handshake(); err != nil {
		c.Close()
		return nil, err
	}
	tc.SetDeadline(time.Time{})
	return tc, nil
}

// clientTransport is a hashicorp/raft NetworkTransport whose connections
// leave from src (skipped where src cannot be bound).
func clientTransport(t *testing.T, src string, tlsCfg *tls.Config) *raft.NetworkTransport {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(src, "0"))
	if err != nil {
		t.Skipf("cannot bind %s: %v", src, err)
	}
	trans := raft.NewNetworkTransport(fromStream{Listener: ln, src: net.ParseIP(src), tlsCfg: tlsCfg}, 1, 10*time.Second, io.Discard)
	t.Cleanup(func() { trans.Close() })
	return trans
}

// strangerAppend is the AppendEntries that moved a route in issue 35: the
// node's term + 1, one entry after its last that gives a broker an id, and
// a commit index that covers it.
func strangerAppend(t *testing.T, n *Node) *raft.AppendEntriesRequest {
	t.Helper()
	data, err := controller.EncodeEntry([]controller.Event{controller.ApplyBrokerIDEvent{ClusterName: "evil", BrokerName: "stranger-set",
		BrokerAddress: "6.6.6.6:10911", RegisterCheckCode: "6.6.6.6:10911;1", NewBrokerID: 1}})
	if err != nil {
		t.Fatal(err)
	}
	stats := n.raft.Stats()
	last, _ := strconv.ParseUint(stats["last_log_index"], 10, 64)
	lastTerm, _ := strconv.ParseUint(stats["last_log_term"], 10, 64)
	term := n.raft.CurrentTerm() + 1
	return &raft.AppendEntriesRequest{
		RPCHeader: raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte("stranger"), Addr: []byte("127.0.0.2:1")},
		Term:      term, PrevLogEntry: last, PrevLogTerm: lastTerm, LeaderCommitIndex: last + 1,
		Entries: []*raft.Log{{Index: last + 1, Term: term, Type: raft.LogCommand, Data: data}},
	}
}

func hasSet(n *Node, name string) bool {
	var ok bool
	n.fsm.Read(func(st *controller.State) { _, ok = st.ReplicaInfo(name) })
	return ok
}

func refused(n *Node, reason string) float64 {
	return testutil.ToFloat64(n.metrics.raftRefused.WithLabelValues(reason))
}

// A stranger's AppendEntries (from 127.0.0.2, the group on 127.0.0.1) is
// closed unanswered: the node keeps its term, its log and its state.
func TestRaftPortRefusesAStrangersAppendEntries(t *testing.T) {
	g := startGroup(t, 1, nil)
	n := g.svcs[g.leader(t)].Node
	trans := clientTransport(t, "127.0.0.2", nil)
	term, lastIndex := n.raft.CurrentTerm(), n.raft.LastIndex()
	var resp raft.AppendEntriesResponse
	err := trans.AppendEntries("n0", raft.ServerAddress(n.self.RaftAddr), strangerAppend(t, n), &resp)
	if err == nil {
		t.Fatalf("the stranger's AppendEntries was answered: %+v", resp)
	}
	waitFor(t, "the refusal counted", func() bool { return refused(n, raftnet.ReasonNotAPeer) >= 1 })
	if got := n.raft.CurrentTerm(); got != term {
		t.Fatalf("term %d after the stranger's AppendEntries, was %d", got, term)
	}
	if got := n.raft.LastIndex(); got != lastIndex {
		t.Fatalf("last index %d after the stranger's AppendEntries, was %d", got, lastIndex)
	}
	// The node still leads and commits: a write after the refusal applies,
	// and the stranger's entry never did.
	b := ctltest.NewBroker(t, "c", "real-set", g.addrs)
	b.Register(t)
	if !hasSet(n, "real-set") || hasSet(n, "stranger-set") {
		t.Fatalf("real-set applied %v, stranger-set applied %v", hasSet(n, "real-set"), hasSet(n, "stranger-set"))
	}
}

// A stranger's RequestVote naming a follower (term + 1, a longer log,
// leadership transfer set) does not make the leader step down.
func TestRaftPortRefusesAStrangersRequestVote(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	n := g.svcs[leader].Node
	follower := g.svcs[(leader+1)%3].Node.self
	trans := clientTransport(t, "127.0.0.2", nil)
	term := n.raft.CurrentTerm()
	req := &raft.RequestVoteRequest{
		RPCHeader: raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte(follower.ID), Addr: []byte(follower.RaftAddr)},
		Term:      term + 1, LastLogIndex: n.raft.LastIndex() + 100, LastLogTerm: term + 1, LeadershipTransfer: true,
	}
	var resp raft.RequestVoteResponse
	if err := trans.RequestVote(raft.ServerID(n.self.ID), raft.ServerAddress(n.self.RaftAddr), req, &resp); err == nil {
		t.Fatalf("the stranger's RequestVote was answered: %+v", resp)
	}
	waitFor(t, "the refusal counted", func() bool { return refused(n, raftnet.ReasonNotAPeer) >= 1 })
	if got := n.raft.CurrentTerm(); got != term || n.raft.State() != raft.Leader {
		t.Fatalf("after the stranger's RequestVote: term %d (was %d), state %v", got, term, n.raft.State())
	}
}

// Raft listens on the self peer's host only: the address is the listed
// one, and the port is closed on another loopback address.
func TestRaftListensOnTheSelfHostOnly(t *testing.T) {
	g := startGroup(t, 1, nil)
	n := g.svcs[0].Node
	if got := string(n.trans.LocalAddr()); got != n.self.RaftAddr {
		t.Fatalf("Raft listens on %s, the self peer's Raft address is %s", got, n.self.RaftAddr)
	}
	_, port, _ := net.SplitHostPort(n.self.RaftAddr)
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.2", port), 10*time.Second); err == nil {
		c.Close()
		t.Fatalf("the Raft port answers on 127.0.0.2:%s", port)
	}
}

// With controllerRaftTls* set a 3-node group elects and commits over
// mutual TLS; a plain client and a client of another CA, both from a
// peer's host, are refused and counted.
func TestRaftMutualTLSGroup(t *testing.T) {
	certs, err := testcerts.WriteGroup(t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	other, err := testcerts.WriteGroup(t.TempDir(), 1)
	if err != nil {
		t.Fatal(err)
	}
	g := startGroup(t, 3, func(c *config.Config) {
		var i int
		fmt.Sscanf(c.ControllerDLegerSelfID, "n%d", &i)
		c.RaftTLSCertPath, c.RaftTLSKeyPath, c.RaftTLSTrustCertPath = certs.Certs[i], certs.Keys[i], certs.CACert
	})
	leader := g.leader(t)
	b := ctltest.NewBroker(t, "c", "tls-set", g.addrs)
	b.Register(t)
	for i, s := range g.svcs {
		waitFor(t, fmt.Sprintf("node %d has the registration", i), func() bool { return hasSet(s.Node, "tls-set") })
	}

	n := g.svcs[leader].Node
	term := n.raft.CurrentTerm()
	var resp raft.AppendEntriesResponse
	if err := clientTransport(t, "127.0.0.1", nil).AppendEntries("x", raft.ServerAddress(n.self.RaftAddr), strangerAppend(t, n), &resp); err == nil {
		t.Fatalf("a plain AppendEntries was answered: %+v", resp)
	}
	waitFor(t, "the plain connection counted", func() bool { return refused(n, raftnet.ReasonTLS) >= 1 })

	pair, err := other.Pair(0)
	if err != nil {
		t.Fatal(err)
	}
	// The client skips its own check of the server: only the server's
	// check of the client's certificate is under test.
	otherCA := &tls.Config{Certificates: []tls.Certificate{pair}, InsecureSkipVerify: true, MinVersion: tls.VersionTLS12}
	if err := clientTransport(t, "127.0.0.1", otherCA).AppendEntries("x", raft.ServerAddress(n.self.RaftAddr), strangerAppend(t, n), &resp); err == nil {
		t.Fatalf("an AppendEntries with another CA's certificate was answered: %+v", resp)
	}
	waitFor(t, "the other CA's connection counted", func() bool { return refused(n, raftnet.ReasonTLS) >= 2 })
	if got := n.raft.CurrentTerm(); got != term || hasSet(n, "stranger-set") {
		t.Fatalf("after the refused clients: term %d (was %d), stranger-set applied %v", got, term, hasSet(n, "stranger-set"))
	}
}
