package node

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/controller/wire"
)

// An entry the state machine cannot apply stops the node, not the process:
// Down names the index, Raft stops, state requests are no longer answered,
// /readyz and rocketmq_controller_up say so; the store is untouched, so the
// node starts again.
func TestAnEntryTheStateCannotApplyStopsTheNodeNotTheProcess(t *testing.T) {
	g := startGroup(t, 1, nil)
	g.leader(t)
	n := g.svcs[0].Node
	if got := gaugeValue(t, n, "rocketmq_controller_up"); got != 1 {
		t.Fatalf("rocketmq_controller_up %v while up", got)
	}
	// What raft's apply goroutine would hand over for an entry that got
	// past the log guard (a store written elsewhere, or a bug).
	n.fsm.Apply(&raft.Log{Index: 99, Term: 1, Type: raft.LogCommand, Data: []byte{0, 42, 0, 0, 0, 0}})

	waitFor(t, "the node down", func() bool { return n.Down() != nil })
	if !strings.Contains(n.Down().Error(), "raft log index 99") {
		t.Fatalf("down: %v", n.Down())
	}
	waitFor(t, "Raft stopped", func() bool { return n.raft.State() == raft.Shutdown })
	if n.Serving() {
		t.Fatal("a down node serves")
	}
	if st := n.Status(); !strings.Contains(st.Down, "raft log index 99") {
		t.Fatalf("status down %q", st.Down)
	}
	resp := invoke(t, g.addrs[0], wire.CodeGetReplicaInfo, &wire.GetReplicaInfoRequest{BrokerName: "any"}, nil)
	if resp.Code == 0 {
		t.Fatalf("a down node answered a state request: %d %q", resp.Code, resp.Remark)
	}
	rec := httptest.NewRecorder()
	n.HTTPHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != 503 || !strings.Contains(string(body), "raft log index 99") {
		t.Fatalf("/readyz %d %s", rec.Code, body)
	}
	if got := gaugeValue(t, n, "rocketmq_controller_up"); got != 0 {
		t.Fatalf("rocketmq_controller_up %v while down", got)
	}

	g.stop(t, 0)
	g.start(t, 0)
	g.leader(t)
	if err := g.svcs[0].Node.Down(); err != nil {
		t.Fatalf("restarted node down: %v", err)
	}
}

// gaugeValue reads one gauge of the node's registry.
func gaugeValue(t *testing.T, n *Node, name string) float64 {
	t.Helper()
	families, err := n.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("no gauge %s", name)
	return 0
}
