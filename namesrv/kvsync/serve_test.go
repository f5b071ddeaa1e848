package kvsync

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
)

var peer = aclsign.Credentials{AccessKey: "peer", SecretKey: "peer-secret"}

func openStore(t *testing.T) *kvconfig.Store {
	t.Helper()
	s, err := kvconfig.Open(filepath.Join(t.TempDir(), "kvConfig.json"), testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fill writes n keys in one file write (a Merge of writes of a peer's),
// not n: each write rewrites the whole store.
func fill(t *testing.T, s *kvconfig.Store, n int, entry func(int) (ns, key, value string)) {
	t.Helper()
	entries := make([]kvconfig.Entry, n)
	for i := range entries {
		ns, key, value := entry(i)
		entries[i] = kvconfig.Entry{Namespace: ns, Key: key, Value: value,
			Meta: kvconfig.Meta{Version: kvconfig.Version{Millis: time.Now().UnixMilli(), Counter: uint32(i), Writer: "filler"}}}
	}
	if taken, err := s.Merge(entries); err != nil || taken != n {
		t.Fatalf("fill: %d taken, %v", taken, err)
	}
}

func signed(cred aclsign.Credentials, code int32, body []byte) *remoting.Command {
	req := remoting.NewRequest(code, map[string]string{"hash": "h"}, body)
	aclsign.Sign(req.ExtFields, body, cred)
	return req
}

func TestAuthorize(t *testing.T) {
	body := []byte(`{"keys":[]}`)
	if err := Authorize(peer, signed(peer, CodeKVPull, body)); err != nil {
		t.Fatalf("the peer account refused: %v", err)
	}
	tampered := signed(peer, CodeKVPull, body)
	tampered.Body = []byte(`{"keys":[{"namespace":"a","key":"b"}]}`)
	for name, tc := range map[string]struct {
		account aclsign.Credentials
		req     *remoting.Command
	}{
		"unsigned":        {peer, remoting.NewRequest(CodeKVDigest, nil, nil)},
		"another account": {peer, signed(aclsign.Credentials{AccessKey: "admin", SecretKey: "x"}, CodeKVDigest, nil)},
		"wrong secret":    {peer, signed(aclsign.Credentials{AccessKey: "peer", SecretKey: "guess"}, CodeKVDigest, nil)},
		"body changed":    {peer, tampered},
		"body too large":  {peer, signed(peer, CodeKVPull, make([]byte, MaxRequestBody+1))},
		"no peer account": {aclsign.Credentials{}, signed(peer, CodeKVDigest, nil)},
	} {
		if err := Authorize(tc.account, tc.req); !errors.Is(err, ErrNotPeer) {
			t.Fatalf("%s: %v, want ErrNotPeer", name, err)
		}
	}
}

// The digest answers "equal" to an asker of the same hash, else pages of
// at most PageBytes in key order, each after the asker's cursor.
func TestAnswerDigestPages(t *testing.T) {
	s := openStore(t)
	value := strings.Repeat("v", 60_000)
	fill(t, s, 40, func(i int) (string, string, string) { return "ns", "k" + strconv.Itoa(100+i), value })
	if a := AnswerDigest(s, DigestRequest{Hash: s.Digest().Hash}); !a.Equal || len(a.Entries) != 0 || a.Keys != 40 {
		t.Fatalf("same hash: %+v", a)
	}
	first := AnswerDigest(s, DigestRequest{Hash: "other"})
	if first.Equal || len(first.Entries) != 40 || first.More {
		t.Fatalf("a digest without values fits one page: %d entries, more %v", len(first.Entries), first.More)
	}
	rest := AnswerDigest(s, DigestRequest{Hash: "other", AfterNamespace: "ns", AfterKey: "k119"})
	if len(rest.Entries) != 20 || rest.Entries[0].Key != "k120" {
		t.Fatalf("after k119: %d entries from %+v", len(rest.Entries), rest.Entries[0])
	}
	// Long keys make several pages, none over PageBytes.
	long := openStore(t)
	fill(t, long, 3000, func(i int) (string, string, string) {
		return strings.Repeat("n", 500), strconv.Itoa(10000+i) + strings.Repeat("k", 500), "v"
	})
	h := DigestRequest{Hash: "other"}
	pages, total := 0, 0
	for {
		a := AnswerDigest(long, h)
		encoded, _ := json.Marshal(a)
		if len(encoded) > PageBytes+PageBytes/4 {
			t.Fatalf("page of %d bytes", len(encoded))
		}
		pages++
		total += len(a.Entries)
		if !a.More {
			break
		}
		last := a.Entries[len(a.Entries)-1]
		h.AfterNamespace, h.AfterKey = last.Namespace, last.Key
	}
	if pages < 2 || total != 3000 {
		t.Fatalf("%d pages of %d entries, want several of 3000", pages, total)
	}
}

func TestAnswerPull(t *testing.T) {
	s := openStore(t)
	if err := s.Put("ns", "k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("ns", "d"); err != nil {
		t.Fatal(err)
	}
	a, err := AnswerPull(s, []byte(`{"keys":[{"namespace":"ns","key":"k"},{"namespace":"ns","key":"none"},{"namespace":"ns","key":"d"}]}`))
	if err != nil || len(a.Entries) != 2 || a.Entries[0].Value != "v" || !a.Entries[1].Deleted {
		t.Fatalf("pull: %+v %v", a, err)
	}
	if _, err := AnswerPull(s, []byte("not json")); err == nil {
		t.Fatal("a body that is not JSON answered")
	}
}
