package faults

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Pacing of the rolling-restart case.
const (
	// rollingHeartbeatPeriod and rollingHeartbeatTimeout are the brokers'
	// (Java's defaults are 1 s and 10 s; faster here so a restarted node
	// hears every broker soon).
	rollingHeartbeatPeriod  = 300 * time.Millisecond
	rollingHeartbeatTimeout = 10_000
	// rollingProbeEvery is how often every node's 1005 is asked whether it
	// serves, to measure the windows without a serving leader.
	rollingProbeEvery = 5 * time.Millisecond
	// rollingRequestTimeout is how long a client's request may take, every
	// node asked in turn; rollingCyclePause is its pause after a round of
	// every node without an answer (none knew a leader).
	rollingRequestTimeout = 3 * time.Second
	rollingCyclePause     = 20 * time.Millisecond
	// rollingWindowBound fails the case: a window this long is an election
	// timeout waited, not a transfer (the target is 500 ms, reported).
	rollingWindowBound = 5 * time.Second
)

// TestControllerRollingRestartWithTransfers is issue 38 item 3's target: a
// 3-node group restarted one node at a time (SIGTERM, down, start again),
// the leader's turn last and preceded by a leadership transfer (5021) to a
// node that has been up for a while, under broker heartbeats and a client
// asking the leader throughout. No broker set is elected again (epochs
// unchanged), every request is answered (a 2007 naming the leader counts),
// and each transfer's window without a serving leader is measured by
// probing every node's 1005. The short form is one round with 0.5 s down;
// FAULTS_FULL three rounds with 3 s down.
func TestControllerRollingRestartWithTransfers(t *testing.T) {
	r := record(t, 95, "controller rolling restart with leadership transfers",
		"3-node cmd/controller group, two broker sets of two (ctltest brokers, heartbeats every 300 ms to every node); each node in turn SIGTERM'd, left down, started again and given three heartbeat rounds; before the leader's turn a transfer (5021) to the follower restarted first; a client asks 1004/1006 of the leader it knows throughout, and every node's 1005 is probed every 5 ms")
	rounds, down := 1, 500*time.Millisecond
	if full() {
		rounds, down = 3, 3*time.Second
	}
	procs, addrs := startControllers(t)
	controllerLeader(t, addrs, -1, 20*time.Second)
	sets := []string{"set-roll-a", "set-roll-b"}
	var brokers []*ctltest.Broker
	for _, name := range sets {
		b1 := ctltest.NewBroker(t, "cluster-roll", name, addrs)
		b2 := ctltest.NewBroker(t, "cluster-roll", name, addrs)
		b1.Register(t)
		b2.Register(t)
		brokers = append(brokers, b1, b2)
	}
	var heartbeatRounds atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		repeat(stop, rollingHeartbeatPeriod, func() {
			for _, b := range brokers {
				b.Heartbeat(t, 1, 0, rollingHeartbeatTimeout)
			}
			heartbeatRounds.Add(1)
		})
	}()
	for i := range sets { // WaitAlive asks of its first broker's set only
		ctltest.WaitAlive(t, brokers[2*i:2*i+2]...)
	}
	epochs := map[string]string{}
	for i, name := range sets {
		ctltest.MustCode(t, brokers[2*i].Elect(t), 0)
		ctltest.MustCode(t, brokers[2*i].Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: name,
			MasterBrokerID: brokers[2*i].ID, MasterEpoch: 1}, (&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 1}).Encode()), 0)
		epochs[name] = setEpochs(t, brokers[2*i])
	}

	probe := newServingProbe(addrs)
	wg.Add(2)
	go func() { defer wg.Done(); probe.run(stop) }()
	asker := newRollingAsker(addrs, sets)
	go func() { defer wg.Done(); asker.run(stop) }()
	defer func() { close(stop); wg.Wait(); asker.close(); probe.close() }()

	// settle waits until node i names a leader and the brokers have sent
	// three heartbeat rounds since it started.
	settle := func(i int) {
		from := heartbeatRounds.Load()
		if _, ok := waitFor(20*time.Second, 20*time.Millisecond, func() bool {
			md, err := probe.metadata(i)
			return err == nil && md.ControllerLeaderAddress != "" && heartbeatRounds.Load() >= from+3
		}); !ok {
			t.Fatalf("n%d names no leader within 20 s of its restart", i)
		}
	}
	restart := func(i int) {
		if !procs[i].stop(15 * time.Second) {
			t.Errorf("n%d did not exit within 15 s of SIGTERM", i)
		}
		time.Sleep(down)
		procs[i].start()
		settle(i)
	}
	var windows []time.Duration
	for round := range rounds {
		leader := controllerLeader(t, addrs, -1, 20*time.Second)
		followers := []int{(leader + 1) % 3, (leader + 2) % 3}
		for _, f := range followers {
			restart(f)
		}
		started := time.Now()
		res := transferTo(t, addrs[leader], fmt.Sprintf("n%d", followers[0]))
		ended := time.Now()
		window := probe.gap(started, ended)
		windows = append(windows, window)
		r.observe(t, "round %d: transfer n%d -> %s answered in %s; no node served for %s (the old leader measured %d ms)",
			round+1, leader, res.NewLeaderID, ms(ended.Sub(started)), ms(window), res.WindowMillis)
		if window > rollingWindowBound {
			t.Errorf("round %d: %s without a serving leader around the transfer (bound %s)", round+1, window, rollingWindowBound)
		}
		restart(leader)
	}
	controllerLeader(t, addrs, -1, 20*time.Second)
	for i, name := range sets {
		if got := setEpochs(t, brokers[2*i]); got != epochs[name] {
			t.Errorf("%s was elected again during the rolling restart: %s, before %s", name, got, epochs[name])
		}
	}
	answered, unanswered, notLeader, unnamed, emptyRounds, stopping, sample := asker.counts()
	r.figure(t, "controller requests during the rolling restart", fmt.Sprintf("%d answered (%d of them 2007 naming the leader), %d unanswered; %d 2007s naming no leader and %d answers of a stopping node (SYSTEM_BUSY, the connection closed mid-request) passed on to the next node, %d rounds of every node without an answer",
		answered, notLeader, unanswered, unnamed, stopping, emptyRounds))
	if unanswered > 0 || answered == 0 {
		t.Errorf("%d controller requests unanswered (of %d), e.g. %s", unanswered, answered+unanswered, sample)
	}
	// The asker has one request out at a time and passes a stopping node's
	// answer to the next node, so a stop meets it once or, after a round of
	// nodes knowing no leader, twice; more means a node answered so while
	// it was not stopping.
	if stops := 3 * rounds; stopping > 2*stops {
		t.Errorf("%d answers of a stopping node over %d node stops (at most two each)", stopping, stops)
	}
	slices.Sort(windows)
	r.figure(t, "window without a serving leader per transfer (5 ms probes)", fmt.Sprintf("median %s, worst %s over %d transfers (target under 500 ms)",
		ms(windows[len(windows)/2]), ms(windows[len(windows)-1]), len(windows)))
	r.figure(t, "longest window without a serving leader over the whole run", ms(probe.gap(time.Time{}, time.Now())))
	r.observe(t, "broker sets' master and epochs unchanged: %v", epochs)
}

// setEpochs is a set's master id, master epoch and in-sync epoch as text.
func setEpochs(t *testing.T, b *ctltest.Broker) string {
	t.Helper()
	h, sss := b.ReplicaInfo(t)
	return fmt.Sprintf("master %s epoch %d sss %v epoch %d", ctltest.Int64(h.MasterBrokerID), *h.MasterEpoch, sss.SyncStateSet, sss.SyncStateSetEpoch)
}

// transferTo sends 5021 to the leader at addr naming target.
func transferTo(t *testing.T, addr, target string) wire.TransferLeaderResponse {
	t.Helper()
	c := remoting.NewClient(addr, remoting.ClientConfig{RequestTimeout: 15 * time.Second, Logger: testlog.Discard()})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	resp, err := c.Invoke(ctx, remoting.NewRequest(wire.CodeTransferControllerLeader,
		remoting.EncodeHeader(&wire.TransferLeaderRequest{TargetID: target}), nil))
	if err != nil {
		t.Fatalf("transfer to %s: %v", target, err)
	}
	ctltest.MustCode(t, resp, 0)
	var res wire.TransferLeaderResponse
	if err := remoting.DecodeHeader(resp, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// servingProbe asks every node's 1005 in turn, every rollingProbeEvery,
// and keeps the spans in which none said isLeader.
type servingProbe struct {
	addrs   []string
	clients []*remoting.Client
	mu      sync.Mutex
	gaps    [][2]time.Time // closed spans without a serving node
	since   time.Time      // start of the open span; zero while one serves
}

func newServingProbe(addrs []string) *servingProbe {
	p := &servingProbe{addrs: addrs}
	for _, a := range addrs {
		p.clients = append(p.clients, remoting.NewClient(a, remoting.ClientConfig{DialTimeout: 100 * time.Millisecond,
			RequestTimeout: 200 * time.Millisecond, Logger: testlog.Discard()}))
	}
	return p
}

func (p *servingProbe) close() {
	for _, c := range p.clients {
		_ = c.Close()
	}
}

func (p *servingProbe) metadata(i int) (*wire.GetMetaDataResponse, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	resp, err := p.clients[i].Invoke(ctx, remoting.NewRequest(wire.CodeGetMetadataInfo, nil, nil))
	if err != nil {
		return nil, err
	}
	var md wire.GetMetaDataResponse
	return &md, remoting.DecodeHeader(resp, &md)
}

func (p *servingProbe) run(stop <-chan struct{}) {
	repeat(stop, rollingProbeEvery, func() {
		serving := false
		for i := range p.addrs {
			if md, err := p.metadata(i); err == nil && md.IsLeader {
				serving = true
				break
			}
		}
		now := time.Now()
		p.mu.Lock()
		defer p.mu.Unlock()
		switch {
		case !serving && p.since.IsZero():
			p.since = now
		case serving && !p.since.IsZero():
			p.gaps = append(p.gaps, [2]time.Time{p.since, now})
			p.since = time.Time{}
		}
	})
}

// gap is the longest span without a serving node that overlaps [from, to].
func (p *servingProbe) gap(from, to time.Time) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	spans := slices.Clone(p.gaps)
	if !p.since.IsZero() {
		spans = append(spans, [2]time.Time{p.since, time.Now()})
	}
	var longest time.Duration
	for _, s := range spans {
		if s[1].Before(from) || s[0].After(to) {
			continue
		}
		longest = max(longest, s[1].Sub(s[0]))
	}
	return longest
}

// rollingAsker asks the leader it knows 1004 and 1006 of the sets in turn.
// A request is answered when a node answers it with its result or with a
// 2007 naming the leader within rollingRequestTimeout. A node that refuses
// the connection (stopped), answers SYSTEM_BUSY or closes the connection
// before answering (stopping: the request raced its closing intake or
// connections; both codes only read, so a client asks again, as net/http
// does an idempotent request and RocketMQ's clients a busy answer) or
// answers 2007 naming no leader (just started, or an election running) is
// passed for the next one (counted), and when no node answered otherwise,
// asked again after a pause. A request is unanswered when none answered in
// time, or one answered otherwise (an error, a timeout).
type rollingAsker struct {
	addrs   []string
	sets    []string
	clients map[string]*remoting.Client
	guess   string

	mu                              sync.Mutex
	answered, unanswered, notLeader int
	unnamed                         int // 2007s naming no leader, passed on
	rounds                          int // rounds of every node with no answer, paused after
	stopping                        int // a stopping node's answers (busy, closed), passed on
	sample                          string
}

func newRollingAsker(addrs, sets []string) *rollingAsker {
	a := &rollingAsker{addrs: addrs, sets: sets, clients: map[string]*remoting.Client{}, guess: addrs[0]}
	for _, addr := range addrs {
		a.clients[addr] = remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: 200 * time.Millisecond,
			RequestTimeout: 3 * time.Second, Logger: testlog.Discard()})
	}
	return a
}

func (a *rollingAsker) close() {
	for _, c := range a.clients {
		_ = c.Close()
	}
}

func (a *rollingAsker) run(stop <-chan struct{}) {
	n := 0
	repeat(stop, 20*time.Millisecond, func() {
		n++
		set := a.sets[n%len(a.sets)]
		req := func() *remoting.Command {
			if n%2 == 0 {
				return remoting.NewRequest(wire.CodeGetReplicaInfo, remoting.EncodeHeader(&wire.GetReplicaInfoRequest{BrokerName: set}), nil)
			}
			names, _ := json.Marshal([]string{set})
			return remoting.NewRequest(wire.CodeGetSyncStateData, nil, names)
		}
		ok, notLeader, why := a.ask(req)
		a.mu.Lock()
		defer a.mu.Unlock()
		switch {
		case ok:
			a.answered++
			if notLeader {
				a.notLeader++
			}
		default:
			a.unanswered++
			if a.sample == "" {
				a.sample = why
			}
		}
	})
}

// ask sends one request, to the known leader first and on a refused
// connection, a stopping node's answer or a 2007 naming nobody to the next
// node; after a round of
// every node with neither, it pauses rollingCyclePause and goes round again,
// until rollingRequestTimeout (a client's request timeout) has passed.
func (a *rollingAsker) ask(req func() *remoting.Command) (ok, notLeader bool, why string) {
	deadline := time.Now().Add(rollingRequestTimeout)
	var errs []string
	for tries := 1; ; tries++ {
		ctx, cancel := context.WithDeadline(context.Background(), deadline)
		resp, err := a.clients[a.guess].Invoke(ctx, req())
		cancel()
		switch {
		case errors.Is(err, remoting.ErrConnectionClosed) || (err == nil && resp.Code == remoting.SYSTEM_BUSY):
			// A stopping node: its intake closed (Java's executor
			// answers a rejected request SYSTEM_BUSY, which clients
			// retry), then its connections.
			errs = append(errs, fmt.Sprintf("a stopping %s: %v", a.guess, describe(resp, err)))
			a.mu.Lock()
			a.stopping++
			a.mu.Unlock()
		case err != nil && !strings.Contains(err.Error(), "connection refused"):
			return false, false, strings.Join(append(errs, err.Error()), "; ")
		case err != nil:
			errs = append(errs, err.Error())
		case resp.Code == controller.CodeNotLeader:
			if next, named := resp.Ext(wire.LeaderAddressExt); named && next != "" {
				a.guess = next
				return true, true, ""
			}
			// A node just started (or stopping) knows no leader: as a
			// broker would, ask the next one.
			errs = append(errs, "2007 naming no leader from "+a.guess)
			a.mu.Lock()
			a.unnamed++
			a.mu.Unlock()
		case resp.Code != remoting.SUCCESS:
			return false, false, fmt.Sprintf("%d %q from %s", resp.Code, resp.Remark, a.guess)
		default:
			return true, false, ""
		}
		a.guess = a.addrs[(slices.Index(a.addrs, a.guess)+1)%len(a.addrs)]
		if tries%len(a.addrs) == 0 {
			a.mu.Lock()
			a.rounds++
			a.mu.Unlock()
			if time.Now().Add(rollingCyclePause).After(deadline) {
				return false, false, "no node answered within " + rollingRequestTimeout.String() + ": " + strings.Join(errs, "; ")
			}
			time.Sleep(rollingCyclePause)
		}
	}
}

// counts is what the asker saw: answered (of them 2007 naming the leader),
// unanswered, the 2007s naming no leader, the rounds of every node without
// an answer, the requests a closing connection cut off, and the first
// unanswered one's reason.
func (a *rollingAsker) counts() (answered, unanswered, notLeader, unnamed, rounds, stopping int, sample string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.answered, a.unanswered, a.notLeader, a.unnamed, a.rounds, a.stopping, a.sample
}

// describe is an answer or the error in its place, for a failure's sample.
func describe(resp *remoting.Command, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%d %q", resp.Code, resp.Remark)
}
