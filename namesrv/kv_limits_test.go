package namesrv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestPutKVConfigOverTheValueLimit: a value past kvconfig.DefaultLimits is
// answered code 1 naming the limit, nothing is stored, and the server goes
// on answering. Before, any value was stored, and logged whole at info.
func TestPutKVConfigOverTheValueLimit(t *testing.T) {
	s := startServer(t, nil)
	big := strings.Repeat("v", kvconfig.DefaultLimits.MaxValueBytes+1)
	ext := kvHeader("ns", "big")
	ext["value"] = big
	resp := s.call(t, remoting.PUT_KV_CONFIG, ext, nil)
	nstest.MustCode(t, resp, remoting.SYSTEM_ERROR)
	want := fmt.Sprintf("value of %d bytes, at most %d", len(big), kvconfig.DefaultLimits.MaxValueBytes)
	if !strings.Contains(resp.Remark, want) {
		t.Fatalf("remark %q, want it to say %q", resp.Remark, want)
	}
	if _, ok := s.ns.kv.Get("ns", "big"); ok {
		t.Fatal("the value over the limit was stored")
	}
	putKV(t, s, "ns", "small", "v")
}

// TestPutKVConfigLogsTheSizeNotTheValue: the value is the operator's data
// and can be large; the log line carries its size.
func TestPutKVConfigLogsTheSizeNotTheValue(t *testing.T) {
	s := startServer(t, nil)
	value := "secret-" + strings.Repeat("x", 100)
	putKV(t, s, "ns", "k", value)
	found := false
	for _, e := range s.hook.AllEntries() {
		for key, field := range e.Data {
			if strings.Contains(fmt.Sprint(field), "secret-") {
				t.Fatalf("log %q field %s holds the value", e.Message, key)
			}
		}
		if e.Message == "kv config put" {
			found = e.Data["valueBytes"] == len(value)
		}
	}
	if !found {
		t.Fatal("no \"kv config put\" line with valueBytes")
	}
}
