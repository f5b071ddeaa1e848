package node

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/hashicorp/raft"
)

// An InstallSnapshot whose configuration does not decode, sent by anyone who
// reaches the Raft port, is refused: hashicorp/raft decodes it with
// DecodeConfiguration, which panics, before it looks at the snapshot.
func TestInstallSnapshotWithAnUndecodableConfigurationIsRefused(t *testing.T) {
	g := startGroup(t, 1, nil)
	g.leader(t)
	n := g.svcs[0].Node
	client, err := raft.NewTCPTransport("127.0.0.1:0", nil, 1, 5*time.Second, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	term := n.raft.CurrentTerm()
	state := []byte(`{"version":1,"replicaInfo":[],"syncStateInfo":[]}`)
	var resp raft.InstallSnapshotResponse
	err = client.InstallSnapshot("n0", raft.ServerAddress(n.self.RaftAddr), &raft.InstallSnapshotRequest{
		RPCHeader:       raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte("stranger"), Addr: []byte(client.LocalAddr())},
		SnapshotVersion: raft.SnapshotVersionMax, Term: n.raft.CurrentTerm() + 1, LastLogIndex: n.raft.LastIndex() + 10, LastLogTerm: n.raft.CurrentTerm() + 1,
		Configuration: []byte{1, 2, 3}, ConfigurationIndex: 1, Size: int64(len(state)),
	}, &resp, bytes.NewReader(state))
	if err == nil || resp.Success {
		t.Fatalf("the snapshot was installed: %v", err)
	}
	if got := n.raft.CurrentTerm(); got != term || !n.Serving() || n.guard.refusedCount() != 1 {
		t.Fatalf("term %d (was %d), serving %v, refused %d", got, term, n.Serving(), n.guard.refusedCount())
	}
	g.stop(t, 0)
	g.start(t, 0)
	g.leader(t)
}
