package test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/kvsync"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// kvPeerAccount is the peer account every NameServer of these groups
// shares: it signs the peer checks and the KV sync.
var kvPeerAccount = aclsign.Credentials{AccessKey: "peer-sync", SecretKey: "peer-sync-secret-1"}

// kvGroup starts NameServers on the given ports, each with the others as
// peerNamesrvAddrs and the peer account, each with its own data folder and
// HTTP side port.
func kvGroup(t *testing.T, n int) []*sidePort {
	t.Helper()
	ports := make([]int, n)
	addrs := make([]string, n)
	for i := range ports {
		ports[i] = freePort(t)
		addrs[i] = "127.0.0.1:" + strconv.Itoa(ports[i])
	}
	group := make([]*sidePort, n)
	for i := range group {
		var others string
		for j, a := range addrs {
			if j != i {
				if others != "" {
					others += ";"
				}
				others += a
			}
		}
		http := freePort(t)
		p := startNamesrvIn(t, t.TempDir(), ports[i], "-httpListenPort", strconv.Itoa(http), "-peerNamesrvAddrs", others,
			"-peerAccessKey", kvPeerAccount.AccessKey, "-peerSecretKey", kvPeerAccount.SecretKey)
		group[i] = &sidePort{process: p, base: "http://127.0.0.1:" + strconv.Itoa(http)}
	}
	for _, s := range group {
		s.waitAttached(t)
	}
	return group
}

// kvOf reads one key over the wire: its value, or "" and false when the
// NameServer answers QUERY_NOT_FOUND.
func kvOf(t *testing.T, addr, ns, key string) (string, bool) {
	t.Helper()
	resp, err := nstest.Call(addr, remoting.GET_KV_CONFIG, map[string]string{"namespace": ns, "key": key}, nil, 5*time.Second)
	if err != nil {
		t.Fatalf("GET_KV_CONFIG %s/%s on %s: %v", ns, key, addr, err)
	}
	switch resp.Code {
	case remoting.SUCCESS:
		return resp.ExtFields["value"], true
	case remoting.QUERY_NOT_FOUND:
		return "", false
	}
	t.Fatalf("GET_KV_CONFIG %s/%s on %s: code %d %s", ns, key, addr, resp.Code, resp.Remark)
	return "", false
}

func kvWrite(t *testing.T, addr string, code int32, ns, key, value string) {
	t.Helper()
	c := nstest.NewClient(t, addr)
	nstest.MustCode(t, nstest.Invoke(t, c, kvRequest(code, ns, key, value)), remoting.SUCCESS)
}

// kvExchangeWith is s's last KV exchange with peer, from /v1/peers.
func kvExchangeWith(t *testing.T, s *sidePort, peer string) *peers.KVStatus {
	t.Helper()
	for _, st := range peersOf(t, s) {
		if st.Addr == peer {
			return st.KV
		}
	}
	return nil
}

// TestKVWriteWhileDownReachesPeerInOneExchange: a write and a delete made on
// one NameServer while its peer is down are on the peer when it has done
// its first exchange after its return, its kvConfig.json in Java's format;
// the panel and the metric then show the two agreeing.
func TestKVWriteWhileDownReachesPeerInOneExchange(t *testing.T) {
	g := kvGroup(t, 2)
	a, b := g[0], g[1]
	kvWrite(t, a.Addr, remoting.PUT_KV_CONFIG, "ORDER_TOPIC_CONFIG", "TopicOld", "broker-a:4")
	eventually(t, 30*time.Second, "b takes a's first write", func() error {
		if v, ok := kvOf(t, b.Addr, "ORDER_TOPIC_CONFIG", "TopicOld"); !ok || v != "broker-a:4" {
			return fmt.Errorf("b has %q %v", v, ok)
		}
		return nil
	})

	b.Kill()
	kvWrite(t, a.Addr, remoting.PUT_KV_CONFIG, "ORDER_TOPIC_CONFIG", "TopicNew", "broker-a:8;broker-b:8")
	kvWrite(t, a.Addr, remoting.DELETE_KV_CONFIG, "ORDER_TOPIC_CONFIG", "TopicOld", "")
	began := time.Now()
	b.start()
	b.waitAttached(t)
	var first *peers.KVStatus
	eventually(t, 30*time.Second, "b's first KV exchange with a after its return", func() error {
		if first = kvExchangeWith(t, b, a.Addr); first == nil || first.Exchanges < 1 {
			return fmt.Errorf("b's KV status of a: %+v", first)
		}
		return nil
	})
	t.Logf("b's first exchange after its return ended %v after its start: %+v", time.Since(began), *first)
	// The status is published once the exchange's pulls are in: the first
	// exchange brought both the write and the delete.
	if first.Exchanges != 1 || first.Error != "" || !first.Agree || first.Pulled != 2 {
		t.Fatalf("b's first exchange with a: %+v, want one that pulled the write and the tombstone and agrees", *first)
	}
	if v, ok := kvOf(t, b.Addr, "ORDER_TOPIC_CONFIG", "TopicNew"); !ok || v != "broker-a:8;broker-b:8" {
		t.Fatalf("b after one exchange: TopicNew %q %v", v, ok)
	}
	if v, ok := kvOf(t, b.Addr, "ORDER_TOPIC_CONFIG", "TopicOld"); ok {
		t.Fatalf("b after one exchange: the deleted TopicOld is still %q", v)
	}
	// kvConfig.json keeps Java's format, byte for byte: a Java NameServer or
	// a downgrade reads it; the versions are in the file beside it.
	content, err := os.ReadFile(filepath.Join(b.DataDir, "kvConfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicNew":"broker-a:8;broker-b:8"}}}`; string(content) != want {
		t.Fatalf("b's kvConfig.json = %s, want %s", content, want)
	}
	if _, err := os.Stat(filepath.Join(b.DataDir, "kvConfig.json.versions")); err != nil {
		t.Fatalf("b's versions file: %v", err)
	}
	eventually(t, 30*time.Second, "a's panel and metric show b agreeing", func() error {
		st := kvExchangeWith(t, a, b.Addr)
		if st == nil || !st.Agree || st.Error != "" {
			return fmt.Errorf("a's KV status of b: %+v", st)
		}
		if v := value(a.scrape(t), "rocketmq_namesrv_peer_kv_agree", "peer", b.Addr); v != 1 {
			return fmt.Errorf("rocketmq_namesrv_peer_kv_agree{peer=%s} = %v", b.Addr, v)
		}
		return nil
	})
}

// TestKVConcurrentWritesConverge: one key written on each of three
// NameServers at once ends with one value everywhere, the same, and every
// versions file agreeing on its version.
func TestKVConcurrentWritesConverge(t *testing.T) {
	g := kvGroup(t, 3)
	done := make(chan struct{}, len(g))
	for i, s := range g {
		go func() {
			defer func() { done <- struct{}{} }()
			resp, err := nstest.Call(s.Addr, remoting.PUT_KV_CONFIG,
				map[string]string{"namespace": "app", "key": "mode", "value": "written-on-" + strconv.Itoa(i)}, nil, 5*time.Second)
			if err != nil || resp.Code != remoting.SUCCESS {
				t.Errorf("put on %d: %v %+v", i, err, resp)
			}
		}()
	}
	for range g {
		<-done
	}
	var final string
	eventually(t, 60*time.Second, "the three agree on app/mode", func() error {
		values := map[string]bool{}
		for _, s := range g {
			v, ok := kvOf(t, s.Addr, "app", "mode")
			if !ok {
				return fmt.Errorf("%s lost app/mode", s.Addr)
			}
			values[v] = true
			final = v
		}
		if len(values) != 1 {
			return fmt.Errorf("values %v", values)
		}
		return nil
	})
	var versions []string
	for _, s := range g {
		content, err := os.ReadFile(filepath.Join(s.DataDir, "kvConfig.json.versions"))
		if err != nil {
			t.Fatal(err)
		}
		var vf struct {
			Entries map[string]map[string]json.RawMessage `json:"entries"`
		}
		if err := json.Unmarshal(content, &vf); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, string(vf.Entries["app"]["mode"]))
	}
	if versions[0] != versions[1] || versions[1] != versions[2] {
		t.Fatalf("app/mode converged on %q but the versions differ: %v", final, versions)
	}
	t.Logf("app/mode converged on %q, version %s", final, versions[0])
}

// TestKVSyncRefusesStrangers: the KV sync's requests are answered only when
// signed with the peer account; unsigned, signed by another account or with
// a wrong secret they are refused NO_PERMISSION (16), and a NameServer
// without a peer account refuses every one.
func TestKVSyncRefusesStrangers(t *testing.T) {
	g := kvGroup(t, 2)
	kvWrite(t, g[0].Addr, remoting.PUT_KV_CONFIG, "app", "secret", "s3cr3t")
	call := func(addr string, code int32, cred aclsign.Credentials, body []byte) *remoting.Command {
		ext := map[string]string{}
		aclsign.Sign(ext, body, cred)
		resp, err := nstest.Call(addr, code, ext, body, 5*time.Second)
		if err != nil {
			t.Fatalf("code %d to %s: %v", code, addr, err)
		}
		return resp
	}
	pull := []byte(`{"keys":[{"namespace":"app","key":"secret"}]}`)
	for _, tc := range []struct {
		name string
		cred aclsign.Credentials
	}{
		{"unsigned", aclsign.Credentials{}},
		{"another account", aclsign.Credentials{AccessKey: "rocketmq2", SecretKey: "12345678"}},
		{"wrong secret", aclsign.Credentials{AccessKey: kvPeerAccount.AccessKey, SecretKey: "guessed-secret"}},
	} {
		for _, code := range []int32{kvsync.CodeKVDigest, kvsync.CodeKVPull} {
			if resp := call(g[0].Addr, code, tc.cred, pull); resp.Code != remoting.NO_PERMISSION || len(resp.Body) != 0 {
				t.Fatalf("%s, code %d: answered %d %q %q, want 16 and nothing", tc.name, code, resp.Code, resp.Remark, resp.Body)
			}
		}
	}
	if resp := call(g[0].Addr, kvsync.CodeKVPull, kvPeerAccount, pull); resp.Code != remoting.SUCCESS {
		t.Fatalf("the peer account's pull: %d %s", resp.Code, resp.Remark)
	}
	lone := startNamesrv(t)
	if resp := call(lone.Addr, kvsync.CodeKVDigest, kvPeerAccount, nil); resp.Code != remoting.NO_PERMISSION {
		t.Fatalf("a NameServer without peer account answered %d %s, want 16", resp.Code, resp.Remark)
	}
}
