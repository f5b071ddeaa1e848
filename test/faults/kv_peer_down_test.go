package faults

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/kvsync"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// kvValue reads one key over the wire; ok is false when it is not there.
func kvValue(addr, ns, key string) (value string, ok bool, err error) {
	resp, err := nstest.Call(addr, remoting.GET_KV_CONFIG, map[string]string{"namespace": ns, "key": key}, nil, 3*time.Second)
	switch {
	case err != nil:
		return "", false, err
	case resp.Code == remoting.SUCCESS:
		return resp.ExtFields["value"], true, nil
	case resp.Code == remoting.QUERY_NOT_FOUND:
		return "", false, nil
	}
	return "", false, fmt.Errorf("GET_KV_CONFIG: code %d %s", resp.Code, resp.Remark)
}

// kvChange writes (value != "") or deletes one key on addr.
func kvChange(t *testing.T, addr, ns, key, value string) {
	t.Helper()
	code, ext := int32(remoting.DELETE_KV_CONFIG), map[string]string{"namespace": ns, "key": key}
	if value != "" {
		code, ext["value"] = remoting.PUT_KV_CONFIG, value
	}
	resp, err := nstest.Call(addr, code, ext, nil, 5*time.Second)
	if err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("KV change %s/%s on %s: %v %+v", ns, key, addr, err, resp)
	}
}

// kvExchange is the last KV exchange the side port at base shows with peer.
func kvExchange(base, peer string) (*peers.KVStatus, error) {
	resp, err := http.Get(base + "/v1/peers")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var view struct {
		Peers []peers.Status `json:"peers"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&view); err != nil {
		return nil, err
	}
	for _, st := range view.Peers {
		if st.Addr == peer && st.KV != nil {
			return st.KV, nil
		}
	}
	return nil, fmt.Errorf("no KV exchange with %s yet: %+v", peer, view.Peers)
}

// TestKVWriteWhileAPeerWasDown (issue 37): a pair of NameServers sharing a
// peer account; one is stopped (kill -9 and SIGTERM in turn), a key is
// written and the previous one deleted on the other, and the stopped one
// restarted: its first KV exchange after its return brings both, the write
// and the delete (its tombstone).
func TestKVWriteWhileAPeerWasDown(t *testing.T) {
	rounds := 1
	if full() {
		rounds = 4
	}
	r := record(t, 41, "KV writes while a peer NameServer is down",
		fmt.Sprintf("%d stops of one NameServer of a pair (kill -9 and SIGTERM in turn); while it is down a KV key is written and the previous one deleted on the other", rounds))
	port1, port2, http2 := freePort(t), freePort(t), freePort(t)
	addr1, addr2 := "127.0.0.1:"+strconv.Itoa(port1), "127.0.0.1:"+strconv.Itoa(port2)
	account := []string{"-peerAccessKey", "faults-peer", "-peerSecretKey", "faults-peer-secret"}
	ns1 := startNamesrv(t, nsOptions{port: port1, extra: append([]string{"-peerNamesrvAddrs", addr2}, account...)})
	ns2 := startNamesrv(t, nsOptions{port: port2, extra: append([]string{"-peerNamesrvAddrs", addr1,
		"-httpListenPort", strconv.Itoa(http2)}, account...)})
	base2 := "http://127.0.0.1:" + strconv.Itoa(http2)
	// A key both have before the first stop, deleted while it is down.
	kvChange(t, ns1.Addr, "faults", "key-first", "value-first")
	if _, ok := waitFor(3*kvsync.Interval+20*time.Second, 20*time.Millisecond, func() bool {
		v, ok, err := kvValue(ns2.Addr, "faults", "key-first")
		return err == nil && ok && v == "value-first"
	}); !ok {
		t.Fatal("the pair never shared a first key")
	}
	previous := "key-first"
	var slowest time.Duration
	for i := range rounds {
		if i%2 == 0 {
			ns2.kill()
		} else if !ns2.stop(10 * time.Second) {
			t.Errorf("round %d: SIGTERM did not stop the NameServer within 10 s", i+1)
		}
		key := "key-" + strconv.Itoa(i)
		kvChange(t, ns1.Addr, "faults", key, "value-"+strconv.Itoa(i))
		kvChange(t, ns1.Addr, "faults", previous, "")
		began := time.Now()
		ns2.start()
		var first *peers.KVStatus
		if _, ok := waitFor(3*kvsync.Interval+20*time.Second, 20*time.Millisecond, func() bool {
			st, err := kvExchange(base2, addr1)
			first = st
			return err == nil && st.Exchanges >= 1
		}); !ok {
			t.Fatalf("round %d: no KV exchange of the restarted NameServer with its peer", i+1)
		}
		took := time.Since(began)
		// The status is published once the exchange's pulls are in.
		if v, ok, err := kvValue(ns2.Addr, "faults", key); err != nil || !ok || v != "value-"+strconv.Itoa(i) {
			t.Fatalf("round %d: after its first exchange (%+v) the restarted NameServer has %s = %q %v (%v)", i+1, *first, key, v, ok, err)
		}
		if v, ok, err := kvValue(ns2.Addr, "faults", previous); err != nil || ok {
			t.Fatalf("round %d: after its first exchange the key deleted meanwhile, %s, is still %q (%v)", i+1, previous, v, err)
		}
		previous = key
		if first.Exchanges != 1 || !first.Agree {
			t.Fatalf("round %d: the first exchange after the return %+v, want one that agrees", i+1, *first)
		}
		slowest = max(slowest, took)
	}
	r.figure(t, "slowest first exchange done after a restart (from the start of the process)", ms(slowest))
	r.observe(t, "after every return the first KV exchange brought the write and the delete made while the NameServer was down (exchanges every %s)", kvsync.Interval)
}
