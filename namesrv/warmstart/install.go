package warmstart

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/route"
)

// Start is one warm start.
type Start struct {
	Dialer
	Peers  []string
	Routes *route.Manager
	// Deadline is when everything borrowed goes at the latest (the
	// server's start plus brokerChannelExpiredTime), Now the eviction
	// clock's time, both read from that clock.
	Deadline time.Time
	Now      func() time.Time
	// Timeout bounds the whole warm start (peerWarmStartTimeoutMillis).
	Timeout time.Duration
}

// Result says what a warm start took.
type Result struct {
	// Answered are the peers whose whole state was installed.
	Answered []string
	Counts   route.BorrowedCounts
	Took     time.Duration
}

// Run asks every peer at once and installs what each answers, as it
// arrives. It returns once one peer's whole state is in (the others go on
// in the background, within Timeout, and add what they have that it did
// not), once every peer has answered or failed, or once Timeout has passed.
func (s Start) Run(ctx context.Context) Result {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	var (
		mu   sync.Mutex
		res  Result
		wg   sync.WaitGroup
		done = make(chan bool, len(s.Peers))
	)
	for _, addr := range s.Peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in := newInstaller(s.Routes, route.Borrowing{Source: addr, Deadline: s.Deadline, Now: s.Now()})
			err := s.Fetch(ctx, addr, in)
			in.finish()
			mu.Lock()
			res.Counts.Brokers += in.counts.Brokers
			res.Counts.Elections += in.counts.Elections
			res.Counts.Topics += in.counts.Topics
			res.Counts.QueueDatas += in.counts.QueueDatas
			if err == nil {
				res.Answered = append(res.Answered, addr)
			}
			mu.Unlock()
			if err != nil {
				s.log().WithError(err).WithField("peer", addr).Warn("warm start: the peer's route state is not (all) in")
			}
			done <- err == nil
		}()
	}
	go func() {
		wg.Wait()
		cancel()
	}()
wait:
	for range s.Peers {
		select {
		case ok := <-done:
			if ok {
				break wait
			}
		case <-ctx.Done():
			break wait
		}
	}
	mu.Lock()
	defer mu.Unlock()
	out := res
	out.Answered = slices.Clone(res.Answered)
	out.Took = time.Since(began)
	return out
}

func (d Dialer) log() *logrus.Entry {
	if d.Log == nil {
		return logrus.NewEntry(logrus.StandardLogger())
	}
	return d.Log
}

// installer installs a peer's answer as borrowed entries as it arrives:
// the brokers at once, each page of topics on a goroutine of its own while
// the next page is asked for. A page is one transaction of the route
// tables; the pages come in the order of the topic table's shards, so each
// copies only the shards it fills.
type installer struct {
	routes    *route.Manager
	borrowing route.Borrowing
	counts    route.BorrowedCounts
	pages     chan route.PeerTopicPage
	installed chan route.BorrowedCounts
}

// pagesAhead is how many pages may wait to be installed while the next is
// fetched: each is at most about PageBytes.
const pagesAhead = 2

func newInstaller(routes *route.Manager, b route.Borrowing) *installer {
	in := &installer{routes: routes, borrowing: b, pages: make(chan route.PeerTopicPage, pagesAhead),
		installed: make(chan route.BorrowedCounts, 1)}
	go func() {
		var c route.BorrowedCounts
		for page := range in.pages {
			got := routes.InstallBorrowedTopics(page)
			c.Topics += got.Topics
			c.QueueDatas += got.QueueDatas
		}
		in.installed <- c
	}()
	return in
}

func (in *installer) Brokers(brokers []route.PeerBroker, elections []route.PeerElection) {
	in.counts = in.routes.InstallBorrowedBrokers(in.borrowing, brokers, elections)
}

func (in *installer) Topics(page route.PeerTopicPage) {
	in.pages <- page
}

// finish waits until every page that arrived is installed.
func (in *installer) finish() {
	close(in.pages)
	c := <-in.installed
	in.counts.Topics += c.Topics
	in.counts.QueueDatas += c.QueueDatas
}

// holdings is a peer's state as a re-poll needs it: which broker addresses
// it has, and which broker names route each topic.
type holdings struct {
	addrs  map[[2]string]struct{}
	routes map[string][]string // topic -> broker names
}

func (h *holdings) Brokers(brokers []route.PeerBroker, _ []route.PeerElection) {
	h.addrs = make(map[[2]string]struct{}, len(brokers))
	for _, b := range brokers {
		h.addrs[[2]string{b.Cluster, b.Addr}] = struct{}{}
	}
}

func (h *holdings) Topics(page route.PeerTopicPage) {
	if h.routes == nil {
		h.routes = map[string][]string{}
	}
	sets := make([][]string, len(page.Sets))
	for i, set := range page.Sets {
		for _, qd := range set {
			sets[i] = append(sets[i], qd.BrokerName)
		}
	}
	for i, topic := range page.Topics {
		if i < len(page.SetOf) && page.SetOf[i] >= 0 && page.SetOf[i] < len(sets) {
			h.routes[topic] = sets[page.SetOf[i]]
		}
	}
}

func (h *holdings) has(cluster, addr string) bool {
	_, ok := h.addrs[[2]string{cluster, addr}]
	return ok
}

func (h *holdings) routesThrough(topic, brokerName string) bool {
	for _, name := range h.routes[topic] {
		if name == brokerName {
			return true
		}
	}
	return false
}

// Keeper asks the peers borrowed entries came from again every Interval,
// and drops what they no longer have, until nothing is borrowed or Stop.
type Keeper struct {
	dialer        Dialer
	routes        *route.Manager
	interval      time.Duration
	done, stopped chan struct{}
}

// StartKeeper starts the re-polls; interval 0 is RepollInterval.
func StartKeeper(d Dialer, routes *route.Manager, interval time.Duration) *Keeper {
	if interval <= 0 {
		interval = RepollInterval
	}
	k := &Keeper{dialer: d, routes: routes, interval: interval, done: make(chan struct{}), stopped: make(chan struct{})}
	go k.run()
	return k
}

func (k *Keeper) run() {
	defer close(k.stopped)
	ticker := time.NewTicker(k.interval)
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C:
		case <-k.done:
			return
		}
		sources := k.routes.BorrowedSources()
		if len(sources) == 0 {
			k.dialer.log().Info("warm start: nothing borrowed is left; the peers are no longer asked")
			return
		}
		for source := range sources {
			k.repoll(source)
		}
	}
}

// repoll asks source for its state and drops what it no longer has; a peer
// that does not answer all of it drops nothing (its entries still go at
// their deadlines).
func (k *Keeper) repoll(source string) {
	ctx, cancel := context.WithTimeout(context.Background(), RepollTimeout)
	defer cancel()
	go func() {
		select {
		case <-k.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	var h holdings
	if err := k.dialer.Fetch(ctx, source, &h); err != nil {
		k.dialer.log().WithError(err).WithField("peer", source).Debug("warm start: re-poll failed; the borrowed entries stay until their deadline")
		return
	}
	removed := k.routes.DropBorrowed(source, h.has, h.routesThrough)
	if len(removed) > 0 {
		k.dialer.log().WithFields(logrus.Fields{"peer": source, "brokers": len(removed)}).
			Info("warm start: borrowed brokers the peer no longer has dropped")
	}
}

// Stop ends the re-polls and waits for one in progress.
func (k *Keeper) Stop() {
	select {
	case <-k.done:
	default:
		close(k.done)
	}
	<-k.stopped
}
