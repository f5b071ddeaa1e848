package namesrv

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestRegistrationRefusalsCountedByReason: each way a registration changes
// nothing moves registrations_refused_total under its own reason, and the
// registration's result under refused (an undecodable body stays error).
func TestRegistrationRefusalsCountedByReason(t *testing.T) {
	s := startServer(t, nil)
	crc := func() *remoting.Command {
		req := nstest.BrokerAMaster.RegisterRequest()
		sum, _ := strconv.ParseInt(req.ExtFields["bodyCrc32"], 10, 64)
		req.ExtFields["bodyCrc32"] = strconv.FormatInt(sum^1, 10)
		return req
	}
	timeout := nstest.BrokerAMaster.RegisterRequest()
	timeout.ExtFields["heartbeatTimeoutMillis"] = "0"
	long := nstest.BrokerAMaster
	long.Name = strings.Repeat("n", 300)
	oneTopic := nstest.BrokerB
	oneTopic.Topics = map[string]int32{"OnlyOne": 1}
	// broker-a id 0 held at a newer state: an older state at another
	// address is ignored.
	holder := nstest.BrokerAMaster
	holder.Version.StateVersion = 5
	stale := nstest.BrokerAMaster
	stale.Addr = "127.0.0.9:10911"
	stale.Version.StateVersion = 1

	for _, req := range []*remoting.Command{crc(), timeout, long.RegisterRequest(), oneTopic.RegisterRequest(),
		nstest.BrokerB.RequestWith([]byte("{broken"))} {
		if resp := nstest.Invoke(t, s.client, req); resp.Code == remoting.SUCCESS {
			t.Fatalf("refusable registration answered success")
		}
	}
	nstest.Register(t, s.client, holder)
	if resp := nstest.Invoke(t, s.client, stale.RegisterRequest()); resp.Code != remoting.SUCCESS {
		t.Fatalf("a stale registration answered %d %q, want 0 as Java does", resp.Code, resp.Remark)
	}

	got := map[string]float64{}
	results := map[string]float64{}
	families, err := s.ns.obs.metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range families {
		for _, m := range fam.Metric {
			switch fam.GetName() {
			case "rocketmq_namesrv_registrations_refused_total":
				got[m.Label[0].GetValue()] = m.Counter.GetValue()
			case "rocketmq_namesrv_registrations_total":
				for _, l := range m.Label {
					if l.GetName() == "result" {
						results[l.GetValue()] += m.Counter.GetValue()
					}
				}
			}
		}
	}
	for _, reason := range []string{metrics.RefusedCRC, metrics.RefusedHeartbeatTimeout, metrics.RefusedLimit,
		metrics.RefusedSingleTopic, metrics.RefusedUndecodable, metrics.RefusedIgnored} {
		if got[reason] != 1 {
			t.Errorf("registrations_refused_total{reason=%q} = %v, want 1 (all: %v)", reason, got[reason], got)
		}
	}
	if results["refused"] != 5 || results["error"] != 1 || results["success"] != 1 {
		t.Errorf("registrations by result %v, want 5 refused (the ignored one among them), 1 error, 1 success", results)
	}
}
