package remoting

import "testing"

func TestServerConfigDefaults(t *testing.T) {
	cfg := ServerConfig{SlowWorkers: 3}.withDefaults()
	if cfg.Addr != "0.0.0.0:9876" || cfg.MaxFrameSize != 16777216 || cfg.IdleTimeout != DefaultIdleTimeout ||
		cfg.SlowWorkers != 3 || cfg.SlowQueue != 10000 || cfg.Logger == nil {
		t.Fatalf("defaults: %+v", cfg)
	}
	if DefaultServerConfig().SlowWorkers != 16 {
		t.Fatal("default slow workers")
	}
	client := ClientConfig{MaxPending: 2}.withDefaults()
	if client.MaxPending != 2 || client.DialTimeout != DefaultDialTimeout || client.RequestTimeout != DefaultRequestTimeout ||
		client.MaxFrameSize != DefaultMaxFrameSize || client.Logger == nil {
		t.Fatalf("client defaults: %+v", client)
	}
}
