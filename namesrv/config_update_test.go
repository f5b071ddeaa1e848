package namesrv

import (
	"sync"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestConcurrentConfigUpdatesLeaveRoutesOnTheNewest sends many
// UPDATE_NAMESRV_CONFIG at once, half turning the route manager's settings
// on and half off: whichever was published last, the route manager ends on
// it (the admin pool runs two updates at a time).
func TestConcurrentConfigUpdatesLeaveRoutesOnTheNewest(t *testing.T) {
	s := startServer(t, nil)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := []string{"true", "false"}[i%2]
			client := nstest.NewClient(t, s.addr())
			body := []byte("supportActingMaster=" + v + "\ndeleteTopicWithBrokerRegistration=" + v + "\n")
			resp, err := client.Invoke(nstest.Context(t), remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, body))
			if err != nil || resp.Code != remoting.SUCCESS {
				t.Errorf("update: %v %+v", err, resp)
			}
		}()
	}
	wg.Wait()
	cfg, routes := s.ns.settings.Get(), s.ns.routes.Config()
	if routes.SupportActingMaster != cfg.SupportActingMaster || routes.DeleteTopicWithBrokerRegistration != cfg.DeleteTopicWithBrokerRegistration {
		t.Fatalf("route manager %+v, settings supportActingMaster=%v deleteTopicWithBrokerRegistration=%v",
			routes, cfg.SupportActingMaster, cfg.DeleteTopicWithBrokerRegistration)
	}
}

// TestAdminWhiteWithoutACL: adminWhiteRemoteAddresses refuses admin writes
// from elsewhere with ACL off, and leaves every other class alone.
func TestAdminWhiteWithoutACL(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.AdminWhiteRemoteAddresses = "10.0.0.0/8" })
	resp := s.call(t, remoting.PUT_KV_CONFIG, map[string]string{"namespace": "n", "key": "k", "value": "v"}, nil)
	if resp.Code != remoting.NO_PERMISSION {
		t.Fatalf("admin write from 127.0.0.1: code %d %q", resp.Code, resp.Remark)
	}
	nstest.MustCode(t, s.call(t, remoting.GET_KV_CONFIG, map[string]string{"namespace": "n", "key": "k"}, nil), remoting.QUERY_NOT_FOUND)
	nstest.MustCode(t, s.call(t, remoting.GET_BROKER_CLUSTER_INFO, nil, nil), remoting.SUCCESS)
	if n := s.ns.ACL().Denials(); len(n) != 1 || n[0].Count != 1 {
		t.Fatalf("denials = %+v", n)
	}
}
