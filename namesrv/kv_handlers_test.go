package namesrv

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func kvHeader(namespace, key string) map[string]string {
	return map[string]string{"namespace": namespace, "key": key}
}

func putKV(t *testing.T, s *testServer, namespace, key, value string) {
	t.Helper()
	ext := kvHeader(namespace, key)
	ext["value"] = value
	resp := s.call(t, remoting.PUT_KV_CONFIG, ext, nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
}

func TestProcessRequest_PutKVConfig(t *testing.T) {
	s := startServer(t, nil)
	resp := s.call(t, remoting.PUT_KV_CONFIG, map[string]string{"namespace": "namespace", "key": "key", "value": "value"}, nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if resp.Remark != "" {
		t.Fatalf("remark %q, want none", resp.Remark)
	}
	if got, ok := s.ns.kv.Get("namespace", "key"); !ok || got != "value" {
		t.Fatalf("stored value %q (found %v), want value", got, ok)
	}
}

func TestProcessRequest_GetKVConfigReturnNotNull(t *testing.T) {
	s := startServer(t, nil)
	putKV(t, s, "namespace", "key", "value")
	resp := s.call(t, remoting.GET_KV_CONFIG, kvHeader("namespace", "key"), nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if resp.Remark != "" || resp.ExtFields["value"] != "value" {
		t.Fatalf("remark %q ext %v, want no remark and value=value", resp.Remark, resp.ExtFields)
	}
}

func TestProcessRequest_GetKVConfigReturnNull(t *testing.T) {
	s := startServer(t, nil)
	resp := s.call(t, remoting.GET_KV_CONFIG, kvHeader("namespace", "key"), nil)
	nstest.MustCode(t, resp, remoting.QUERY_NOT_FOUND)
	if resp.Remark != "No config item, Namespace: namespace Key: key" {
		t.Fatalf("remark %q", resp.Remark)
	}
	if _, has := resp.Ext("value"); has || resp.ExtFields == nil {
		t.Fatalf("ext %v, want an empty extFields object (Java writes {})", resp.ExtFields)
	}
}

func TestProcessRequest_DeleteKVConfig(t *testing.T) {
	s := startServer(t, nil)
	putKV(t, s, "namespace", "key", "value")
	resp := s.call(t, remoting.DELETE_KV_CONFIG, kvHeader("namespace", "key"), nil)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	if resp.Remark != "" {
		t.Fatalf("remark %q, want none", resp.Remark)
	}
	if _, ok := s.ns.kv.Get("namespace", "key"); ok {
		t.Fatal("value still stored after DELETE_KV_CONFIG")
	}
	// Deleting a missing key still answers 0 (protocol.md 2.3).
	nstest.MustCode(t, s.call(t, remoting.DELETE_KV_CONFIG, kvHeader("namespace", "missing"), nil), remoting.SUCCESS)
}

func TestGetKVListByNamespace(t *testing.T) {
	s := startServer(t, nil)
	ns := map[string]string{"namespace": "namespace"}
	missing := s.call(t, remoting.GET_KVLIST_BY_NAMESPACE, ns, nil)
	nstest.MustCode(t, missing, remoting.QUERY_NOT_FOUND)
	if missing.Remark != "No config item, Namespace: namespace" {
		t.Fatalf("remark %q", missing.Remark)
	}
	putKV(t, s, "namespace", "key", "value")
	found := s.call(t, remoting.GET_KVLIST_BY_NAMESPACE, ns, nil)
	nstest.MustCode(t, found, remoting.SUCCESS)
	table, err := route.DecodeKVTable(found.Body)
	if err != nil || len(table.Table) != 1 || table.Table["key"] != "value" {
		t.Fatalf("kv list %q (%v), want {key: value}", found.Body, err)
	}
	// An emptied namespace stays visible with an empty table (quirk Q21).
	nstest.MustCode(t, s.call(t, remoting.DELETE_KV_CONFIG, kvHeader("namespace", "key"), nil), remoting.SUCCESS)
	empty := s.call(t, remoting.GET_KVLIST_BY_NAMESPACE, ns, nil)
	nstest.MustCode(t, empty, remoting.SUCCESS)
	if table, err := route.DecodeKVTable(empty.Body); err != nil || len(table.Table) != 0 {
		t.Fatalf("emptied namespace %q (%v), want an empty table", empty.Body, err)
	}
}

// TestPutKVConfigRefusals: Java stores a missing value as a null that reads
// as not found (quirk Q20); we refuse it, and nothing is stored.
func TestPutKVConfigRefusals(t *testing.T) {
	cases := []struct {
		name   string
		ext    map[string]string
		remark string
	}{
		{"no value", map[string]string{"namespace": "ns", "key": "k"}, "value is null"},
		{"no key", map[string]string{"namespace": "ns", "value": "v"}, "namespace or key is null"},
		{"no namespace", map[string]string{"key": "k", "value": "v"}, "namespace or key is null"},
	}
	s := startServer(t, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mustRefuse(t, s.call(t, remoting.PUT_KV_CONFIG, tc.ext, nil), tc.remark)
			if _, ok := s.ns.kv.Namespace("ns"); ok {
				t.Fatal("a refused PUT_KV_CONFIG created its namespace")
			}
		})
	}
}
