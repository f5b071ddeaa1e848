// Package ctltest holds the fake broker the controller's tests drive over
// the wire: one TCP connection per controller node, requests to whichever
// node leads (found with 1005, or the not-leader answer's leader ext field),
// heartbeats to every node, and a listen port that records the
// NOTIFY_BROKER_ROLE_CHANGED notices it receives.
package ctltest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// callTimeout bounds one call; leaderWait bounds the search for a leader.
const (
	callTimeout = 10 * time.Second
	leaderWait  = 30 * time.Second
)

// Broker is one fake broker of a set.
type Broker struct {
	Cluster, Name string
	ID            int64
	// Addr is its listen address, where notices arrive.
	Addr string

	// clientCfg is every connection's to the controllers (NewBrokerWith).
	clientCfg remoting.ClientConfig
	mu        sync.Mutex
	clients   map[string]*remoting.Client
	leader    string
	srv       *remoting.Server
	notices   chan *remoting.Command
}

// NewBroker starts a fake broker's notice listener on loopback; controllers
// are the nodes' broker-facing addresses.
func NewBroker(t testing.TB, cluster, name string, controllers []string) *Broker {
	t.Helper()
	return NewBrokerWith(t, cluster, name, controllers, remoting.ClientConfig{})
}

// NewBrokerWith is NewBroker whose connections to the controllers take
// client's signing (Sign), TLS and source address (LocalAddr).
func NewBrokerWith(t testing.TB, cluster, name string, controllers []string, client remoting.ClientConfig) *Broker {
	t.Helper()
	client.RequestTimeout, client.Logger = callTimeout, testlog.Discard()
	b := &Broker{Cluster: cluster, Name: name, clientCfg: client, clients: map[string]*remoting.Client{},
		notices: make(chan *remoting.Command, 64)}
	for _, addr := range controllers {
		b.clients[addr] = remoting.NewClient(addr, b.clientCfg)
	}
	b.srv = remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Discard()})
	b.srv.Handle(wire.CodeNotifyBrokerRoleChanged, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		select {
		case b.notices <- req:
		default:
		}
		return nil
	})
	if err := b.srv.Start(); err != nil {
		t.Fatalf("fake broker listener: %v", err)
	}
	b.Addr = b.srv.Addr().String()
	t.Cleanup(func() {
		b.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = b.srv.Shutdown(ctx)
	})
	return b
}

// Close closes the broker's connections to every controller (the fast
// death signal).
func (b *Broker) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, c := range b.clients {
		_ = c.Close()
	}
}

// CloseTo closes the broker's connections to the given controllers only
// (those nodes see it die; the others still have it live).
func (b *Broker) CloseTo(controllers ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, addr := range controllers {
		if c, ok := b.clients[addr]; ok {
			_ = c.Close()
			delete(b.clients, addr)
		}
	}
}

// Call sends a request to the leader, following 2007 answers to the leader
// they name (or asking every node's 1005) until one answers otherwise.
func (b *Broker) Call(t testing.TB, code int32, header any, body []byte) *remoting.Command {
	t.Helper()
	deadline := time.Now().Add(leaderWait)
	for {
		addr := b.leaderAddr(t)
		resp, err := b.invoke(addr, remoting.NewRequest(code, remoting.EncodeHeader(header), body))
		if err == nil && resp.Code != controller.CodeNotLeader {
			return resp
		}
		b.mu.Lock()
		b.leader = ""
		if err == nil {
			if next, ok := resp.Ext(wire.LeaderAddressExt); ok && next != addr {
				b.leader = next
			}
		}
		b.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("code %d: no leader answered within %s (last: %v %v)", code, leaderWait, resp, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (b *Broker) invoke(addr string, req *remoting.Command) (*remoting.Command, error) {
	b.mu.Lock()
	c, ok := b.clients[addr]
	if !ok {
		c = remoting.NewClient(addr, b.clientCfg)
		b.clients[addr] = c
	}
	b.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return c.Invoke(ctx, req)
}

// leaderAddr is the known leader or the first one a node's 1005 names.
func (b *Broker) leaderAddr(t testing.TB) string {
	b.mu.Lock()
	leader := b.leader
	addrs := make([]string, 0, len(b.clients))
	for addr := range b.clients {
		addrs = append(addrs, addr)
	}
	b.mu.Unlock()
	if leader != "" {
		return leader
	}
	deadline := time.Now().Add(leaderWait)
	for time.Now().Before(deadline) {
		for _, addr := range addrs {
			md, err := b.Metadata(addr)
			if err == nil && md.ControllerLeaderAddress != "" {
				b.mu.Lock()
				b.leader = md.ControllerLeaderAddress
				b.mu.Unlock()
				return md.ControllerLeaderAddress
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no controller names a leader within %s", leaderWait)
	return ""
}

// Metadata asks one node for CONTROLLER_GET_METADATA_INFO.
func (b *Broker) Metadata(addr string) (*wire.GetMetaDataResponse, error) {
	resp, err := b.invoke(addr, remoting.NewRequest(wire.CodeGetMetadataInfo, nil, nil))
	if err != nil {
		return nil, err
	}
	var md wire.GetMetaDataResponse
	if err := remoting.DecodeHeader(resp, &md); err != nil {
		return nil, err
	}
	return &md, nil
}

// Register runs the broker's first registration: next id, apply it with
// check code "addr;millis", register; it returns the register answer.
func (b *Broker) Register(t testing.TB) *remoting.Command {
	t.Helper()
	resp := b.Call(t, wire.CodeGetNextBrokerID, &wire.GetNextBrokerIDRequest{ClusterName: b.Cluster, BrokerName: b.Name}, nil)
	mustCode(t, resp, 0)
	var next wire.GetNextBrokerIDResponse
	if err := remoting.DecodeHeader(resp, &next); err != nil {
		t.Fatal(err)
	}
	b.ID = next.NextBrokerID
	check := b.Addr + ";" + strconv.FormatInt(time.Now().UnixMilli(), 10)
	mustCode(t, b.Call(t, wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: b.Cluster, BrokerName: b.Name,
		AppliedBrokerID: b.ID, RegisterCheckCode: check}, nil), 0)
	resp = b.Call(t, wire.CodeRegisterBroker, &wire.RegisterBrokerRequest{ClusterName: b.Cluster, BrokerName: b.Name,
		BrokerID: b.ID, BrokerAddress: b.Addr}, nil)
	mustCode(t, resp, 0)
	return resp
}

// Heartbeat sends one oneway heartbeat to every node.
func (b *Broker) Heartbeat(t testing.TB, epoch int32, maxOffset, timeoutMillis int64) {
	t.Helper()
	id := b.ID
	h := &wire.BrokerHeartbeatRequest{ClusterName: b.Cluster, BrokerName: b.Name, BrokerAddr: b.Addr, BrokerID: &id,
		Epoch: &epoch, MaxOffset: &maxOffset, HeartbeatTimeoutMills: &timeoutMillis}
	b.mu.Lock()
	clients := make([]*remoting.Client, 0, len(b.clients))
	for _, c := range b.clients {
		clients = append(clients, c)
	}
	b.mu.Unlock()
	for _, c := range clients {
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		// A node that is down is fine: a broker heartbeats to those it reaches.
		_ = c.InvokeOneway(ctx, remoting.NewRequest(wire.CodeBrokerHeartbeat, remoting.EncodeHeader(h), nil))
		cancel()
	}
}

// WaitAlive waits until the leader has every broker given alive in its
// heartbeat table (GET_SYNC_STATE_DATA, 1006, of the first one's set).
// Heartbeats are oneway and each broker has its own connections, so a
// heartbeat sent before a request on another broker's connection may still
// be on its way when that request is served: an alter naming that broker
// is then refused 2006 (not alive), as Java refuses it.
func WaitAlive(t testing.TB, brokers ...*Broker) {
	t.Helper()
	if len(brokers) == 0 {
		return
	}
	asker := brokers[0]
	names, _ := json.Marshal([]string{asker.Name})
	deadline := time.Now().Add(leaderWait)
	for {
		resp := asker.Call(t, wire.CodeGetSyncStateData, nil, names)
		alive := aliveAddrs(resp)
		missing := ""
		for _, b := range brokers {
			if !alive[b.Addr] {
				missing = b.Addr
				break
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the leader has not had %s alive within %s: %d %s", missing, leaderWait, resp.Code, resp.Body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// aliveAddrs is the addresses a 1006 answer calls alive, in or out of
// sync, in any set; none when the answer is an error or does not parse.
func aliveAddrs(resp *remoting.Command) map[string]bool {
	alive := map[string]bool{}
	var info wire.BrokerReplicasInfo
	if resp.Code != 0 || json.Unmarshal(resp.Body, &info) != nil {
		return alive
	}
	for _, set := range info.ReplicasInfoTable {
		for _, r := range append(set.InSyncReplicas, set.NotInSyncReplicas...) {
			if r.Alive {
				alive[r.BrokerAddress] = true
			}
		}
	}
	return alive
}

// Elect asks the leader to elect this broker (broker-triggered).
func (b *Broker) Elect(t testing.TB) *remoting.Command {
	t.Helper()
	return b.Call(t, wire.CodeElectMaster, &wire.ElectMasterRequest{ClusterName: b.Cluster, BrokerName: b.Name,
		BrokerID: b.ID}, nil)
}

// ReplicaInfo asks the leader for the set's replica info.
func (b *Broker) ReplicaInfo(t testing.TB) (*wire.GetReplicaInfoResponse, *wire.SyncStateSet) {
	t.Helper()
	resp := b.Call(t, wire.CodeGetReplicaInfo, &wire.GetReplicaInfoRequest{BrokerName: b.Name}, nil)
	mustCode(t, resp, 0)
	var h wire.GetReplicaInfoResponse
	if err := remoting.DecodeHeader(resp, &h); err != nil {
		t.Fatal(err)
	}
	sss, err := wire.DecodeSyncStateSet(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &h, sss
}

// Notice waits up to wait for a role change notice.
func (b *Broker) Notice(wait time.Duration) (*remoting.Command, bool) {
	select {
	case n := <-b.notices:
		return n, true
	case <-time.After(wait):
		return nil, false
	}
}

func mustCode(t testing.TB, resp *remoting.Command, want int32) {
	t.Helper()
	if resp.Code != want {
		t.Fatalf("code %d remark %q ext %v, want %d", resp.Code, resp.Remark, resp.ExtFields, want)
	}
}

// MustCode is mustCode for the tests that use the fake broker.
func MustCode(t testing.TB, resp *remoting.Command, want int32) { t.Helper(); mustCode(t, resp, want) }

// Int64 reads an optional number of an answer, for messages.
func Int64(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
