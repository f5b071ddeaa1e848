// Package peers watches the other NameServers of a group (the
// peerNamesrvAddrs key, or addressServerList without this server): every
// PeerCheckInterval a background goroutine asks each one, over the remoting
// protocol as any RocketMQ tool would, for its cluster table and topic list,
// within PeerCheckTimeout, and compares them with this server's. The
// dashboard's peers panel shows the last result; nothing here runs on the
// event loop or holds the route tables' lock.
package peers

import (
	"context"
	"crypto/tls"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Bounds of the checks (docs/dashboard.md).
const (
	// PeerCheckInterval is how often every peer is asked.
	PeerCheckInterval = 5 * time.Second
	// PeerCheckTimeout bounds one peer's check: connect and both answers.
	PeerCheckTimeout = 3 * time.Second
	// MaxPeerFrame bounds a peer's answer: a topic list of 100,000 topics
	// of 200 characters.
	MaxPeerFrame = 32 << 20
	// maxExamples is how many names a difference quotes.
	maxExamples = 3
)

// Status is what the last check of one peer found.
type Status struct {
	Addr string `json:"addr"`
	// Up says the peer answered both requests; Error says why not.
	Up            bool   `json:"up"`
	Error         string `json:"error,omitempty"`
	CheckedMillis int64  `json:"checkedMillis"` // Unix ms of the last check
	// LastUpMillis is when the peer last answered (0: never since this
	// server started).
	LastUpMillis int64 `json:"lastUpMillis"`
	// Brokers is the broker addresses in its cluster table, BrokerNames its
	// broker names, Topics its topics (-1 when it does not list them:
	// enableAllTopicList=false).
	Brokers     int `json:"brokers"`
	BrokerNames int `json:"brokerNames"`
	Topics      int `json:"topics"`
	// RoutesAgree says its broker table and topic names equal ours but for
	// differences younger than the heal window (heal.go); Differences says
	// how they differ for longer (a broker that does not reach one of the
	// two), a line per kind naming the brokers or topics.
	RoutesAgree bool     `json:"routesAgree"`
	Differences []string `json:"differences,omitempty"`
	// Healing is the differences first seen less than the heal window ago
	// (a broker registered on one NameServer and not yet on the other),
	// told as Differences; HealingCount counts their items.
	Healing      []string `json:"healing,omitempty"`
	HealingCount int      `json:"healingCount"`
	// KV is the last KV config exchange with it (package kvsync); nil
	// when there is none (no peer account, or none done yet).
	KV *KVStatus `json:"kv,omitempty"`
	// diffs is what this check saw differ, classified by round.
	diffs []difference
}

// Local is this server's side of the comparison.
type Local interface {
	ClusterInfo() route.ClusterInfo
	AllTopicList() route.TopicList
}

// Config is what a Watcher needs.
type Config struct {
	// Peers is the current peer list (read at every round, so a changed
	// config is followed).
	Peers func() []string
	Local Local
	// TLS, when set, is used to reach the peers (a group under
	// tls.server.mode=enforcing).
	TLS *tls.Config
	// Sign, when set, signs every check (aclsign.Signer of peerAccessKey
	// and peerSecretKey), for peers that refuse unsigned route reads.
	Sign func(*remoting.Command)
	Log  *logrus.Entry
	// Interval and Timeout default to PeerCheckInterval and PeerCheckTimeout.
	Interval, Timeout time.Duration
	// HealWindow, when set, is read at every round (peerRoutesHealMillis);
	// DefaultHealWindow otherwise.
	HealWindow func() time.Duration
}

// Watcher checks the peers in the background until Stop.
type Watcher struct {
	cfg Config

	mu     sync.Mutex
	status map[string]Status // by address, the peers of the last round
	// heal is when each difference was first seen (run's goroutine only).
	heal healTracker

	done, stopped chan struct{}
}

// Start checks the peers now and then every cfg.Interval.
func Start(cfg Config) *Watcher {
	if cfg.Interval <= 0 {
		cfg.Interval = PeerCheckInterval
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = PeerCheckTimeout
	}
	if cfg.Log == nil {
		cfg.Log = logrus.NewEntry(logrus.StandardLogger())
	}
	w := &Watcher{cfg: cfg, status: map[string]Status{}, done: make(chan struct{}), stopped: make(chan struct{})}
	go w.run()
	return w
}

func (w *Watcher) run() {
	defer close(w.stopped)
	ticker := time.NewTicker(w.cfg.Interval)
	defer ticker.Stop()
	for {
		w.round()
		select {
		case <-ticker.C:
		case <-w.done:
			return
		}
	}
}

// round checks every peer at once and keeps the results.
func (w *Watcher) round() {
	addrs := w.cfg.Peers()
	if len(addrs) == 0 {
		w.mu.Lock()
		w.status = map[string]Status{}
		w.mu.Unlock()
		return
	}
	ours := snapshotOf(w.cfg.Local)
	results := make([]Status, len(addrs))
	var wg sync.WaitGroup
	for i, addr := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = w.check(addr, ours)
		}()
	}
	wg.Wait()
	window := DefaultHealWindow
	if w.cfg.HealWindow != nil {
		window = w.cfg.HealWindow()
	}
	now := time.Now()
	listed := make(map[string]bool, len(results))
	w.mu.Lock()
	defer w.mu.Unlock()
	next := make(map[string]Status, len(results))
	for _, st := range results {
		prev, seen := w.status[st.Addr]
		listed[st.Addr] = true
		// Each broker registers with each NameServer on its own schedule,
		// and a check's two reads (cluster table, then topics) can straddle
		// a registration: a difference counts against the routes once it
		// has lasted the heal window, before that it is told as healing.
		if st.Up {
			lasting, healing := w.heal.classify(st.Addr, st.diffs, now, window)
			st.Differences, st.Healing, st.HealingCount = lines(lasting), lines(healing), len(healing)
			st.RoutesAgree = len(lasting) == 0
		} else {
			w.heal.classify(st.Addr, nil, now, window)
		}
		if st.Up {
			st.LastUpMillis = st.CheckedMillis
		} else {
			st.LastUpMillis = prev.LastUpMillis
		}
		// A change is logged once, and so is a peer down when first checked.
		if (seen && prev.Up != st.Up) || (!seen && !st.Up) {
			w.cfg.Log.WithFields(logrus.Fields{"peer": st.Addr, "up": st.Up, "error": st.Error}).Warn("peer NameServer changed state")
		}
		next[st.Addr] = st
	}
	w.heal.keep(listed)
	w.status = next
}

// Statuses is the last round's result, by address.
func (w *Watcher) Statuses() []Status {
	w.mu.Lock()
	out := make([]Status, 0, len(w.status))
	for _, st := range w.status {
		out = append(out, st)
	}
	w.mu.Unlock()
	slices.SortFunc(out, func(a, b Status) int {
		if a.Addr < b.Addr {
			return -1
		}
		if a.Addr > b.Addr {
			return 1
		}
		return 0
	})
	return out
}

// Stop ends the background checks and waits for a round in progress.
func (w *Watcher) Stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	<-w.stopped
}

// tables is one server's side of the comparison: broker addresses as
// "cluster/name/id=addr" and the topic names, both sorted.
type tables struct {
	brokers, topics []string
	names           int
	listed          bool // topics were listed
}

func snapshotOf(local Local) tables {
	info := local.ClusterInfo()
	list := local.AllTopicList()
	return tablesOf(&info, list.TopicList, true)
}

func tablesOf(info *route.ClusterInfo, topics []string, listed bool) tables {
	t := tables{names: len(info.BrokerAddrTable), listed: listed, topics: slices.Sorted(slices.Values(topics))}
	clusterOf := map[string]string{}
	for cluster, names := range info.ClusterAddrTable {
		for _, name := range names {
			clusterOf[name] = cluster
		}
	}
	for name, bd := range info.BrokerAddrTable {
		for id, addr := range bd.BrokerAddrs {
			t.brokers = append(t.brokers, clusterOf[name]+"/"+name+"/"+strconv.FormatInt(id, 10)+"="+addr)
		}
	}
	slices.Sort(t.brokers)
	return t
}

// check asks one peer for its tables and compares them with ours.
func (w *Watcher) check(addr string, ours tables) Status {
	st := Status{Addr: addr, CheckedMillis: time.Now().UnixMilli(), Topics: -1}
	ctx, cancel := context.WithTimeout(context.Background(), w.cfg.Timeout)
	defer cancel()
	client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: w.cfg.Timeout, RequestTimeout: w.cfg.Timeout,
		MaxFrameSize: MaxPeerFrame, MaxPending: 2, TLS: w.cfg.TLS, Sign: w.cfg.Sign, Logger: w.cfg.Log.WithField("peer", addr)})
	defer func() { _ = client.Close() }()
	info, err := ask(ctx, client, remoting.GET_BROKER_CLUSTER_INFO, route.DecodeClusterInfo)
	if err != nil {
		st.Error = "cluster info: " + err.Error()
		return st
	}
	theirs := tablesOf(info, nil, false)
	list, err := ask(ctx, client, remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, route.DecodeTopicList)
	var refused refusal
	switch {
	case err == nil:
		theirs = tablesOf(info, list.TopicList, true)
		st.Topics = len(theirs.topics)
	case asRefusal(err, &refused):
		// Up, but it does not list its topics (enableAllTopicList=false):
		// only the brokers are compared.
	default:
		st.Error = "topic list: " + err.Error()
		return st
	}
	st.Up = true
	st.Brokers, st.BrokerNames = len(theirs.brokers), theirs.names
	st.diffs = differences(ours, theirs)
	return st
}

// refusal is an answer that is not SUCCESS.
type refusal struct {
	code   int32
	remark string
}

func (r refusal) Error() string { return fmt.Sprintf("refused with code %d: %s", r.code, r.remark) }

func asRefusal(err error, into *refusal) bool {
	r, ok := err.(refusal)
	if ok {
		*into = r
	}
	return ok
}

// ask sends one request without header fields and decodes the answer.
func ask[T any](ctx context.Context, c *remoting.Client, code int32, decode func([]byte) (*T, error)) (*T, error) {
	resp, err := c.Invoke(ctx, remoting.NewRequest(code, nil, nil))
	if err != nil {
		return nil, err
	}
	if resp.Code != remoting.SUCCESS {
		return nil, refusal{resp.Code, resp.Remark}
	}
	v, err := decode(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("decode the answer: %w", err)
	}
	return v, nil
}

// differences is every item theirs differs from ours by.
func differences(ours, theirs tables) []difference {
	var out []difference
	add := func(kind string, names []string) {
		for _, name := range names {
			out = append(out, difference{kind, name})
		}
	}
	onlyOurs, onlyTheirs := setDifference(ours.brokers, theirs.brokers)
	add(differenceKinds[0], onlyOurs)
	add(differenceKinds[1], onlyTheirs)
	if theirs.listed {
		onlyOurs, onlyTheirs = setDifference(ours.topics, theirs.topics)
		add(differenceKinds[2], onlyOurs)
		add(differenceKinds[3], onlyTheirs)
	}
	return out
}

// setDifference returns what only a and only b hold; both are sorted.
func setDifference(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = append(onlyA, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return onlyA, onlyB
}

// joinFirst quotes the first maxExamples names.
func joinFirst(names []string) string {
	s := ""
	for i, n := range names[:min(len(names), maxExamples)] {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	if len(names) > maxExamples {
		s += ", …"
	}
	return s
}
