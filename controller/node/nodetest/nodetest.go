// Package nodetest starts real controller nodes in process, on loopback, for
// the tests of the packages that serve or call one (mqadmin, the
// NameServer's side port); controller/node's own tests have their group
// helpers.
package nodetest

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/node"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
)

// RaftTimeoutMillis is the nodes' Raft heartbeat and election timeout:
// short, so a group elects within a test's patience.
const RaftTimeoutMillis = 300

// shutdownTimeout bounds a node's stop at the test's end.
const shutdownTimeout = 10 * time.Second

// servingTimeout bounds StartOne's wait for its node to lead and serve,
// generous for a loaded host.
const servingTimeout = 30 * time.Second

// Start runs a controller node whose peers, self id and other keys edit
// sets on the defaults, with its store in a folder of its own, the Raft
// timeouts at RaftTimeoutMillis and no side port; it stops at the test's
// end.
func Start(t testing.TB, edit func(*config.Config)) *node.Service {
	t.Helper()
	dir := t.TempDir()
	c := config.Default()
	c.ControllerStorePath, c.ConfigStorePath = dir, filepath.Join(dir, "controller.properties")
	c.RaftHeartbeatTimeoutMillis, c.RaftElectionTimeoutMillis, c.HTTPListenPort = RaftTimeoutMillis, RaftTimeoutMillis, -1
	edit(c)
	svc, err := node.Start(c, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		_ = svc.Shutdown(ctx)
	})
	return svc
}

// StartOne runs a 1-node group (id n0) on free loopback ports (the
// listed one and its Raft port) and returns it, serving, with its address;
// the test is skipped when no ports are free.
func StartOne(t testing.TB) (*node.Service, string) {
	t.Helper()
	base, ok := nstest.FreePorts(0, config.Default().RaftPortOffset)
	if !ok {
		t.Skip("no free loopback ports")
	}
	addr := fmt.Sprintf("127.0.0.1:%d", base)
	svc := Start(t, func(c *config.Config) { c.ControllerDLegerPeers, c.ControllerDLegerSelfID = "n0-"+addr, "n0" })
	for deadline := time.Now().Add(servingTimeout); !svc.Node.Serving(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the 1-node controller at %s does not serve within %s", addr, servingTimeout)
		}
	}
	return svc, addr
}
