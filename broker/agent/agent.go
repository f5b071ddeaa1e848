package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/route"
)

// maxPendingTopics bounds the topics waiting for an incremental registration;
// beyond it the agent sends one full registration instead.
const maxPendingTopics = 1024

// TopicSource is the topic table the agent registers (a topicconfig.Store).
type TopicSource interface {
	Wrapper() route.TopicConfigSerializeWrapper
	DataVersion() route.DataVersion
}

// Agent registers one broker with its NameServers. It owns one goroutine,
// started by Start and ended by Stop.
type Agent struct {
	cfg      Config
	topics   TopicSource
	pool     *pool
	onResult func(Result)          // called with the first successful answer of each round
	role     atomic.Pointer[Role]  // set in controller mode: overrides BrokerID and StateVersion
	perm     atomic.Pointer[int32] // set by SetBrokerPermission: overrides cfg.BrokerPermission
	log      *logrus.Entry

	wake chan struct{} // capacity 1: coalesces requests for an early round

	pendingMu   sync.Mutex
	pending     map[string]route.TopicConfig // topics changed since the last incremental registration
	fullPending bool                         // a full registration was asked for

	ctx       context.Context // cancelled by Stop: bounds every round in flight
	cancel    context.CancelFunc
	stop      chan struct{}
	done      chan struct{}
	startOnce sync.Once
	stopOnce  sync.Once
}

// New returns an agent for cfg. dial opens NameServer clients; onResult, if
// not nil, receives the first successful answer of every registration (the
// broker uses it to learn its master and the order topics).
func New(cfg Config, topics TopicSource, dial Dialer, onResult func(Result), log *logrus.Entry) *Agent {
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Agent{
		ctx:      ctx,
		cancel:   cancel,
		cfg:      cfg,
		topics:   topics,
		pool:     newPool(dial, cfg.NameServers),
		onResult: onResult,
		log:      log.WithFields(logrus.Fields{"brokerName": cfg.BrokerName, "brokerId": cfg.BrokerID, "brokerAddr": cfg.BrokerAddr}),
		wake:     make(chan struct{}, 1),
		pending:  make(map[string]route.TopicConfig),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
}

// NameServers returns the current NameServer list.
func (a *Agent) NameServers() []string { return a.pool.list() }

// SetNameServers replaces the NameServer list without a restart and registers
// with the new list at once.
func (a *Agent) SetNameServers(addrs []string) {
	a.pool.set(addrs)
	a.log.WithField("nameServers", addrs).Info("name server list changed")
	a.TriggerRegister()
}

// TriggerRegister asks for a forced full registration as soon as possible; it
// never blocks, and several requests before the round runs make one round.
func (a *Agent) TriggerRegister() {
	a.pendingMu.Lock()
	a.fullPending = true
	a.pendingMu.Unlock()
	a.signal()
}

// TopicsChanged queues an incremental registration of the given topics
// (after an admin create or update); it never blocks.
func (a *Agent) TopicsChanged(configs ...route.TopicConfig) {
	a.pendingMu.Lock()
	for _, tc := range configs {
		a.pending[tc.TopicName] = tc
	}
	if len(a.pending) > maxPendingTopics {
		clear(a.pending)
		a.fullPending = true
	}
	a.pendingMu.Unlock()
	a.signal()
}

func (a *Agent) signal() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// Start registers at once (forced) and then keeps registering on the period.
func (a *Agent) Start() {
	a.startOnce.Do(func() {
		a.TriggerRegister()
		go a.run()
	})
}

func (a *Agent) run() {
	defer close(a.done)
	periodic := time.NewTimer(a.cfg.FirstRegisterDelay)
	defer periodic.Stop()
	var heartbeat <-chan time.Time
	if a.cfg.EnableActingMaster && a.cfg.HeartbeatInterval > 0 {
		ticker := time.NewTicker(a.cfg.HeartbeatInterval)
		defer ticker.Stop()
		heartbeat = ticker.C
	}
	for {
		select {
		case <-a.stop:
			return
		case <-a.wake:
			a.runPending()
		case <-periodic.C:
			a.runRound(a.cfg.ForceRegister)
			periodic.Reset(a.cfg.RegisterPeriod)
		case <-heartbeat:
			a.SendHeartbeats(a.ctx)
		}
	}
}

// runPending runs what TriggerRegister and TopicsChanged asked for.
func (a *Agent) runPending() {
	a.pendingMu.Lock()
	full := a.fullPending
	topics := make([]route.TopicConfig, 0, len(a.pending))
	for _, tc := range a.pending {
		topics = append(topics, tc)
	}
	clear(a.pending)
	a.fullPending = false
	a.pendingMu.Unlock()
	if full {
		a.runRound(true)
		return
	}
	if len(topics) > 0 {
		if _, err := a.RegisterTopics(a.ctx, topics); err != nil {
			a.log.WithError(err).Warn("incremental registration incomplete")
		}
	}
}

func (a *Agent) runRound(force bool) {
	results, err := a.RegisterAll(a.ctx, force)
	if err != nil {
		a.log.WithError(err).Warn("registration round incomplete; failed name servers are retried next period")
		return
	}
	a.log.WithField("answers", len(results)).Debug("registration round done")
}

// SendHeartbeats sends one heartbeat to every NameServer, one-way, in parallel
// (acting-master mode, protocol.md 7.6).
func (a *Agent) SendHeartbeats(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, a.cfg.HeartbeatInterval)
	defer cancel()
	version := a.withStateVersion(a.topics.DataVersion())
	var wg sync.WaitGroup
	for _, addr := range a.pool.list() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := brokerHeartbeatRequest(a.identity())
			if a.cfg.CompatibleWithOldNameSrv {
				req = queryDataVersionRequest(a.identity(), version)
			}
			if err := a.pool.oneway(ctx, addr, req); err != nil {
				a.log.WithError(err).WithField("nameServer", addr).Debug("heartbeat failed")
			}
		}()
	}
	wg.Wait()
}

// Stop ends the periodic work, then unregisters from every configured
// NameServer one after another (3 s each by default) and closes the clients.
// The returned error lists the NameServers that could not be told.
func (a *Agent) Stop(ctx context.Context) error {
	var err error
	a.stopOnce.Do(func() {
		close(a.stop)
		a.cancel()
		a.startOnce.Do(func() { close(a.done) }) // never started: nothing to wait for
		select {
		case <-a.done:
		case <-ctx.Done():
		}
		err = errors.Join(a.unregisterAll(ctx), a.pool.close())
	})
	return err
}

func (a *Agent) unregisterAll(ctx context.Context) error {
	var errs []error
	for _, addr := range a.pool.list() {
		callCtx, cancel := context.WithTimeout(ctx, a.cfg.UnregisterTimeout)
		resp, err := a.pool.invoke(callCtx, addr, unregisterBrokerRequest(a.identity()))
		cancel()
		if err == nil && resp.Code != 0 {
			err = fmt.Errorf("%w: %s answered code %d (%s)", ErrAgentRefused, addr, resp.Code, resp.Remark)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("unregister %s from %s: %w", a.cfg.BrokerAddr, addr, err))
			continue
		}
		a.log.WithField("nameServer", addr).Info("unregistered")
	}
	return errors.Join(errs...)
}
