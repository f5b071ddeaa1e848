package node

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/raftnet"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// growableGroup is a group of total configured nodes of which the first
// boot bootstrap it (their controllerDLegerPeers lists only them); the
// others list every node and join (controllerJoinGroup), not started.
func growableGroup(t *testing.T, boot, total int, tweak func(*config.Config)) *group {
	t.Helper()
	g := &group{cfgs: groupConfigs(t, total, tweak)}
	all := strings.Split(g.cfgs[0].ControllerDLegerPeers, ";")
	for i, c := range g.cfgs {
		self, _ := c.Self()
		g.addrs = append(g.addrs, self.Addr)
		if i < boot {
			c.ControllerDLegerPeers = strings.Join(all[:boot], ";")
		} else {
			c.JoinGroup = true
		}
	}
	for i := range boot {
		g.start(t, i)
	}
	return g
}

// peerText is node i's peer in controllerDLegerPeers' form.
func (g *group) peerText(i int) string { return fmt.Sprintf("n%d-%s", i, g.addrs[i]) }

// voters decodes a 5022 or 5023 success into its voters' ids.
func voters(t *testing.T, resp *remoting.Command) []string {
	t.Helper()
	ctltest.MustCode(t, resp, remoting.SUCCESS)
	res, err := wire.DecodeControllerPeers(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range res.Voters {
		ids = append(ids, v.ID)
	}
	return ids
}

// onLeader sends do to the serving leader, again while the answer is 2007
// (a leader change at the group's start): it returns the leader's index
// and answer.
func (g *group) onLeader(t *testing.T, do func(addr string) *remoting.Command) (int, *remoting.Command) {
	t.Helper()
	var leader int
	var resp *remoting.Command
	waitFor(t, "an answer of the leader", func() bool {
		leader = g.leader(t)
		resp = do(g.addrs[leader])
		return resp.Code != controller.CodeNotLeader
	})
	return leader, resp
}

func addPeer(t *testing.T, addr, peer string) *remoting.Command {
	t.Helper()
	return invoke(t, addr, wire.CodeAddControllerPeer, &wire.AddControllerPeerRequest{Peer: peer}, nil)
}

func removePeer(t *testing.T, addr, id string) *remoting.Command {
	t.Helper()
	return invoke(t, addr, wire.CodeRemoveControllerPeer, &wire.RemoveControllerPeerRequest{ID: id}, nil)
}

// hasSet says whether node i's state holds the broker set name.
func (g *group) holds(i int, name string) bool {
	var ok bool
	g.svcs[i].Node.fsm.Read(func(st *controller.State) { _, ok = st.ReplicaInfo(name) })
	return ok
}

// joined says whether n's own Raft configuration lists it (a joining
// node's peerList is controllerDLegerPeers until then).
func joined(n *Node) bool {
	c, _, err := n.configuration()
	return err == nil && hasMember(c, n.self.ID)
}

func memberIDs(n *Node) []string {
	var ids []string
	for _, p := range n.peerList() {
		ids = append(ids, p.ID)
	}
	return ids
}

// Grow 3 -> 5 online: a follower answers 2007 naming the leader; the
// leader adds each joining node, which catches up (the set written before
// it started, from a snapshot and the log) without bootstrapping a group
// of its own; every node's members follow. Two of the first three stop and
// the group still serves writes; their removal shrinks it to 3.
func TestGrowToFiveKillTwoAndShrinkOnline(t *testing.T) {
	g := growableGroup(t, 3, 5, func(c *config.Config) { c.SnapshotThreshold = 1 })
	leader := g.leader(t)
	before := ctltest.NewBroker(t, "c", "before", g.addrs[:3])
	before.Register(t)
	if err := g.svcs[leader].Node.raft.Snapshot().Error(); err != nil {
		t.Fatal(err)
	}
	// A follower answers 2007 naming the leader (asked again should the
	// lead move meanwhile, as it may on a loaded host).
	var resp *remoting.Command
	waitFor(t, "a follower's 2007 naming the leader", func() bool {
		leader = g.leader(t)
		resp = addPeer(t, g.addrs[(leader+1)%3], g.peerText(3))
		return resp.Code == controller.CodeNotLeader && resp.ExtFields[wire.LeaderAddressExt] == g.addrs[leader]
	})
	for _, i := range []int{3, 4} {
		g.start(t, i)
		if s := g.svcs[i].Node.raft.State(); s == raft.Leader || g.svcs[i].Node.Serving() {
			t.Fatalf("joining node %d leads a group of its own (%s)", i, s)
		}
		leader, resp = g.onLeader(t, func(addr string) *remoting.Command { return addPeer(t, addr, g.peerText(i)) })
		got := voters(t, resp)
		if want := []string{"n0", "n1", "n2", "n3", "n4"}[:i+1]; !slices.Equal(got, want) {
			t.Fatalf("voters after adding n%d: %v, want %v", i, got, want)
		}
		// Adding the same peer again changes nothing; the same id at
		// another address is refused.
		_, resp = g.onLeader(t, func(addr string) *remoting.Command { return addPeer(t, addr, g.peerText(i)) })
		if got := voters(t, resp); len(got) != i+1 {
			t.Fatalf("adding n%d again: %v", i, got)
		}
		_, resp = g.onLeader(t, func(addr string) *remoting.Command { return addPeer(t, addr, fmt.Sprintf("n%d-127.0.0.1:1", i)) })
		mustRefuse(t, "a member's id at another address", resp, "remove it first")
	}
	for i := range 5 {
		waitFor(t, fmt.Sprintf("node %d lists 5 members", i), func() bool { return len(g.svcs[i].Node.peerList()) == 5 })
	}
	for _, i := range []int{3, 4} {
		waitFor(t, fmt.Sprintf("node %d caught up", i), func() bool { return joined(g.svcs[i].Node) && g.holds(i, "before") })
	}
	md, err := before.Metadata(g.addrs[4])
	if err != nil || !strings.Contains(md.Peers, "n4:"+g.addrs[4]+";") || md.ControllerLeaderAddress != g.addrs[leader] {
		t.Fatalf("1005 of the new node: %+v %v", md, err)
	}

	// Two of the first three stop: three of five still commit.
	stopped := []int{(leader + 1) % 3, (leader + 2) % 3}
	for _, i := range stopped {
		g.stop(t, i)
	}
	during := ctltest.NewBroker(t, "c", "during", g.addrs)
	during.Register(t)
	var now int
	for _, i := range stopped {
		var resp *remoting.Command
		now, resp = g.onLeader(t, func(addr string) *remoting.Command { return removePeer(t, addr, fmt.Sprintf("n%d", i)) })
		got := voters(t, resp)
		if slices.Contains(got, fmt.Sprintf("n%d", i)) {
			t.Fatalf("voters after removing n%d: %v", i, got)
		}
	}
	mustRefuse(t, "removing a non-member", removePeer(t, g.addrs[now], "n9"), "is not a member")
	survivors := []int{3 - stopped[0] - stopped[1], 3, 4}
	for _, i := range survivors {
		waitFor(t, fmt.Sprintf("node %d lists 3 members", i), func() bool { return len(g.svcs[i].Node.peerList()) == 3 })
	}
	after := ctltest.NewBroker(t, "c", "after", g.addrs)
	after.Register(t)
	for _, i := range survivors {
		waitFor(t, fmt.Sprintf("node %d has every write", i), func() bool {
			return g.holds(i, "before") && g.holds(i, "during") && g.holds(i, "after")
		})
	}
}

// A removed follower stops its Raft: it neither campaigns nor serves, it
// answers 2007 naming the leader and its status says removed, also after a
// restart on its store; the other two keep serving. A node restarted with
// a store whose configuration differs from controllerDLegerPeers uses the
// store's and warns naming both.
func TestRemovedNodeStopsAndTheStoreWinsOverThePeersKey(t *testing.T) {
	g := startGroup(t, 3, nil)
	leader := g.leader(t)
	gone := (leader + 1) % 3
	_, resp := g.onLeader(t, func(addr string) *remoting.Command { return removePeer(t, addr, fmt.Sprintf("n%d", gone)) })
	if got := voters(t, resp); len(got) != 2 {
		t.Fatalf("voters %v", got)
	}
	waitFor(t, "the removed node's status", func() bool { return g.svcs[gone].Node.Status().Removed })
	if s := g.svcs[gone].Node.raft.State(); s != raft.Shutdown {
		t.Fatalf("removed node's Raft is %s, want stopped", s)
	}
	keep := (gone + 1) % 3 // one of the two left
	resp = invoke(t, g.addrs[gone], wire.CodeGetNextBrokerID, &wire.GetNextBrokerIDRequest{ClusterName: "c", BrokerName: "b"}, nil)
	if named := resp.ExtFields[wire.LeaderAddressExt]; resp.Code != controller.CodeNotLeader || named == "" || named == g.addrs[gone] {
		t.Fatalf("the removed node answered %d %q %v", resp.Code, resp.Remark, resp.ExtFields)
	}
	b := ctltest.NewBroker(t, "c", "b", []string{g.addrs[keep], g.addrs[(gone+2)%3]})
	b.Register(t)

	g.stop(t, gone)
	g.start(t, gone)
	if !g.svcs[gone].Node.Status().Removed || g.svcs[gone].Node.Serving() {
		t.Fatal("the removed node restarted on its store is not removed")
	}

	logs := &testlog.Buffer{}
	log := logrus.New()
	log.SetOutput(logs)
	g.stop(t, keep)
	svc, err := Start(g.cfgs[keep], logrus.NewEntry(log))
	if err != nil {
		t.Fatal(err)
	}
	g.svcs[keep] = svc
	if ids := memberIDs(svc.Node); len(ids) != 2 || slices.Contains(ids, fmt.Sprintf("n%d", gone)) {
		t.Fatalf("members after a restart: %v, want the store's two", ids)
	}
	if !strings.Contains(logs.String(), "differs from controllerDLegerPeers") || !strings.Contains(logs.String(), g.cfgs[keep].ControllerDLegerPeers) {
		t.Fatalf("no warning naming both lists:\n%s", logs.String())
	}
	g.leader(t)
}

// Bounded input: an oversized, malformed or JRaft-keyed add and an
// oversized id are refused with code 1 before anything is proposed.
func TestPeerChangesRefuseBadInput(t *testing.T) {
	g := startGroup(t, 1, nil)
	addr := g.addrs[g.leader(t)]
	index := lastIndex(g)
	mustRefuse(t, "an oversized peer", addPeer(t, addr, "n1-"+strings.Repeat("h", 400)+":1"), "at most")
	mustRefuse(t, "no address", addPeer(t, addr, "n1"), "id-host:port")
	mustRefuse(t, "a bad port", addPeer(t, addr, "n1-127.0.0.1:0"), "out of range")
	mustRefuse(t, "an id with ';'", addPeer(t, addr, "n;1-127.0.0.1:9000"), "not allowed")
	mustRefuse(t, "an oversized id", removePeer(t, addr, strings.Repeat("n", 65)), "1 to 64")
	mustRefuse(t, "the only member", removePeer(t, addr, "n0"), "only member")
	if lastIndex(g) != index {
		t.Fatal("a refused change reached the log")
	}
}

// The side port's endpoints are admin writes: refused without ACL, without
// the anti-CSRF header or an admin's credentials; an admin adds and removes.
func TestPeersEndpointsAreAdminWrites(t *testing.T) {
	open := startGroup(t, 1, nil)
	open.leader(t)
	srv := httptest.NewServer(open.svcs[0].Node.HTTPHandler())
	defer srv.Close()
	post := func(url string, cred *[2]string, csrf bool, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/controller/peers", strings.NewReader(body))
		if cred != nil {
			req.SetBasicAuth(cred[0], cred[1])
		}
		if csrf {
			req.Header.Set(CSRFHeader, "test")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	admin := &[2]string{testAdmin.AccessKey, testAdmin.SecretKey}
	if resp := post(srv.URL, admin, true, `{"peer":"n1-127.0.0.1:9"}`); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("without ACL: %d", resp.StatusCode)
	}

	g := growableGroup(t, 1, 2, withACL(t, ""))
	g.leader(t)
	g.start(t, 1)
	acl := httptest.NewServer(g.svcs[0].Node.HTTPHandler())
	defer acl.Close()
	body := fmt.Sprintf(`{"peer":%q}`, g.peerText(1))
	for _, c := range []struct {
		cred *[2]string
		csrf bool
		want int
	}{
		{nil, true, http.StatusUnauthorized},
		{&[2]string{testUser.AccessKey, testUser.SecretKey}, true, http.StatusForbidden},
		{admin, false, http.StatusForbidden},
		{admin, true, http.StatusOK},
	} {
		if resp := post(acl.URL, c.cred, c.csrf, body); resp.StatusCode != c.want {
			t.Fatalf("%v csrf %v: %d, want %d", c.cred, c.csrf, resp.StatusCode, c.want)
		}
	}
	waitFor(t, "n1 joined", func() bool { return joined(g.svcs[1].Node) })
	// Either node may lead by now (a 2-node group on a loaded host): the
	// DELETE goes to each in turn until one that leads answers.
	var servers []*httptest.Server
	for _, s := range g.svcs {
		srv := httptest.NewServer(s.Node.HTTPHandler())
		defer srv.Close()
		servers = append(servers, srv)
	}
	status := 0
	waitFor(t, "an answer of the leader's side port", func() bool {
		for _, srv := range servers {
			req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/v1/controller/peers/n1", nil)
			req.SetBasicAuth(admin[0], admin[1])
			req.Header.Set(CSRFHeader, "test")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if status = resp.StatusCode; status != http.StatusConflict {
				return true
			}
		}
		return false
	})
	if status != http.StatusOK {
		t.Fatalf("admin DELETE: %d", status)
	}
	waitFor(t, "the removed node's status", func() bool { return g.svcs[1].Node.Status().Removed })
}

// Removing the leader: it answers once the removal commits, then steps
// down and stops (hashicorp's ShutdownOnRemove), its status says removed,
// and the other two elect a leader that serves writes.
func TestRemovingTheLeaderMovesTheLead(t *testing.T) {
	g := startGroup(t, 3, nil)
	old := g.leader(t)
	id := fmt.Sprintf("n%d", old)
	// Sent to the leader of the moment, again on a 2007: should the lead
	// move first (a loaded host), an earlier try may have removed n<old>
	// after all, and the retry is refused as not a member.
	var resp *remoting.Command
	waitFor(t, "the removal answered", func() bool {
		resp = removePeer(t, g.addrs[g.leader(t)], id)
		return resp.Code != controller.CodeNotLeader
	})
	if resp.Code == remoting.SUCCESS {
		if got := voters(t, resp); len(got) != 2 || slices.Contains(got, id) {
			t.Fatalf("voters after removing %s: %v", id, got)
		}
	} else {
		mustRefuse(t, "a retried removal", resp, "is not a member")
	}
	waitFor(t, "the old leader's status", func() bool { return g.svcs[old].Node.Status().Removed })
	waitFor(t, "a new leader", func() bool {
		for i, s := range g.svcs {
			if i != old && s.Node.Serving() {
				return true
			}
		}
		return false
	})
	var rest []string
	for i, a := range g.addrs {
		if i != old {
			rest = append(rest, a)
		}
	}
	ctltest.NewBroker(t, "c", "after", rest).Register(t)
}

// The Raft port's allowed hosts follow the members: a connection from
// 127.0.0.2 is refused while no member lives there, taken once n1 on
// 127.0.0.2 is added, and refused again after its removal (each time on a
// new connection: one already taken stays open).
func TestRaftPortFollowsTheMembers(t *testing.T) {
	g := &group{cfgs: groupConfigs(t, 2, nil)}
	peers := strings.Split(g.cfgs[0].ControllerDLegerPeers, ";")
	peers[1] = strings.Replace(peers[1], "127.0.0.1", "127.0.0.2", 1)
	g.cfgs[0].ControllerDLegerPeers = peers[0]
	g.cfgs[1].ControllerDLegerPeers, g.cfgs[1].JoinGroup = strings.Join(peers, ";"), true
	for _, c := range g.cfgs {
		self, _ := c.Self()
		g.addrs = append(g.addrs, self.Addr)
	}
	g.start(t, 0)
	n := g.svcs[0].Node
	g.leader(t)
	vote := func() error {
		trans := clientTransport(t, "127.0.0.2", nil)
		var resp raft.RequestVoteResponse
		return trans.RequestVote("n0", raft.ServerAddress(n.self.RaftAddr), &raft.RequestVoteRequest{
			RPCHeader: raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte("n1"), Addr: []byte(peers[1])}}, &resp)
	}
	if err := vote(); err == nil {
		t.Fatal("a connection from 127.0.0.2 was taken before a member lived there")
	}
	g.start(t, 1)
	_, resp := g.onLeader(t, func(addr string) *remoting.Command { return addPeer(t, addr, peers[1]) })
	if got := voters(t, resp); len(got) != 2 {
		t.Fatalf("voters %v", got)
	}
	if err := vote(); err != nil {
		t.Fatalf("a connection from the added member's host was refused: %v", err)
	}
	before := refused(n, raftnet.ReasonNotAPeer)
	_, resp = g.onLeader(t, func(addr string) *remoting.Command { return removePeer(t, addr, "n1") })
	if got := voters(t, resp); len(got) != 1 {
		t.Fatalf("voters %v", got)
	}
	waitFor(t, "n0's members without n1", func() bool { return len(n.peerList()) == 1 })
	if err := vote(); err == nil || refused(n, raftnet.ReasonNotAPeer) <= before {
		t.Fatalf("a connection from the removed member's host was taken (%v)", err)
	}
}
