package broker

import (
	"context"
	"errors"
	"net"
	"strconv"
	"testing"
	"time"
)

// TestBindAddressLimitsTheListener: with bindAddress=127.0.0.2 the broker
// listens on that address only (127.0.0.1 is refused) and still announces
// brokerIP1; the default binds every interface.
func TestBindAddressLimitsTheListener(t *testing.T) {
	dial := func(host string, port int) error {
		c, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(port)), 2*time.Second)
		if err == nil {
			c.Close()
		}
		return err
	}
	start := func(bind string) (*Broker, int) {
		cfg := testBrokerConfig(t, "", 0)
		if bind != "" {
			if err := cfg.Apply(map[string]string{"bindAddress": bind, "brokerIP1": "10.9.8.7"}); err != nil {
				t.Fatal(err)
			}
		}
		b, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Shutdown(context.Background()) })
		return b, b.server.Addr().(*net.TCPAddr).Port
	}

	b, port := start("127.0.0.2")
	if err := dial("127.0.0.2", port); err != nil {
		t.Fatalf("the bind address refuses: %v", err)
	}
	if err := dial("127.0.0.1", port); err == nil {
		t.Fatalf("bound to 127.0.0.2 but 127.0.0.1:%d accepts", port)
	}
	if want := "10.9.8.7:" + strconv.Itoa(port); b.Addr() != want {
		t.Fatalf("announced %s, want %s (brokerIP1, not the bind address)", b.Addr(), want)
	}

	_, port = start("")
	for _, host := range []string{"127.0.0.1", "127.0.0.2"} {
		if err := dial(host, port); err != nil {
			t.Fatalf("default bind (0.0.0.0): %s refuses: %v", host, err)
		}
	}
}

func TestBindAddressValidated(t *testing.T) {
	for addr, ok := range map[string]bool{"0.0.0.0": true, "127.0.0.1": true, "::": true, "::1": true, "broker-a.internal": true,
		"": false, "[::1]": false, "127.0.0.1:10911": false, "a b": false} {
		cfg := DefaultConfig()
		cfg.BindAddress = addr
		err := cfg.Validate()
		if (err == nil) != ok || (err != nil && !errors.Is(err, ErrBrokerConfig)) {
			t.Errorf("bindAddress %q: %v, want ok=%v", addr, err, ok)
		}
	}
}
