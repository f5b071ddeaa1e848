package replicas

import (
	"context"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func testManager(t *testing.T, onRole func(Role)) *Manager {
	t.Helper()
	cfg := DefaultConfig(t.TempDir())
	cfg.ControllerAddr = "127.0.0.1:1"
	m, err := New(cfg, Identity{ClusterName: "c", BrokerName: "b", BrokerAddr: "127.0.0.1:10911"}, onRole, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The broker's server takes the controller's 1008 and a slave's 904 over
// TCP and hands them to the manager.
func TestServerAcceptsRoleNoticeAndSlaveHeartbeat(t *testing.T) {
	m := testManager(t, nil)
	srv := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Discard()})
	m.Register(srv)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	c := remoting.NewClient(srv.Addr().String(), remoting.ClientConfig{Logger: testlog.Discard()})
	t.Cleanup(func() { _ = c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	body := (&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 3}).Encode()
	req := remoting.NewRequest(wire.CodeNotifyBrokerRoleChanged, remoting.EncodeHeader(&wire.NotifyBrokerRoleChangedRequest{
		MasterAddress: "127.0.0.1:9000", MasterEpoch: 2, SyncStateSetEpoch: 3, MasterBrokerID: 1}), body)
	resp, err := c.Invoke(ctx, req)
	if err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("1008 answer %v %v", resp, err)
	}
	select {
	case n := <-m.notices:
		if n.header.MasterBrokerID != 1 || n.header.MasterEpoch != 2 || n.sss == nil || n.sss.SyncStateSetEpoch != 3 {
			t.Fatalf("notice %+v", n)
		}
	default:
		t.Fatal("no notice queued")
	}

	id, offset := int64(2), int64(500)
	hb := remoting.NewRequest(wire.CodeBrokerHeartbeat, remoting.EncodeHeader(&wire.BrokerHeartbeatRequest{BrokerName: "b", BrokerID: &id, MaxOffset: &offset}), nil)
	if resp, err := c.Invoke(ctx, hb); err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("904 answer %v %v", resp, err)
	}
	if got := m.slaves.inSync(600, 100, time.Now().Add(-time.Minute)); len(got) != 1 || got[0] != 2 {
		t.Fatalf("slave table %v", got)
	}
	bad := remoting.NewRequest(wire.CodeBrokerHeartbeat, map[string]string{"brokerName": "b"}, nil)
	if resp, err := c.Invoke(ctx, bad); err != nil || resp.Code == remoting.SUCCESS {
		t.Fatalf("904 without id answered %v %v", resp, err)
	}
}

// Only a higher masterEpoch changes the role (Java's changeBrokerRole).
func TestChangeRoleNeedsAHigherEpoch(t *testing.T) {
	var roles []Role
	m := testManager(t, func(r Role) { roles = append(roles, r) })
	m.controllerID = 2
	m.changeRole(1, "127.0.0.1:9000", 1, nil)
	m.changeRole(2, "127.0.0.1:10911", 1, nil) // same epoch: ignored
	m.changeRole(2, "127.0.0.1:10911", 2, nil)
	if len(roles) != 2 || roles[0].Master || roles[0].RegisterID() != 2 || !roles[1].Master || roles[1].RegisterID() != 0 || roles[1].MasterEpoch != 2 {
		t.Fatalf("roles %+v", roles)
	}
}

// Stop without Start returns (nothing runs to wait for).
func TestStopWithoutStart(t *testing.T) {
	m := testManager(t, nil)
	m.Stop()
	m.Start() // after Stop: does nothing
	m.Stop()
}
