package namesrv

import (
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// With the default settings (controllerAddr empty) a stranger's notice,
// the one that put 6.6.6.6 at id 0 for good, is refused with code 16
// naming the key, counted, and moves nothing; a controllerAddr that does
// not list the sender's host refuses it too.
func TestElectionNoticeFromAStrangerIsRefused(t *testing.T) {
	for _, controllerAddr := range []string{"", "10.255.255.1:9878;192.0.2.7:9878"} {
		s := startServer(t, func(cfg *config.Config) { cfg.ControllerAddr = controllerAddr })
		nstest.Register(t, s.client, nstest.BrokerAMaster)
		resp := nstest.Invoke(t, s.client, electionNotice(nstest.BrokerAMaster, "6.6.6.6:10911", "2147483647"))
		nstest.MustCode(t, resp, remoting.NO_PERMISSION)
		if !strings.Contains(resp.Remark, "controllerAddr") {
			t.Fatalf("controllerAddr %q: remark %q does not name the key", controllerAddr, resp.Remark)
		}
		if got := s.ns.routes.BrokerMemberGroup(nstest.BrokerAMaster.Cluster, nstest.BrokerAMaster.Name); got[0] != nstest.BrokerAMaster.Addr {
			t.Fatalf("controllerAddr %q: members %v after a refused notice", controllerAddr, got)
		}
		if _, _, known := s.ns.routes.ManagedEpoch(nstest.BrokerAMaster.Name); known {
			t.Fatalf("controllerAddr %q: a refused notice was recorded", controllerAddr)
		}
		if got := counterOf(t, s, "rocketmq_namesrv_controller_election_notices_refused_total", metrics.NoticeNotController); got != 1 {
			t.Fatalf("controllerAddr %q: not_controller refusals %v, want 1", controllerAddr, got)
		}
	}
}

// A notice from a host of controllerAddr, given by name or by IP, is applied.
func TestElectionNoticeFromAListedHostIsApplied(t *testing.T) {
	for _, controllerAddr := range []string{"192.0.2.7:9878;127.0.0.1:9878", "localhost:9878"} {
		s := startServer(t, func(cfg *config.Config) { cfg.ControllerAddr = controllerAddr })
		nstest.Register(t, s.client, nstest.BrokerAMaster)
		nstest.Register(t, s.client, nstest.BrokerASlave)
		nstest.MustCode(t, nstest.Invoke(t, s.client, electionNotice(nstest.BrokerAMaster, nstest.BrokerASlave.Addr, "2")), remoting.SUCCESS)
		if got := s.ns.routes.BrokerMemberGroup(nstest.BrokerAMaster.Cluster, nstest.BrokerAMaster.Name); got[0] != nstest.BrokerASlave.Addr {
			t.Fatalf("controllerAddr %q: members %v, want %s at id 0", controllerAddr, got, nstest.BrokerASlave.Addr)
		}
	}
}

// A notice whose masterEpoch is more than controllerMaxEpochJump above the
// set's last is refused, logged and counted; the set keeps its election.
func TestElectionNoticeEpochJumpIsRefused(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.ControllerAddr, cfg.ControllerMaxEpochJump = testControllerAddr, 1000 })
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	nstest.Register(t, s.client, nstest.BrokerASlave)
	nstest.MustCode(t, nstest.Invoke(t, s.client, electionNotice(nstest.BrokerAMaster, nstest.BrokerASlave.Addr, "2")), remoting.SUCCESS)
	resp := nstest.Invoke(t, s.client, electionNotice(nstest.BrokerAMaster, "6.6.6.6:10911", "2147483647"))
	nstest.MustCode(t, resp, remoting.SYSTEM_ERROR)
	if !strings.Contains(resp.Remark, "controllerMaxEpochJump") || !strings.Contains(resp.Remark, "2147483647") {
		t.Fatalf("remark %q", resp.Remark)
	}
	if epoch, addr, _ := s.ns.routes.ManagedEpoch(nstest.BrokerAMaster.Name); epoch != 2 || addr != nstest.BrokerASlave.Addr {
		t.Fatalf("the set's election is %d %s after the refused jump", epoch, addr)
	}
	if got := counterOf(t, s, "rocketmq_namesrv_controller_election_notices_refused_total", metrics.NoticeEpochJump); got != 1 {
		t.Fatalf("epoch_jump refusals %v", got)
	}
	logged := false
	for _, entry := range s.hook.AllEntries() {
		logged = logged || (strings.Contains(entry.Message, "election notice refused") && entry.Data["reason"] == metrics.NoticeEpochJump)
	}
	if !logged {
		t.Fatal("the refused jump was not logged")
	}
	// The controller's next election, one above, is applied.
	nstest.MustCode(t, nstest.Invoke(t, s.client, electionNotice(nstest.BrokerAMaster, nstest.BrokerAMaster.Addr, "3")), remoting.SUCCESS)
}

// A master a notice put at id 0 that never registers here leaves the route
// after brokerChannelExpiredTime, as a broker that stops registering.
func TestNoticeOnlyMasterExpires(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) {
		cfg.ControllerAddr, cfg.BrokerChannelExpiredTime, cfg.ScanNotActiveBrokerInterval = testControllerAddr, 1000, 100
	})
	slave := nstest.BrokerASlave
	slave.TimeoutMillis = 600_000
	nstest.Register(t, s.client, slave)
	nstest.MustCode(t, nstest.Invoke(t, s.client, electionNotice(slave, "6.6.6.6:10911", "2")), remoting.SUCCESS)
	if got := s.ns.routes.BrokerMemberGroup(slave.Cluster, slave.Name); got[0] != "6.6.6.6:10911" {
		t.Fatalf("members %v after the notice", got)
	}
	deadline := time.Now().Add(20 * time.Second)
	for s.ns.routes.BrokerMemberGroup(slave.Cluster, slave.Name)[0] != "" {
		if time.Now().After(deadline) {
			t.Fatalf("the notice-only master is still at id 0: %v", s.ns.routes.BrokerMemberGroup(slave.Cluster, slave.Name))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := s.ns.routes.BrokerMemberGroup(slave.Cluster, slave.Name); got[1] != slave.Addr {
		t.Fatalf("members %v: the registered slave went too", got)
	}
}
