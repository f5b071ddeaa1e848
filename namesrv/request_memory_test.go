package namesrv

import (
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestRequestMemoryRulesTakeTheirFractions: the request memory keys left at
// 0 take their fractions of requestMemoryLimit; set ones are used as given.
func TestRequestMemoryRulesTakeTheirFractions(t *testing.T) {
	cfg := config.Default()
	var srv remoting.ServerConfig
	applyRequestMemoryRules(&srv, cfg)
	if srv.RequestMemoryBrokerHeadroom != 256<<20 || srv.RequestMemoryPerConnection != 128<<20 || srv.RequestMemoryPerStranger != 16<<20 ||
		srv.LargeFrameStallTimeout != 10*time.Second || srv.LargeFrameMinRate != 64<<10 {
		t.Fatalf("defaults applied as %+v", srv)
	}
	for key, value := range map[string]string{"requestMemoryBrokerHeadroom": "1048576", "requestMemoryPerConnection": "2097152",
		"requestMemoryPerStranger": "3145728", "largeFrameStallTimeoutMillis": "250", "largeFrameMinBytesPerSecond": "0"} {
		if err := cfg.Set(key, value); err != nil {
			t.Fatal(err)
		}
	}
	applyRequestMemoryRules(&srv, cfg)
	if srv.RequestMemoryBrokerHeadroom != 1<<20 || srv.RequestMemoryPerConnection != 2<<20 || srv.RequestMemoryPerStranger != 3<<20 ||
		srv.LargeFrameStallTimeout != 250*time.Millisecond || srv.LargeFrameMinRate != 0 {
		t.Fatalf("set values applied as %+v", srv)
	}
}
