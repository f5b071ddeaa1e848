package node

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// sendForeignEntries sends one AppendEntries, as a stranger claiming the
// next term, carrying entries after the node's last index, through
// hashicorp's own transport (what another Raft peer would send).
func sendForeignEntries(t *testing.T, n *Node, entries ...*raft.Log) *raft.AppendEntriesResponse {
	t.Helper()
	client, err := raft.NewTCPTransport("127.0.0.1:0", nil, 1, 5*time.Second, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	last := n.raft.LastIndex()
	for i, e := range entries {
		e.Index, e.Term = last+uint64(i)+1, n.raft.CurrentTerm()+1
	}
	req := &raft.AppendEntriesRequest{
		RPCHeader: raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte("stranger"), Addr: []byte(client.LocalAddr())},
		Term:      n.raft.CurrentTerm() + 1, Entries: entries,
	}
	var resp raft.AppendEntriesResponse
	if err := client.AppendEntries("n0", raft.ServerAddress(n.self.RaftAddr), req, &resp); err != nil {
		t.Logf("append entries: %v", err)
	}
	return &resp
}

// A 3-byte configuration entry, or a command entry the FSM cannot decode,
// sent by anyone who reaches the Raft port, is refused before it is
// appended: the node lives on, the entry is not in its log, and a restart
// on the same store starts cleanly (it used to panic inside hashicorp/raft
// at once and at every restart after).
func TestUndecodableEntriesAreRefusedBeforeTheyAreAppended(t *testing.T) {
	g := startGroup(t, 1, nil)
	g.leader(t)
	n := g.svcs[0].Node
	before, term := n.raft.LastIndex(), n.raft.CurrentTerm()

	for _, bad := range []*raft.Log{
		{Type: raft.LogConfiguration, Data: []byte{0x01, 0x02, 0x03}},
		{Type: raft.LogCommand, Data: []byte{0x00, 0x63, 0, 0, 0, 2, '{', '}'}},
		{Type: raft.LogAddPeerDeprecated, Data: []byte{0x01}},
		{Type: raft.LogType(200), Data: []byte{0x01}},
	} {
		resp := sendForeignEntries(t, n, bad)
		if resp.Success {
			t.Errorf("entry of type %v: answered success", bad.Type)
		}
		var got raft.Log
		if err := n.store.GetLog(bad.Index, &got); err == nil {
			t.Errorf("entry of type %v stored at index %d", bad.Type, bad.Index)
		}
	}
	if got := n.guard.refusedCount(); got != 4 {
		t.Errorf("refused count %d, want 4", got)
	}
	if last := n.raft.LastIndex(); last != before {
		t.Errorf("last index %d, was %d", last, before)
	}
	// Refused before raft saw them: the stranger's term was not taken.
	if got := n.raft.CurrentTerm(); got != term || !n.Serving() {
		t.Errorf("term %d (was %d), serving %v", got, term, n.Serving())
	}

	g.stop(t, 0)
	g.start(t, 0)
	g.leader(t)
	b := g.svcs[0].Node
	if !strings.Contains(b.Status().Role, "Leader") {
		t.Fatalf("restarted node role %s", b.Status().Role)
	}
}

// The log guard refuses a batch holding an entry checkEntry refuses, and
// stores none of it (what raft's own appends and replication go through).
func TestLogGuardStoresNothingOfABatchWithABadEntry(t *testing.T) {
	store := raft.NewInmemStore()
	g := newLogGuard(store, testlog.Discard(), prometheus.NewRegistry())
	good := &raft.Log{Index: 1, Term: 1, Type: raft.LogNoop}
	bad := &raft.Log{Index: 2, Term: 1, Type: raft.LogConfiguration, Data: []byte{1, 2, 3}}
	if err := g.StoreLogs([]*raft.Log{good, bad}); err == nil || !strings.Contains(err.Error(), "raft log index 2") {
		t.Fatalf("StoreLogs: %v", err)
	}
	if err := g.StoreLog(bad); err == nil {
		t.Fatal("StoreLog took the bad entry")
	}
	if last, _ := store.LastIndex(); last != 0 {
		t.Fatalf("stored up to index %d", last)
	}
	if err := g.StoreLog(good); err != nil {
		t.Fatal(err)
	}
	if g.refusedCount() != 2 {
		t.Fatalf("refused %d", g.refusedCount())
	}
}
