package namesrv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestKVListNeverEncodedOnTheEventLoop: the event loop's handler answers a
// namespace only once its body is encoded (by the pool's handler, the first
// time after a change), and a missing one at once; over the wire every
// answer is current, before and after a change of the namespace.
func TestKVListNeverEncodedOnTheEventLoop(t *testing.T) {
	s := startServer(t, nil)
	put := func(key, value string) {
		t.Helper()
		nstest.MustCode(t, s.call(t, remoting.PUT_KV_CONFIG, map[string]string{"namespace": "big", "key": key, "value": value}, nil), remoting.SUCCESS)
	}
	for i := range 200 {
		put(fmt.Sprintf("key-%04d", i), strings.Repeat("v", 1000))
	}
	req := func(namespace string) *remoting.Command {
		return remoting.NewRequest(remoting.GET_KVLIST_BY_NAMESPACE, map[string]string{"namespace": namespace}, nil)
	}
	if resp := s.ns.quickKVList(nil, req("big")); resp != nil {
		t.Fatal("the event loop's handler answered a namespace not yet encoded")
	}
	if resp := s.ns.quickKVList(nil, req("missing")); resp == nil || resp.Code != remoting.QUERY_NOT_FOUND {
		t.Fatalf("missing namespace on the loop: %+v", resp)
	}
	first := s.call(t, remoting.GET_KVLIST_BY_NAMESPACE, map[string]string{"namespace": "big"}, nil)
	nstest.MustCode(t, first, remoting.SUCCESS)
	quick := s.ns.quickKVList(nil, req("big"))
	if quick == nil || string(quick.Body) != string(first.Body) {
		t.Fatal("the event loop's handler did not answer the encoded namespace")
	}
	put("key-new", "fresh")
	if resp := s.ns.quickKVList(nil, req("big")); resp != nil {
		t.Fatal("the event loop's handler answered a changed namespace from its old body")
	}
	after := s.call(t, remoting.GET_KVLIST_BY_NAMESPACE, map[string]string{"namespace": "big"}, nil)
	if !strings.Contains(string(after.Body), `"key-new":"fresh"`) || len(after.Body) <= len(first.Body) {
		t.Fatalf("the answer after a change lacks it (%d bytes, before %d)", len(after.Body), len(first.Body))
	}
}
