package namesrv

import (
	"context"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// notifySendTimeout bounds each NOTIFY_MIN_BROKER_ID_CHANGE send, dial
// included, as Java's 300 ms.
const notifySendTimeout = 300 * time.Millisecond

// notifyQueueSize bounds the notifications waiting to be sent; beyond it they
// are dropped with a log line (brokers learn the same from their next
// registration answer).
const notifyQueueSize = 1024

// notifySenders bounds the sends in flight at once. Each recipient is its own
// send, so a group whose members name unreachable addresses costs at most
// this many slots for 300 ms each, and live brokers are not queued behind
// them one by one.
const notifySenders = 16

// notifyBudget is how long after its change a notification may still be
// sent; a recipient not reached by then is dropped (and counted in the log
// line), so a backlog of dead addresses never grows the delay of the next
// change.
const notifyBudget = 3 * time.Second

// notifyFailureBackoff is how long an address whose send failed is skipped:
// 40 members naming unreachable addresses cost 40 failed dials, not one per
// notification each, and live brokers are not kept waiting behind them.
const notifyFailureBackoff = 5 * time.Second

// maxFailedAddrs bounds the addresses remembered as failing; past it the
// oldest half is forgotten.
const maxFailedAddrs = 4096

// pendingNotify is a change waiting to be sent, with the time it was queued.
type pendingNotify struct {
	change route.MinBrokerIDChange
	queued time.Time
}

// notifier sends NOTIFY_MIN_BROKER_ID_CHANGE to brokers one-way, from its own
// goroutines, after the route tables were changed and unlocked (quirk Q26 fix).
type notifier struct {
	log *logrus.Entry
	// warnings rate-limits the per-change warnings: registrations (any
	// peer's) cause the changes.
	warnings ratelog.Set
	queue    chan pendingNotify
	slots    chan struct{} // notifySenders tokens
	// sends is canceled by closeWithin when its deadline passes: sends in
	// flight return at once and nothing more is sent.
	sends    context.Context
	cancel   context.CancelFunc
	inFlight sync.WaitGroup
	once     sync.Once
	stop     chan struct{} // closed by close(); the queue itself is never closed, so a late send cannot panic
	done     chan struct{}

	failedMu sync.Mutex
	failed   map[string]time.Time // address -> when its last send failed

	counts notifyCounts // recipients sent, failed, dropped, skipped (metrics)
}

func newNotifier(log *logrus.Entry) *notifier {
	n := newIdleNotifier(log, notifyQueueSize)
	go n.run()
	return n
}

// newIdleNotifier is a notifier whose sending goroutine is not started.
func newIdleNotifier(log *logrus.Entry, queueSize int) *notifier {
	sends, cancel := context.WithCancel(context.Background())
	return &notifier{log: log, queue: make(chan pendingNotify, queueSize), slots: make(chan struct{}, notifySenders),
		sends: sends, cancel: cancel, stop: make(chan struct{}), done: make(chan struct{})}
}

// send queues the events; it never blocks.
func (n *notifier) send(events []route.MinBrokerIDChange) {
	now := time.Now()
	for _, ev := range events {
		select {
		case n.queue <- pendingNotify{change: ev, queued: now}:
		default:
			n.counts.dropped.Add(uint64(len(ev.Recipients)))
			n.warnings.Warn(n.log, logrus.Fields{"brokerName": ev.BrokerName}, nil, "notify queue full, min broker id change not sent")
		}
	}
}

// sendRemoved queues the notifications that removing brokers (connection
// close, expiry) produced; it never blocks.
func (n *notifier) sendRemoved(removed []route.RemovedBroker) {
	for _, b := range removed {
		if b.MinBrokerIDChange != nil {
			n.send([]route.MinBrokerIDChange{*b.MinBrokerIDChange})
		}
	}
}

// close sends what is queued (each within notifyBudget of its change), then
// stops the sending goroutine. A send after close only queues (and is never
// sent): it cannot panic.
func (n *notifier) close() { n.closeWithin(context.Background()) }

// closeWithin is close bounded by ctx: when ctx ends first, the sends in
// flight are canceled and what is still queued is dropped.
func (n *notifier) closeWithin(ctx context.Context) {
	n.once.Do(func() { close(n.stop) })
	select {
	case <-n.done:
	case <-ctx.Done():
		n.cancel()
		<-n.done // sends return at once once canceled
	}
	n.cancel()
}

func (n *notifier) run() {
	defer close(n.done)
	defer n.inFlight.Wait()
	for {
		select {
		case p := <-n.queue:
			n.deliver(p)
		case <-n.stop:
			for {
				select {
				case p := <-n.queue:
					n.deliver(p)
				default:
					return
				}
			}
		}
	}
}

// deliver sends one notification to each of its recipients, each send in a
// slot of its own; recipients it cannot start within the budget are dropped.
func (n *notifier) deliver(p pendingNotify) {
	ev := p.change
	minID := ev.MinBrokerID
	header := remoting.EncodeHeader(&notifyMinBrokerIDChangeRequestHeader{
		MinBrokerID:       &minID,
		MinBrokerAddr:     ev.MinBrokerAddr,
		OfflineBrokerAddr: ev.OfflineBrokerAddr,
		HABrokerAddr:      ev.HABrokerAddr,
	})
	deadline := p.queued.Add(notifyBudget)
	dropped, skipped := 0, 0
	for i, addr := range ev.Recipients {
		if n.failedRecently(addr) {
			skipped++
			continue
		}
		if !n.acquireSlot(deadline) {
			dropped = len(ev.Recipients) - i
			break
		}
		n.inFlight.Add(1)
		go func() {
			defer n.inFlight.Done()
			defer func() { <-n.slots }()
			n.sendOne(addr, header, deadline)
		}()
	}
	n.counts.dropped.Add(uint64(dropped))
	n.counts.skipped.Add(uint64(skipped))
	if dropped+skipped > 0 {
		n.warnings.Warn(n.log, logrus.Fields{"brokerName": ev.BrokerName, "recipients": len(ev.Recipients),
			"dropped": dropped, "skippedFailing": skipped}, nil,
			"min broker id change not sent to every recipient (budget passed, or the address failed just before)")
	}
}

// failedRecently says whether a send to addr failed less than
// notifyFailureBackoff ago.
func (n *notifier) failedRecently(addr string) bool {
	n.failedMu.Lock()
	defer n.failedMu.Unlock()
	at, ok := n.failed[addr]
	return ok && time.Since(at) < notifyFailureBackoff
}

// noteFailure remembers that a send to addr failed (or, ok, forgets it).
func (n *notifier) noteFailure(addr string, ok bool) {
	n.failedMu.Lock()
	defer n.failedMu.Unlock()
	if ok {
		delete(n.failed, addr)
		return
	}
	if n.failed == nil {
		n.failed = map[string]time.Time{}
	}
	if len(n.failed) >= maxFailedAddrs {
		cutoff := time.Now().Add(-notifyFailureBackoff)
		for a, at := range n.failed {
			if at.Before(cutoff) || len(n.failed) >= maxFailedAddrs/2 {
				delete(n.failed, a)
			}
		}
	}
	n.failed[addr] = time.Now()
}

// acquireSlot waits for a send slot until deadline; false when the deadline
// passed or the notifier was canceled.
func (n *notifier) acquireSlot(deadline time.Time) bool {
	wait := time.Until(deadline)
	if wait <= 0 || n.sends.Err() != nil {
		return false
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case n.slots <- struct{}{}:
		return true
	case <-timer.C:
		return false
	case <-n.sends.Done():
		return false
	}
}

func (n *notifier) sendOne(addr string, header map[string]string, deadline time.Time) {
	ctx, cancel := context.WithTimeout(n.sends, notifySendTimeout)
	defer cancel()
	ctx, cancelBudget := context.WithDeadline(ctx, deadline)
	defer cancelBudget()
	client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: notifySendTimeout})
	defer client.Close()
	req := remoting.NewRequest(remoting.NOTIFY_MIN_BROKER_ID_CHANGE, header, nil)
	err := client.InvokeOneway(ctx, req)
	if err != nil && n.sends.Err() == nil {
		n.warnings.Warn(n.log, logrus.Fields{"brokerAddr": truncated(addr)}, err, "notify min broker id change")
	}
	n.noteFailure(addr, err == nil)
	n.counts.sendDone(err)
}
