package test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// registrationPeriod is a Java broker's registerNameServerPeriod: a
// NameServer must route the master it was told of within it.
const registrationPeriod = 30 * time.Second

// Issue 35 item 7: a cmd/controller group whose store is wiped and which is
// started again counts its set's masterEpoch from 1 under a new identity.
// The NameServer (cmd/namesrv, never restarted) had applied masterEpoch 2
// of the old group; it follows the new group's election of epoch 1 from
// the leader's notice, and admits the new master's registration with
// stateVersion 1 (before: ignored as older, and fenced, until a restart).
func TestRecreatedControllerGroupIsFollowed(t *testing.T) {
	ctlAddrs, peers := groupPeers(t, 1)
	ns := startNamesrv(t, "-controllerAddr", strings.Join(ctlAddrs, ";"))
	ctl := startControllerGroupAt(t, ctlAddrs, peers, "-namesrvAddr", ns.Addr)
	ctl.leader(t, 30*time.Second)
	const cluster, set, topic = "cluster-r", "broker-set-r", "RecreatedTopic"
	nsClient := nstest.NewClient(t, ns.Addr)
	register := func(b *ctltest.Broker, id, stateVersion int64) *remoting.Command {
		nb := nstest.Broker{Cluster: cluster, Name: set, Addr: b.Addr, HAAddr: b.Addr, ID: id, TimeoutMillis: 600_000,
			Topics: map[string]int32{topic: 4, "RecreatedTopicB": 4}, Version: route.DataVersion{Counter: stateVersion, Timestamp: 1, StateVersion: stateVersion}}
		return nstest.Invoke(t, nsClient, nb.RegisterRequest())
	}

	// The old group: b1 elected (epoch 1), then b2 when b1's connections
	// close (epoch 2); the NameServer follows and b2 registers on epoch 2.
	b1, b2 := ctltest.NewBroker(t, cluster, set, ctl.addrs), ctltest.NewBroker(t, cluster, set, ctl.addrs)
	b1.Register(t)
	b2.Register(t)
	heartbeatLoop(t, b1, b2)
	ctltest.MustCode(t, b1.Elect(t), 0)
	ctltest.MustCode(t, alterSSS(t, b1, 1, 1, 1, 2), 0)
	nstest.MustCode(t, register(b1, 0, 1), remoting.SUCCESS)
	nstest.MustCode(t, register(b2, 2, 1), remoting.SUCCESS)
	b1.Close()
	eventually(t, registrationPeriod, "b2 at id 0 from the old group's notice", wantRoute(ns.Addr, set, map[int64]string{0: b2.Addr}))
	nstest.MustCode(t, register(b2, 0, 2), remoting.SUCCESS)

	// The group's store wiped, the group started again: a new broker of
	// the set is elected on masterEpoch 1.
	ctl.procs[0].Stop()
	b2.Close() // the old group's brokers are gone with it
	if err := os.RemoveAll(ctl.store); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(ctl.store, 0o755); err != nil {
		t.Fatal(err)
	}
	ctl.procs[0].start()
	ctl.leader(t, 30*time.Second)
	c1 := ctltest.NewBroker(t, cluster, set, ctl.addrs)
	c1.Register(t)
	heartbeatLoop(t, c1)
	ctltest.MustCode(t, c1.Elect(t), 0)
	if info, _ := c1.ReplicaInfo(t); info.MasterEpoch == nil || *info.MasterEpoch != 1 {
		t.Fatalf("the recreated group's first election: masterEpoch %v, want 1", info.MasterEpoch)
	}
	eventually(t, registrationPeriod, "the recreated group's master at id 0 from its notice",
		wantRoute(ns.Addr, set, map[int64]string{0: c1.Addr}))
	if resp := register(c1, 0, 1); resp.Code != remoting.SUCCESS {
		t.Fatalf("the new master's registration on masterEpoch 1: code %d %q", resp.Code, resp.Remark)
	}
	eventually(t, registrationPeriod, "the topic routed to the new master", func() error {
		addrs, err := routedAddrsOf(ns.Addr, topic, set)
		if err != nil || fmt.Sprint(addrs) != fmt.Sprint(map[int64]string{0: c1.Addr}) {
			return fmt.Errorf("route of %s: %v %v", topic, addrs, err)
		}
		return nil
	})
}
