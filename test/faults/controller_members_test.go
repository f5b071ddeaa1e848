package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// membersGroup is five cmd/controller nodes' command lines on loopback, one
// store folder each: n0-n2 bootstrap the group (their peers key lists only
// them), n3 and n4 list all five and join (controllerJoinGroup). The side
// ports are the default, listed port + 2000.
type membersGroup struct {
	addrs  []string
	stores []string
	procs  []*proc
	peers  []string // "nX-host:port"
}

func newMembersGroup(t *testing.T) *membersGroup {
	t.Helper()
	var offsets []int
	for i := range 5 {
		offsets = append(offsets, i, 1000+i, config.HTTPPortOffset+i)
	}
	base, ok := nstest.FreePorts(offsets...)
	if !ok {
		t.Fatal("no free ports for the controller group")
	}
	g := &membersGroup{procs: make([]*proc, 5)}
	for i := range 5 {
		g.addrs = append(g.addrs, net.JoinHostPort("127.0.0.1", strconv.Itoa(base+i)))
		g.peers = append(g.peers, fmt.Sprintf("n%d-%s", i, g.addrs[i]))
		g.stores = append(g.stores, t.TempDir())
	}
	return g
}

// args is node i's command line; join: it lists every node and waits to
// be added.
func (g *membersGroup) args(i int, join bool) []string {
	peers := strings.Join(g.peers[:3], ";")
	if join {
		peers = strings.Join(g.peers, ";")
	}
	// Snapshots every 64 entries, 16 kept behind: a node that joins gets
	// a snapshot, then the log.
	return []string{"-controllerDLegerGroup", "faults", "-controllerDLegerPeers", peers, "-controllerDLegerSelfId",
		fmt.Sprintf("n%d", i), "-controllerStorePath", g.stores[i], "-controllerJoinGroup=" + strconv.FormatBool(join),
		"-controllerSnapshotThreshold", "64", "-controllerSnapshotIntervalMillis", "500", "-controllerTrailingLogs", "16"}
}

func (g *membersGroup) start(t *testing.T, i int, join bool) {
	t.Helper()
	if g.procs[i] == nil {
		g.procs[i] = startProc(t, "controller", g.addrs[i], nil, g.args(i, join)...)
		return
	}
	g.procs[i].kill()
	g.procs[i].args = g.args(i, join)
	g.procs[i].start()
}

// status is node i's side port /v1/controller.
func (g *membersGroup) status(i int) (map[string]any, error) {
	host, port, _ := net.SplitHostPort(g.addrs[i])
	p, _ := strconv.Atoi(port)
	c := http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(fmt.Sprintf("http://%s/v1/controller", net.JoinHostPort(host, strconv.Itoa(p+config.HTTPPortOffset))))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var st map[string]any
	return st, json.NewDecoder(resp.Body).Decode(&st)
}

func (g *membersGroup) index(i int, key string) uint64 {
	st, err := g.status(i)
	if err != nil {
		return 0
	}
	s, _ := st[key].(string)
	v, _ := strconv.ParseUint(s, 10, 64)
	return v
}

// changePeers sends a 5022 or 5023 to the group, following 2007 to the
// leader, until it is answered (at most 30 s): the voters after it. A
// change whose commit timed out is sent again (adding a member again or
// removing a non-member after it committed is answered as done).
func changePeers(t *testing.T, addrs []string, code int32, header any) []string {
	t.Helper()
	guess := 0
	var last string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		c := remoting.NewClient(addrs[guess], remoting.ClientConfig{RequestTimeout: 10 * time.Second, Logger: testlog.Discard()})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := c.Invoke(ctx, remoting.NewRequest(code, remoting.EncodeHeader(header), nil))
		cancel()
		_ = c.Close()
		switch {
		case err != nil:
			guess, last = (guess+1)%len(addrs), err.Error()
			continue
		case resp.Code == controller.CodeNotLeader:
			if next := slices.Index(addrs, resp.ExtFields[wire.LeaderAddressExt]); next >= 0 {
				guess = next
			} else {
				guess = (guess + 1) % len(addrs)
			}
			last = resp.Remark
			continue
		case resp.Code == remoting.SUCCESS:
			peers, err := wire.DecodeControllerPeers(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, v := range peers.Voters {
				ids = append(ids, v.ID)
			}
			return ids
		case code == wire.CodeRemoveControllerPeer && strings.Contains(resp.Remark, "is not a member") && last != "":
			// The earlier try committed after its answer timed out.
			return nil
		case strings.Contains(resp.Remark, "did not commit") || strings.Contains(resp.Remark, "in progress"):
			last = resp.Remark
			continue
		}
		t.Fatalf("code %d answered %d %q", code, resp.Code, resp.Remark)
	}
	t.Fatalf("code %d not answered within 30 s: %s", code, last)
	return nil
}

// add adds node i and returns how long it took to catch up: from the add's
// answer until its applied index reached the leader's last index of then.
func (g *membersGroup) add(t *testing.T, i int) time.Duration {
	t.Helper()
	voters := changePeers(t, g.addrs, wire.CodeAddControllerPeer, &wire.AddControllerPeerRequest{Peer: g.peers[i]})
	if !slices.Contains(voters, fmt.Sprintf("n%d", i)) {
		t.Fatalf("voters after adding n%d: %v", i, voters)
	}
	added := time.Now()
	var target uint64
	for j := range g.addrs {
		if st, err := g.status(j); err == nil && st["serving"] == true {
			target = g.index(j, "lastIndex")
		}
	}
	g.catchUp(t, i, target)
	return time.Since(added)
}

// catchUp waits until node i's applied index reaches target (at most 60 s)
// and returns how long that took.
func (g *membersGroup) catchUp(t *testing.T, i int, target uint64) time.Duration {
	t.Helper()
	took, ok := waitFor(60*time.Second, 5*time.Millisecond, func() bool { return target > 0 && g.index(i, "appliedIndex") >= target })
	if !ok {
		t.Fatalf("n%d did not catch up to index %d within 60 s", i, target)
	}
	return took
}

func (g *membersGroup) remove(t *testing.T, i int) []string {
	t.Helper()
	voters := changePeers(t, g.addrs, wire.CodeRemoveControllerPeer, &wire.RemoveControllerPeerRequest{ID: fmt.Sprintf("n%d", i)})
	if slices.Contains(voters, fmt.Sprintf("n%d", i)) {
		t.Fatalf("voters after removing n%d: %v", i, voters)
	}
	return voters
}

// replace is the lost disk: node i is killed, its store wiped, it is
// removed, started again empty to join and added back under its id.
func (g *membersGroup) replace(t *testing.T, r *row, i int) {
	t.Helper()
	g.procs[i].kill()
	if err := os.RemoveAll(g.stores[i]); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(g.stores[i], 0o755); err != nil {
		t.Fatal(err)
	}
	g.remove(t, i)
	g.start(t, i, true)
	r.figure(t, fmt.Sprintf("n%d replaced (store wiped): caught up in", i), g.add(t, i).Round(time.Millisecond).String())
}

// fillSets writes sets broker sets (one APPLY_BROKER_ID each, retried until
// acknowledged): the state a joining node catches up with.
func fillSets(t *testing.T, addrs []string, sets int) {
	t.Helper()
	oc := newOpClient(addrs)
	defer oc.close()
	for i := 0; i < sets; i++ {
		h := &wire.ApplyBrokerIDRequest{ClusterName: "fill", BrokerName: fmt.Sprintf("fill-%d", i), AppliedBrokerID: 1,
			RegisterCheckCode: fmt.Sprintf("127.0.0.1:%d;1", 20000+i)}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if resp, ok := oc.try(wire.CodeApplyBrokerID, h, nil); ok && resp.Code == remoting.SUCCESS {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("fill-%d not applied within 30 s", i)
			}
		}
	}
}

// serving is the index of the node that serves, among alive, waiting up to
// 30 s.
func (g *membersGroup) serving(t *testing.T, alive []int) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, i := range alive {
			if st, err := g.status(i); err == nil && st["serving"] == true {
				return i
			}
		}
	}
	t.Fatalf("none of %v serves within 30 s", alive)
	return -1
}

// The group changes its members under heartbeats and a client writing and
// reading one broker set: grown 3 -> 5, the leader and another first node
// killed (three of five still serve), the two removed (3 voters), then a
// node whose disk is lost replaced (in the whole suite, each of the three
// in turn). The history is checked with porcupine: every acknowledged
// write is kept.
func TestControllerMembershipChangesUnderLoadAreLinearizable(t *testing.T) {
	r := record(t, 88, "controller membership changed online under load",
		"3-node cmd/controller group under heartbeat load and 5 clients (as the kill case); n3, n4 started with controllerJoinGroup and added (5022): 5 voters; SIGKILL to the leader and another first node, both removed (5023): 3 voters; a follower killed, its store wiped, removed, started empty and added back (make faults: each of the three in turn, the leader too); the history checked with porcupine")
	g := newMembersGroup(t)
	for i := range 3 {
		g.start(t, i, false)
	}
	var killed []int
	sets := 200
	if full() {
		sets = 2000
	}
	grow := func(leader int) {
		fillSets(t, g.addrs[:3], sets)
		for _, i := range []int{3, 4} {
			g.start(t, i, true)
			r.figure(t, fmt.Sprintf("n%d added (%d broker sets): caught up in", i, sets+1), g.add(t, i).Round(time.Millisecond).String())
			if !g.procs[i].logHas("Installed remote snapshot") {
				t.Errorf("n%d caught up without a snapshot", i)
			}
		}
		killed = []int{leader, (leader + 1) % 3}
		for _, i := range killed {
			g.procs[i].kill()
		}
	}
	shrinkAndReplace := func(int) {
		var alive []int
		for i := range 5 {
			if !slices.Contains(killed, i) {
				alive = append(alive, i)
			}
		}
		for _, i := range killed {
			g.remove(t, i)
		}
		rounds := 1
		if full() {
			rounds = len(alive)
		}
		for k := range rounds {
			// The short form replaces a follower; the whole suite each
			// node in turn, the leader too (a new one is elected from
			// the other two before the dead one is removed).
			target := alive[k]
			if leader := g.serving(t, alive); !full() && target == leader {
				target = alive[1]
			}
			g.replace(t, r, target)
		}
		voters := changePeers(t, g.addrs, wire.CodeAddControllerPeer, &wire.AddControllerPeerRequest{Peer: g.peers[alive[0]]})
		if len(voters) != 3 {
			t.Fatalf("voters at the end: %v, want 3", voters)
		}
		r.observe(t, "voters at the end: %v", voters)
	}
	checkControllerHistory(t, r, g.addrs, grow, shrinkAndReplace)
	probe := ctltest.NewBroker(t, "probe", "probe", nil)
	leader := g.serving(t, []int{0, 1, 2, 3, 4})
	if md, err := probe.Metadata(g.addrs[leader]); err != nil || strings.Count(md.Peers, ";") != 3 {
		t.Fatalf("1005 of the leader at the end: %+v %v", md, err)
	}
}
