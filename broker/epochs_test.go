package broker

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// A broker in controller mode answers GET_BROKER_EPOCH_CACHE (still fenced
// here: nothing listens at the controller address, so the cache holds only
// its identity); without controller mode the answer stays Java's
// SYSTEM_ERROR.
func TestEpochCacheServedOnlyInControllerMode(t *testing.T) {
	port, ok := nstest.FreePorts(0)
	if !ok {
		t.Fatal("no free loopback port")
	}
	for _, controllerMode := range []bool{true, false} {
		cfg := testBrokerConfig(t, "", 0)
		cfg.BrokerClusterName = "cluster-e"
		cfg.EnableControllerMode = controllerMode
		if controllerMode {
			cfg.Controller.ControllerAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		}
		b, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		resp, err := nstest.Call(b.server.Addr().String(), wire.CodeGetBrokerEpochCache, nil, nil, 10*time.Second)
		if err := b.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !controllerMode {
			if resp.Code != remoting.SYSTEM_ERROR {
				t.Fatalf("route-only broker answered %d %q", resp.Code, resp.Remark)
			}
			continue
		}
		if resp.Code != remoting.SUCCESS {
			t.Fatalf("controller-mode broker answered %d %q", resp.Code, resp.Remark)
		}
		cache, err := wire.DecodeEpochEntryCache(resp.Body)
		if err != nil || cache.ClusterName != "cluster-e" || cache.BrokerName != "broker-a" || len(cache.EpochList) != 0 {
			t.Fatalf("fenced broker's cache %+v, %v", cache, err)
		}
	}
}
