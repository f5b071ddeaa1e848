package namesrv

import (
	"fmt"
	"testing"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/namesrv/kvsync"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// A NameServer with a peer account takes its peer's KV writes, shows the
// exchange in the peers panel and the metrics' source, and answers the
// sync's requests to its peer account only: a stranger gets 16, logged.
func TestKVSyncBetweenTwoServers(t *testing.T) {
	account := func(cfg *config.Config) { cfg.PeerAccessKey, cfg.PeerSecretKey = "peerKey1", "peerSecret1" }
	b := startServer(t, account)
	resp := b.call(t, remoting.PUT_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k", "value": "from-b"}, nil)
	if resp.Code != remoting.SUCCESS {
		t.Fatalf("put on b: %d %s", resp.Code, resp.Remark)
	}
	a := startServer(t, func(cfg *config.Config) { account(cfg); cfg.PeerNamesrvAddrs = b.addr() })
	eventually(t, "a takes b's write and agrees", func() error {
		if v, _ := a.ns.kv.Get("ns", "k"); v != "from-b" {
			return fmt.Errorf("a has %q", v)
		}
		for _, st := range a.ns.peerCounts() {
			if st.Addr == b.addr() && st.KV != nil && st.KV.Agree {
				return nil
			}
		}
		return fmt.Errorf("a's peers %+v", a.ns.peerStatuses())
	})

	stranger := b.call(t, kvsync.CodeKVDigest, nil, nil)
	if stranger.Code != remoting.NO_PERMISSION {
		t.Fatalf("unsigned digest: %d %s", stranger.Code, stranger.Remark)
	}
	if !logged(b.hook, logrus.WarnLevel, "kv sync request refused") {
		t.Fatal("the refusal is not logged")
	}
	ext := map[string]string{}
	aclsign.Sign(ext, nil, aclsign.Credentials{AccessKey: "peerKey1", SecretKey: "peerSecret1"})
	if ok := b.call(t, kvsync.CodeKVDigest, ext, nil); ok.Code != remoting.SUCCESS {
		t.Fatalf("the peer account's digest: %d %s", ok.Code, ok.Remark)
	}
}

// Without a peer account there is no exchange, and it is said once.
func TestKVSyncOffWithoutPeerAccount(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) { cfg.PeerNamesrvAddrs = "127.0.0.1:1" })
	if s.ns.obs.kvsync != nil || s.ns.kvStatus("127.0.0.1:1") != nil {
		t.Fatal("kv sync started without a peer account")
	}
	if !logged(s.hook, logrus.InfoLevel, "kv sync off: peerAccessKey and peerSecretKey are not set, so the KV config is not exchanged with the peers") {
		t.Fatal("not said")
	}
}
