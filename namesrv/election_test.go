package namesrv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// counterOf reads one labelled counter of the server's registry.
func counterOf(t *testing.T, s *testServer, name, label string) float64 {
	t.Helper()
	families, err := s.ns.obs.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range families {
		if fam.GetName() != name {
			continue
		}
		for _, m := range fam.Metric {
			for _, l := range m.Label {
				if l.GetValue() == label {
					return m.Counter.GetValue()
				}
			}
		}
	}
	return 0
}

// testControllerAddr lists the host the tests' clients connect from.
const testControllerAddr = "127.0.0.1:9878"

func electionNotice(b nstest.Broker, masterAddr string, epoch string) *remoting.Command {
	return remoting.NewRequest(wire.CodeNotifyNamesrvMasterElected, map[string]string{"clusterName": b.Cluster,
		"brokerName": b.Name, "masterAddress": masterAddr, "masterBrokerId": "2", "masterEpoch": epoch}, nil)
}

// A standalone controller's notice moves the slave it elected to id 0 at
// once; the old master, registering again on its old epoch, is refused
// with a remark and counted; the elected one on the new epoch is admitted.
func TestElectionNoticeMovesTheRouteAndFencesTheOldMaster(t *testing.T) {
	for _, fencing := range []bool{true, false} {
		s := startServer(t, func(cfg *config.Config) { cfg.ControllerFencing, cfg.ControllerAddr = fencing, testControllerAddr })
		master, slave := nstest.BrokerAMaster, nstest.BrokerASlave
		master.Version.StateVersion, slave.Version.StateVersion = 1, 1
		nstest.Register(t, s.client, master)
		nstest.Register(t, s.client, slave)
		nstest.MustCode(t, nstest.Invoke(t, s.client, electionNotice(master, slave.Addr, "2")), remoting.SUCCESS)
		if got := s.ns.routes.BrokerMemberGroup(master.Cluster, master.Name); got[0] != slave.Addr || len(got) != 1 {
			t.Fatalf("fencing %v: members after the notice %v, want only %s at id 0", fencing, got, slave.Addr)
		}
		// Repeated, the notice changes and counts nothing more.
		nstest.MustCode(t, nstest.Invoke(t, s.client, electionNotice(master, slave.Addr, "2")), remoting.SUCCESS)
		if got := counterOf(t, s, "rocketmq_namesrv_controller_elections_applied_total", metrics.ElectionNotice); got != 1 {
			t.Fatalf("fencing %v: elections applied %v, want 1", fencing, got)
		}
		stale := master
		stale.Version.Counter++
		resp := nstest.Invoke(t, s.client, stale.RegisterRequest())
		refused := counterOf(t, s, "rocketmq_namesrv_registrations_refused_total", metrics.RefusedFenced)
		if !fencing {
			// Java's rule: the old master's equal stateVersion takes id 0 back.
			nstest.MustCode(t, resp, remoting.SUCCESS)
			if got := s.ns.routes.BrokerMemberGroup(master.Cluster, master.Name); got[0] != master.Addr || refused != 0 {
				t.Fatalf("fencing off: members %v, fenced count %v; want the old master back, nothing fenced", got, refused)
			}
			continue
		}
		nstest.MustCode(t, resp, remoting.SYSTEM_ERROR)
		if !strings.Contains(resp.Remark, "register broker refused") || !strings.Contains(resp.Remark, "fenced by the controller") ||
			!strings.Contains(resp.Remark, "older than masterEpoch 2") {
			t.Fatalf("remark %q", resp.Remark)
		}
		if refused != 1 {
			t.Fatalf("fenced registrations counted %v, want 1", refused)
		}
		elected := slave
		elected.ID, elected.Version.StateVersion = 0, 2
		nstest.Register(t, s.client, elected)
		if got := s.ns.routes.BrokerMemberGroup(master.Cluster, master.Name); got[0] != slave.Addr {
			t.Fatalf("members %v after the elected master's registration", got)
		}
	}
}

func TestElectionNoticeWithoutItsFieldsIsRefused(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.ControllerAddr = testControllerAddr })
	req := remoting.NewRequest(wire.CodeNotifyNamesrvMasterElected, map[string]string{"brokerName": "b"}, nil)
	nstest.MustCode(t, nstest.Invoke(t, s.client, req), remoting.SYSTEM_ERROR)
	long := electionNotice(nstest.Broker{Cluster: "c", Name: strings.Repeat("n", route.MaxNameLength+1)}, "", "1")
	nstest.MustCode(t, nstest.Invoke(t, s.client, long), remoting.SYSTEM_ERROR)
}

// With ACL on, the notice from a controllerAddr host must be signed by an
// admin account: unsigned, it is refused even from a
// globalWhiteRemoteAddresses address (which admits unsigned broker
// control); signed by the admin, it is applied.
func TestElectionNoticeUnderACLNeedsAnAdminSignature(t *testing.T) {
	for _, signed := range []bool{false, true} {
		accounts := "globalWhiteRemoteAddresses:\n  - 127.0.0.1\n" + aclAccounts
		file := filepath.Join(t.TempDir(), "plain_acl.yml")
		if err := os.WriteFile(file, []byte(accounts), 0o600); err != nil {
			t.Fatal(err)
		}
		s := startServer(t, func(cfg *config.Config) {
			cfg.AclEnable, cfg.AclFile, cfg.ControllerAddr = true, file, testControllerAddr
		})
		client := s.client
		if signed {
			admin := aclsign.Credentials{AccessKey: "adminKey1", SecretKey: "adminSecret1"}
			client = remoting.NewClient(s.addr(), remoting.ClientConfig{Sign: aclsign.Signer(admin)})
			t.Cleanup(func() { _ = client.Close() })
		}
		resp := nstest.Invoke(t, client, electionNotice(nstest.BrokerAMaster, nstest.BrokerASlave.Addr, "2"))
		want := map[bool]int32{false: remoting.NO_PERMISSION, true: remoting.SUCCESS}[signed]
		if resp.Code != want {
			t.Fatalf("signed %v: code %d %q, want %d", signed, resp.Code, resp.Remark, want)
		}
		if !signed && !strings.Contains(resp.Remark, "admin account") {
			t.Fatalf("remark %q", resp.Remark)
		}
		if epoch, _, known := s.ns.routes.ManagedEpoch(nstest.BrokerAMaster.Name); known != signed || (signed && epoch != 2) {
			t.Fatalf("signed %v: the set's election recorded %v (epoch %d)", signed, known, epoch)
		}
		if got := counterOf(t, s, "rocketmq_namesrv_controller_election_notices_refused_total", metrics.NoticeNotAdmin); got != map[bool]float64{false: 1, true: 0}[signed] {
			t.Fatalf("signed %v: not_admin refusals %v", signed, got)
		}
	}
}
