package node

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// mustRefuse checks a code 1 answer whose remark names want.
func mustRefuse(t *testing.T, what string, resp *remoting.Command, want string) {
	t.Helper()
	if resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, want) {
		t.Errorf("%s: %d %.300q, want code 1 naming %s", what, resp.Code, resp.Remark, want)
	}
}

func lastIndex(g *group) uint64 { return g.svcs[0].Node.raft.LastIndex() }

// A stranger's 1009 moved controllerStorePath and controllerDLegerPeers
// and persisted them. Every key not changeable online is refused (code 1
// naming it), the whole request with it, and nothing is written.
func TestUpdateConfigRefusesKeysNotChangeableOnline(t *testing.T) {
	g := startGroup(t, 1, nil)
	for _, tc := range []struct{ body, key string }{
		{"controllerStorePath=/tmp/elsewhere\n", "controllerStorePath"},
		{"controllerDLegerPeers=n0-6.6.6.6:9877\n", "controllerDLegerPeers"},
		{"enableElectUncleanMaster=true\ncontrollerDLegerSelfId=n9\n", "controllerDLegerSelfId"},
		{"controllerRaftTlsCertPath=/tmp/x\n", "controllerRaftTlsCertPath"},
		{"aclEnable=false\n", "aclEnable"},
		{"noSuchKey=1\n", "noSuchKey"},
		{"enableElectUncleanMaster=maybe\n", "enableElectUncleanMaster"},
	} {
		mustRefuse(t, tc.body, invoke(t, g.addrs[0], wire.CodeUpdateControllerConfig, nil, []byte(tc.body)), tc.key)
	}
	cfg := g.svcs[0].Node.Config()
	if cfg.EnableElectUncleanMaster || cfg.ControllerStorePath != g.cfgs[0].ControllerStorePath || cfg.ControllerDLegerPeers != g.cfgs[0].ControllerDLegerPeers {
		t.Fatalf("a refused update changed the node's config: %+v", cfg)
	}
	if _, err := os.Stat(g.cfgs[0].ConfigStorePath); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused update wrote configStorePath: %v", err)
	}
}

// 150 x 1013 with a 1 MB brokerName all succeeded (memory 14 -> 330 MiB,
// store 0 -> 153 MiB). Names and addresses past REGISTER_BROKER's bounds are
// refused naming the field in every request that takes them, before the
// log.
func TestOversizedNamesAreRefusedBeforeTheLog(t *testing.T) {
	g := startGroup(t, 1, nil)
	g.leader(t)
	huge := strings.Repeat("x", 1<<20)
	long := strings.Repeat("n", 256) // one past route.MaxNameLength
	before := lastIndex(g)
	cases := []struct {
		name   string
		code   int32
		header any
		body   []byte
		field  string
	}{
		{"1013 brokerName", wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: huge, AppliedBrokerID: 1, RegisterCheckCode: "127.0.0.1:1;1"}, nil, "brokerName"},
		{"1013 brokerName 256", wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: long, AppliedBrokerID: 1, RegisterCheckCode: "127.0.0.1:1;1"}, nil, "brokerName"},
		{"1013 clusterName", wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: huge, BrokerName: "b", AppliedBrokerID: 1, RegisterCheckCode: "127.0.0.1:1;1"}, nil, "clusterName"},
		{"1013 check code address", wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: "b", AppliedBrokerID: 1, RegisterCheckCode: huge + ";1"}, nil, "registerCheckCode"},
		{"1013 check code tail", wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: "b", AppliedBrokerID: 1, RegisterCheckCode: "127.0.0.1:1;" + huge}, nil, "registerCheckCode"},
		{"1003 brokerAddress", wire.CodeRegisterBroker, &wire.RegisterBrokerRequest{ClusterName: "c", BrokerName: "b", BrokerID: 1, BrokerAddress: huge}, nil, "brokerAddress"},
		{"1003 brokerName", wire.CodeRegisterBroker, &wire.RegisterBrokerRequest{ClusterName: "c", BrokerName: huge, BrokerID: 1, BrokerAddress: "a"}, nil, "brokerName"},
		{"1001 brokerName", wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: huge, MasterBrokerID: 1, MasterEpoch: 1}, []byte(`{"syncStateSet":[1],"syncStateSetEpoch":1}`), "brokerName"},
		{"1002 clusterName", wire.CodeElectMaster, &wire.ElectMasterRequest{ClusterName: huge, BrokerName: "b", BrokerID: 1}, nil, "clusterName"},
		{"1002 brokerName", wire.CodeElectMaster, &wire.ElectMasterRequest{ClusterName: "c", BrokerName: huge, BrokerID: 1}, nil, "brokerName"},
		{"1004 brokerName", wire.CodeGetReplicaInfo, &wire.GetReplicaInfoRequest{BrokerName: huge}, nil, "brokerName"},
		{"1006 a name of the body", wire.CodeGetSyncStateData, nil, []byte(`["b","` + long + `"]`), "brokerName"},
		{"1011 brokerName", wire.CodeCleanBrokerData, &wire.CleanBrokerDataRequest{ClusterName: "c", BrokerName: huge, IsCleanLivingBroker: true}, nil, "brokerName"},
		{"1011 ids past the set bound", wire.CodeCleanBrokerData, &wire.CleanBrokerDataRequest{ClusterName: "c", BrokerName: "b",
			BrokerControllerIdsToClean: strings.Repeat("1;", config.DefaultMaxBrokerIDsPerSet) + "2", IsCleanLivingBroker: true}, nil, "brokerControllerIdsToClean"},
		{"1012 brokerName", wire.CodeGetNextBrokerID, &wire.GetNextBrokerIDRequest{ClusterName: "c", BrokerName: huge}, nil, "brokerName"},
		{"904 brokerName", wire.CodeBrokerHeartbeat, &wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: huge, BrokerAddr: "a", BrokerID: ptr(int64(1))}, nil, "brokerName"},
		{"904 brokerAddr", wire.CodeBrokerHeartbeat, &wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: "b", BrokerAddr: huge, BrokerID: ptr(int64(1))}, nil, "brokerAddr"},
	}
	for _, tc := range cases {
		mustRefuse(t, tc.name, invoke(t, g.addrs[0], tc.code, tc.header, tc.body), tc.field)
	}
	if after := lastIndex(g); after != before {
		t.Fatalf("the refused requests reached the log: last index %d -> %d", before, after)
	}
	var sets int
	g.svcs[0].Node.fsm.Read(func(s *controller.State) { sets = s.SetCount() })
	if sets != 0 || g.svcs[0].Node.live.size() != 0 {
		t.Fatalf("state after the refusals: %d sets, %d heartbeats", sets, g.svcs[0].Node.live.size())
	}
	// At the bound itself a name is taken.
	ok := invoke(t, g.addrs[0], wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: long[:255], AppliedBrokerID: 1,
		RegisterCheckCode: strings.Repeat("a", 255) + ";1733572800000"}, nil)
	if ok.Code != remoting.SUCCESS {
		t.Fatalf("a 255-byte name: %d %q", ok.Code, ok.Remark)
	}
}

func ptr[T any](v T) *T { return &v }

// A two-way BROKER_HEARTBEAT without clusterName, brokerName or brokerAddr
// was answered SUCCESS and kept; now it is refused naming the field, and a
// one-way one is dropped and counted.
func TestHeartbeatWithoutItsNamesIsRefused(t *testing.T) {
	g := startGroup(t, 1, nil)
	full := func() *wire.BrokerHeartbeatRequest {
		return &wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: "b", BrokerAddr: "127.0.0.1:1", BrokerID: ptr(int64(1))}
	}
	for field, clear := range map[string]func(*wire.BrokerHeartbeatRequest){
		"clusterName": func(h *wire.BrokerHeartbeatRequest) { h.ClusterName = "" },
		"brokerName":  func(h *wire.BrokerHeartbeatRequest) { h.BrokerName = "" },
		"brokerAddr":  func(h *wire.BrokerHeartbeatRequest) { h.BrokerAddr = "" },
	} {
		h := full()
		clear(h)
		mustRefuse(t, "heartbeat without "+field, invoke(t, g.addrs[0], wire.CodeBrokerHeartbeat, h, nil), field)
	}
	c := nstest.NewClient(t, g.addrs[0])
	h := full()
	h.BrokerAddr = ""
	if err := c.InvokeOneway(nstest.Context(t), remoting.NewRequest(wire.CodeBrokerHeartbeat, remoting.EncodeHeader(h), nil)); err != nil {
		t.Fatal(err)
	}
	refused := g.svcs[0].Node.metrics.refused.WithLabelValues("904", refusedMissing)
	waitFor(t, "the one-way heartbeat counted as refused", func() bool { return testutil.ToFloat64(refused) == 4 })
	if n := g.svcs[0].Node.live.size(); n != 0 {
		t.Fatalf("%d members in the heartbeat table after refused heartbeats", n)
	}
	// A complete one is still taken.
	ctlOK := invoke(t, g.addrs[0], wire.CodeBrokerHeartbeat, full(), nil)
	if ctlOK.Code != remoting.SUCCESS || g.svcs[0].Node.live.size() != 1 {
		t.Fatalf("a complete heartbeat: %d %q, %d members", ctlOK.Code, ctlOK.Remark, g.svcs[0].Node.live.size())
	}
}

// controllerMaxBrokerSets and controllerMaxBrokerIdsPerSet: a 1013 that
// would add a set or a member past them is refused naming the key, before
// the log; a retry of an id held, and the sets and ids within, are taken.
func TestApplyBrokerIDPastTheStateBoundsIsRefused(t *testing.T) {
	g := startGroup(t, 1, func(c *config.Config) { c.MaxBrokerSets, c.MaxBrokerIDsPerSet = 2, 2 })
	g.leader(t)
	apply := func(set string, id int64, code string) *remoting.Command {
		return invoke(t, g.addrs[0], wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: set,
			AppliedBrokerID: id, RegisterCheckCode: code}, nil)
	}
	for _, set := range []string{"a", "b"} {
		if r := apply(set, 1, "127.0.0.1:1;1"); r.Code != remoting.SUCCESS {
			t.Fatalf("set %s: %d %q", set, r.Code, r.Remark)
		}
	}
	if r := apply("a", 2, "127.0.0.1:2;2"); r.Code != remoting.SUCCESS {
		t.Fatalf("a second id: %d %q", r.Code, r.Remark)
	}
	before := lastIndex(g)
	mustRefuse(t, "a third set", apply("c", 1, "127.0.0.1:1;1"), "controllerMaxBrokerSets")
	mustRefuse(t, "a third id", apply("a", 3, "127.0.0.1:3;3"), "controllerMaxBrokerIdsPerSet")
	if after := lastIndex(g); after != before {
		t.Fatalf("the refused applies reached the log: last index %d -> %d", before, after)
	}
	// Java's own answers come first: an unknown set's id 2 is 2015.
	if r := apply("d", 2, "127.0.0.1:1;1"); r.Code != controller.CodeBrokerIDInvalid {
		t.Fatalf("unknown set, id 2: %d %q", r.Code, r.Remark)
	}
	if r := apply("a", 2, "127.0.0.1:2;2"); r.Code != remoting.SUCCESS {
		t.Fatalf("a retry of a held id at the bound: %d %q", r.Code, r.Remark)
	}
}

// controllerMaxHeartbeatEntries: a new member's heartbeat past it is
// refused naming the key (it was SYSTEM_BUSY); a known member's refreshes.
func TestHeartbeatPastTheTableBoundIsRefusedNamingTheKey(t *testing.T) {
	g := startGroup(t, 1, func(c *config.Config) { c.MaxHeartbeatEntries = 1 })
	beat := func(id int64) *remoting.Command {
		return invoke(t, g.addrs[0], wire.CodeBrokerHeartbeat, &wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: "b",
			BrokerAddr: "127.0.0.1:1", BrokerID: ptr(id)}, nil)
	}
	ctltest.MustCode(t, beat(1), remoting.SUCCESS)
	mustRefuse(t, "a second member past the bound of 1", beat(2), "controllerMaxHeartbeatEntries")
	ctltest.MustCode(t, beat(1), remoting.SUCCESS)
	if n := g.svcs[0].Node.live.size(); n != 1 {
		t.Fatalf("%d members held, want 1", n)
	}
}
