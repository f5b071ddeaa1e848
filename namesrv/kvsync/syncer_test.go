package kvsync

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// serve answers the KV sync's requests from store, as the NameServer does
// (namesrv/kv_sync.go), for account.
func serve(t *testing.T, store *kvconfig.Store, account aclsign.Credentials) string {
	t.Helper()
	srv := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0"})
	answer := func(req *remoting.Command, body []byte) *remoting.Command {
		resp := remoting.NewResponse(req, remoting.SUCCESS, "")
		resp.Body = body
		return resp
	}
	srv.Handle(CodeKVDigest, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		if err := Authorize(account, req); err != nil {
			return remoting.NewResponse(req, remoting.NO_PERMISSION, err.Error())
		}
		var h DigestRequest
		if err := remoting.DecodeHeader(req, &h); err != nil {
			return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
		}
		return answer(req, mustJSON(t, AnswerDigest(store, h)))
	}, remoting.Slow())
	srv.Handle(CodeKVPull, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		if err := Authorize(account, req); err != nil {
			return remoting.NewResponse(req, remoting.NO_PERMISSION, err.Error())
		}
		a, err := AnswerPull(store, req.Body)
		if err != nil {
			return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
		}
		return answer(req, mustJSON(t, a))
	}, remoting.Slow())
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown(nstest.Context(t)) })
	return srv.Addr().String()
}

// waitStatus waits for the syncer's status of addr to satisfy ok.
func waitStatus(t *testing.T, s *Syncer, addr string, ok func(st kvStatus) bool) kvStatus {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if st, found := s.Status(addr); found && ok(st) {
			return st
		}
		time.Sleep(10 * time.Millisecond)
	}
	st, _ := s.Status(addr)
	t.Fatalf("status of %s: %+v", addr, st)
	return st
}

// The syncer pulls what is newer on the peer (values over several pages
// and a tombstone) in one exchange, leaves what is newer here, and says
// the two agree once the peer has the rest.
func TestSyncerPullsNewerInOneExchange(t *testing.T) {
	local, remote := openStore(t), openStore(t)
	if err := local.Put("ns", "stale", "old"); err != nil {
		t.Fatal(err)
	}
	if err := local.Put("ns", "mine", "here"); err != nil {
		t.Fatal(err)
	}
	if _, err := remote.Merge(local.Entries([][2]string{{"ns", "stale"}}, PageBytes)); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("b", 60_000)
	fill(t, remote, 40, func(i int) (string, string, string) { return "big", fmt.Sprint(i), big }) // 2.4 MB: three pulls
	if err := remote.Delete("ns", "stale"); err != nil {
		t.Fatal(err)
	}
	addr := serve(t, remote, peer)
	s := Start(Config{Peers: func() []string { return []string{addr} }, Store: local, Peer: peer, Log: testlog.Discard(),
		Interval: time.Hour})
	defer s.Stop()
	st := waitStatus(t, s, addr, func(st kvStatus) bool { return st.Exchanges == 1 })
	if st.Error != "" || st.Pulled != 41 || st.NewerHere != 1 || st.Agree || st.Keys != 41 {
		t.Fatalf("first exchange: %+v, want 41 pulled, 1 newer here", st)
	}
	if _, ok := local.Get("ns", "stale"); ok {
		t.Fatal("the peer's delete was not taken")
	}
	if v, _ := local.Get("big", "39"); v != big {
		t.Fatal("the last page's value is missing")
	}
	// Once the peer has ours too (its own exchange), the two agree.
	if _, err := remote.Merge(local.Entries([][2]string{{"ns", "mine"}}, PageBytes)); err != nil {
		t.Fatal(err)
	}
	s.round()
	if st, _ := s.Status(addr); !st.Agree || st.Exchanges != 2 || st.Pulled != 0 {
		t.Fatalf("second exchange: %+v, want agreeing", st)
	}
}

// A peer that refuses (another peer account) or is down is an error in the
// status, and nothing is taken.
func TestSyncerReportsRefusalAndDown(t *testing.T) {
	local, remote := openStore(t), openStore(t)
	if err := remote.Put("ns", "k", "v"); err != nil {
		t.Fatal(err)
	}
	other := serve(t, remote, aclsign.Credentials{AccessKey: "other", SecretKey: "other-secret"})
	down := "127.0.0.1:1"
	s := Start(Config{Peers: func() []string { return []string{other, down} }, Store: local, Peer: peer,
		Log: testlog.Discard(), Interval: time.Hour, Timeout: 2 * time.Second})
	defer s.Stop()
	st := waitStatus(t, s, other, func(st kvStatus) bool { return st.Exchanges == 1 })
	if st.Agree || !strings.Contains(st.Error, "code 16") {
		t.Fatalf("refused exchange: %+v", st)
	}
	if st := waitStatus(t, s, down, func(st kvStatus) bool { return st.Exchanges == 1 }); st.Error == "" || st.Agree {
		t.Fatalf("exchange with a down peer: %+v", st)
	}
	if _, ok := local.Get("ns", "k"); ok {
		t.Fatal("taken from a peer that refused")
	}
}

type kvStatus = peers.KVStatus

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
