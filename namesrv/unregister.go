package namesrv

import (
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

// unregisterWorker applies broker departures off the event loop, in batches,
// like Java's BatchUnregistrationService: UNREGISTER_BROKER requests (a bounded
// queue, unRegisterBrokerQueueCapacity) and closed connections (bounded by the
// number of open connections, so never dropped).
type unregisterWorker struct {
	routes   *route.Manager
	notifier *notifier
	brokers  *brokerConns
	log      *logrus.Entry
	capacity int

	mu       sync.Mutex
	requests []route.UnregisterRequest
	closed   []closedConn
	wake     chan struct{} // capacity 1: "there is work"
	done     chan struct{}
	stopped  chan struct{}

	// oldest is when the oldest waiting entry arrived (zero: none), for
	// the queue-age metric; guarded by mu.
	oldest  time.Time
	metrics *metrics.Metrics // nil in tests that build a worker alone
}

type closedConn struct {
	id   route.ConnID
	peer string
}

func newUnregisterWorker(routes *route.Manager, capacity int, n *notifier, brokers *brokerConns, log *logrus.Entry) *unregisterWorker {
	if capacity <= 0 {
		capacity = 3000
	}
	return &unregisterWorker{
		routes: routes, notifier: n, brokers: brokers, log: log, capacity: capacity,
		wake: make(chan struct{}, 1), done: make(chan struct{}), stopped: make(chan struct{}),
	}
}

// submit queues an UNREGISTER_BROKER request; false when the queue is full.
func (w *unregisterWorker) submit(req route.UnregisterRequest) bool {
	w.mu.Lock()
	if len(w.requests) >= w.capacity {
		w.mu.Unlock()
		return false
	}
	w.noteArrival()
	w.requests = append(w.requests, req)
	w.mu.Unlock()
	w.signal()
	return true
}

// connectionClosed records a closed connection; it never blocks.
func (w *unregisterWorker) connectionClosed(id route.ConnID, peer string) {
	w.mu.Lock()
	w.noteArrival()
	w.closed = append(w.closed, closedConn{id: id, peer: peer})
	w.mu.Unlock()
	w.signal()
}

func (w *unregisterWorker) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *unregisterWorker) start() { go w.run() }

// stop applies what is queued, then ends the worker.
func (w *unregisterWorker) stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	<-w.stopped
}

func (w *unregisterWorker) run() {
	defer close(w.stopped)
	for {
		select {
		case <-w.wake:
			w.applyPending()
		case <-w.done:
			w.applyPending()
			return
		}
	}
}

// applyPending takes everything queued at this moment and applies it as one batch.
func (w *unregisterWorker) applyPending() {
	w.mu.Lock()
	requests, closed := w.requests, w.closed
	w.requests, w.closed, w.oldest = nil, nil, time.Time{}
	w.mu.Unlock()
	w.counted(metrics.CauseRequest, len(requests)) // applied below

	if len(closed) > 0 {
		// One write for every close of the batch: a cluster that drops at
		// once costs one copy of the tables, not one per broker.
		ids := make([]route.ConnID, len(closed))
		peers := make(map[route.ConnID]string, len(closed))
		for i, c := range closed {
			ids[i], peers[c.id] = c.id, c.peer
		}
		removed := w.routes.ConnectionsClosed(ids)
		for _, b := range removed {
			w.log.WithFields(logrus.Fields{"cluster": b.ClusterName, "brokerName": b.BrokerName,
				"brokerAddr": b.BrokerAddr, "peer": peers[b.Conn]}).Info("broker connection closed, broker removed")
		}
		w.notifier.sendRemoved(removed)
		w.counted(metrics.CauseConnClose, len(removed))
	}
	if len(requests) > 0 {
		// The route manager logs each request once: "broker unregistered",
		// or "stale unregister ignored" when the broker registered again.
		w.notifier.send(w.routes.UnregisterBrokers(requests))
	}
}
