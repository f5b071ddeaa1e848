package namesrv

import (
	"context"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// notifySendTimeout bounds each NOTIFY_MIN_BROKER_ID_CHANGE send, as Java's 300 ms.
const notifySendTimeout = 300 * time.Millisecond

// notifyQueueSize bounds the notifications waiting to be sent; beyond it they
// are dropped with a log line (brokers learn the same from their next
// registration answer).
const notifyQueueSize = 1024

// notifier sends NOTIFY_MIN_BROKER_ID_CHANGE to brokers one-way, from its own
// goroutine, after the route tables were changed and unlocked (quirk Q26 fix).
type notifier struct {
	log   *logrus.Entry
	queue chan route.MinBrokerIDChange
	once  sync.Once
	stop  chan struct{} // closed by close(); the queue itself is never closed, so a late send cannot panic
	done  chan struct{}
}

func newNotifier(log *logrus.Entry) *notifier {
	n := &notifier{log: log, queue: make(chan route.MinBrokerIDChange, notifyQueueSize),
		stop: make(chan struct{}), done: make(chan struct{})}
	go n.run()
	return n
}

// send queues the events; it never blocks.
func (n *notifier) send(events []route.MinBrokerIDChange) {
	for _, ev := range events {
		select {
		case n.queue <- ev:
		default:
			n.log.WithField("brokerName", ev.BrokerName).Warn("notify queue full, min broker id change not sent")
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

// close sends what is queued, then stops the sending goroutine. A send after
// close only queues (and is never sent): it cannot panic.
func (n *notifier) close() {
	n.once.Do(func() { close(n.stop) })
	<-n.done
}

func (n *notifier) run() {
	defer close(n.done)
	for {
		select {
		case ev := <-n.queue:
			n.deliver(ev)
		case <-n.stop:
			for {
				select {
				case ev := <-n.queue:
					n.deliver(ev)
				default:
					return
				}
			}
		}
	}
}

// deliver sends one notification to each of its recipients.
func (n *notifier) deliver(ev route.MinBrokerIDChange) {
	minID := ev.MinBrokerID
	header := remoting.EncodeHeader(&notifyMinBrokerIDChangeRequestHeader{
		MinBrokerID:       &minID,
		MinBrokerAddr:     ev.MinBrokerAddr,
		OfflineBrokerAddr: ev.OfflineBrokerAddr,
		HABrokerAddr:      ev.HABrokerAddr,
	})
	for _, addr := range ev.Recipients {
		n.sendOne(addr, header)
	}
}

func (n *notifier) sendOne(addr string, header map[string]string) {
	ctx, cancel := context.WithTimeout(context.Background(), notifySendTimeout)
	defer cancel()
	client := remoting.NewClient(addr, remoting.ClientConfig{})
	defer client.Close()
	req := remoting.NewRequest(remoting.NOTIFY_MIN_BROKER_ID_CHANGE, header, nil)
	if err := client.InvokeOneway(ctx, req); err != nil {
		n.log.WithError(err).WithField("brokerAddr", addr).Warn("notify min broker id change")
	}
}
