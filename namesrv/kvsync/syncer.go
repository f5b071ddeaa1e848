package kvsync

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Timing of the exchanges (docs/operations.md).
const (
	// Interval is how often every peer is asked for its digest; the first
	// exchange starts with the syncer.
	Interval = 5 * time.Second
	// Timeout bounds one exchange with one peer: connect, every page of its
	// digest and every pull.
	Timeout = 10 * time.Second
)

// Config is what a Syncer needs.
type Config struct {
	// Peers is the current peer list, read at every round.
	Peers func() []string
	Store *kvconfig.Store
	// Peer is the peer account the requests are signed with; the Syncer is
	// not started without one.
	Peer aclsign.Credentials
	TLS  *tls.Config
	Log  *logrus.Entry
	// Interval and Timeout default to Interval and Timeout.
	Interval, Timeout time.Duration
}

// Syncer exchanges digests with the peers in the background until Stop.
type Syncer struct {
	cfg Config

	mu     sync.Mutex
	status map[string]peers.KVStatus

	done, stopped chan struct{}
}

// Start exchanges with the peers now and then every cfg.Interval.
func Start(cfg Config) *Syncer {
	if cfg.Interval <= 0 {
		cfg.Interval = Interval
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = Timeout
	}
	s := &Syncer{cfg: cfg, status: map[string]peers.KVStatus{}, done: make(chan struct{}), stopped: make(chan struct{})}
	go s.run()
	return s
}

func (s *Syncer) run() {
	defer close(s.stopped)
	ticker := time.NewTicker(s.cfg.Interval)
	defer ticker.Stop()
	for {
		s.round()
		select {
		case <-ticker.C:
		case <-s.done:
			return
		}
	}
}

// Stop ends the exchanges and waits for a round in progress.
func (s *Syncer) Stop() {
	select {
	case <-s.done:
	default:
		close(s.done)
	}
	<-s.stopped
}

// Status is the last exchange with addr, if any.
func (s *Syncer) Status(addr string) (peers.KVStatus, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.status[addr]
	return st, ok
}

// round forgets the expired tombstones, then exchanges with every peer at
// once (their merges are serialised by the store).
func (s *Syncer) round() {
	if n, err := s.cfg.Store.PurgeTombstones(); err != nil {
		s.cfg.Log.WithError(err).Warn("kv sync: the expired tombstones' removal is not durable")
	} else if n > 0 {
		s.cfg.Log.WithField("tombstones", n).Info("kv sync: expired tombstones forgotten")
	}
	addrs := s.cfg.Peers()
	results := make([]peers.KVStatus, len(addrs))
	var wg sync.WaitGroup
	for i, addr := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = s.exchange(addr)
		}()
	}
	wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	next := make(map[string]peers.KVStatus, len(addrs))
	for i, addr := range addrs {
		st := results[i]
		prev := s.status[addr]
		st.Exchanges = prev.Exchanges + 1
		if st.Error != "" && prev.Error == "" {
			s.cfg.Log.WithFields(logrus.Fields{"peer": addr, "error": st.Error}).Warn("kv sync: exchange with a peer failed")
		}
		next[addr] = st
	}
	s.status = next
}

// exchange reads addr's digest, pulls what is newer there and says whether
// the two stores then agree.
func (s *Syncer) exchange(addr string) peers.KVStatus {
	st := peers.KVStatus{CheckedMillis: time.Now().UnixMilli()}
	ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout)
	defer cancel()
	client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: s.cfg.Timeout, RequestTimeout: s.cfg.Timeout,
		MaxFrameSize: MaxFrame, MaxPending: 2, TLS: s.cfg.TLS, Sign: aclsign.Signer(s.cfg.Peer),
		Logger: s.cfg.Log.WithField("peer", addr)})
	defer func() { _ = client.Close() }()

	ours := s.cfg.Store.Digest()
	theirs, want, err := s.compare(ctx, client, ours)
	if err != nil {
		st.Error = err.Error()
		return st
	}
	st.Keys = theirs.keys
	if theirs.equal {
		st.Agree = true
		return st
	}
	st.NewerHere = theirs.newerHere
	for len(want) > 0 {
		batch, rest := pullBatch(want)
		answer, err := invoke[PullAnswer](ctx, client, CodeKVPull, nil, PullRequest{Keys: batch})
		if err != nil {
			st.Error = "pull: " + err.Error()
			return st
		}
		if len(answer.Entries) == 0 {
			break // the keys are gone there since its digest
		}
		taken, err := s.cfg.Store.Merge(answer.Entries)
		st.Pulled += taken
		if err != nil {
			st.Error = "merge: " + err.Error()
			return st
		}
		// The answer may stop short of the batch (PageBytes): ask again
		// from the first key it left out.
		want = append(batch[len(answer.Entries):], rest...)
	}
	st.Agree = st.NewerHere == 0 && s.cfg.Store.Digest().Hash == theirs.hash
	return st
}

// peerDigest is what compare learnt of a peer's digest.
type peerDigest struct {
	hash      string
	keys      int
	equal     bool
	newerHere int
}

// compare reads the peer's digest page by page and returns the keys whose
// entry there wins over ours (or that we lack), and how many of ours win
// over theirs or are not there.
func (s *Syncer) compare(ctx context.Context, client *remoting.Client, ours kvconfig.Digest) (peerDigest, []Key, error) {
	var out peerDigest
	var want []Key
	mine := make(map[Key]kvconfig.Meta, len(ours.Entries))
	for _, e := range ours.Entries {
		mine[Key{e.Namespace, e.Key}] = e.Meta
	}
	seen := 0
	h := DigestRequest{Hash: ours.Hash}
	for {
		page, err := invoke[DigestAnswer](ctx, client, CodeKVDigest, &h, nil)
		if err != nil {
			return out, nil, fmt.Errorf("digest: %w", err)
		}
		out.hash, out.keys = page.Hash, page.Keys
		if page.Equal {
			out.equal = true
			return out, nil, nil
		}
		for _, e := range page.Entries {
			k := Key{e.Namespace, e.Key}
			m, ok := mine[k]
			switch {
			case !ok || e.Meta.Newer(m):
				want = append(want, k)
			case m.Newer(e.Meta):
				out.newerHere++
			}
			if ok {
				seen++
			}
		}
		if !page.More || len(page.Entries) == 0 {
			break
		}
		last := page.Entries[len(page.Entries)-1]
		h.AfterNamespace, h.AfterKey = last.Namespace, last.Key
	}
	out.newerHere += len(mine) - seen
	return out, want, nil
}

// pullBatch splits off the keys of one pull request (PageBytes).
func pullBatch(keys []Key) (batch, rest []Key) {
	size := 0
	for i, k := range keys {
		size += len(k.Namespace) + len(k.Key) + 32
		if i > 0 && size > PageBytes {
			return keys[:i], keys[i:]
		}
	}
	return keys, nil
}

// invoke sends one request, header h and body (JSON) when not nil, and
// decodes a SUCCESS answer's body.
func invoke[T any](ctx context.Context, c *remoting.Client, code int32, h *DigestRequest, body any) (*T, error) {
	req := remoting.NewRequest(code, nil, nil)
	if h != nil {
		req = remoting.NewRequest(code, remoting.EncodeHeader(h), nil)
	}
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("encode the request: %w", err)
		}
		req.Body = encoded
	}
	resp, err := c.Invoke(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.Code != remoting.SUCCESS {
		return nil, fmt.Errorf("refused with code %d: %s", resp.Code, resp.Remark)
	}
	var v T
	if err := json.Unmarshal(resp.Body, &v); err != nil {
		return nil, fmt.Errorf("decode the answer: %w", err)
	}
	return &v, nil
}
