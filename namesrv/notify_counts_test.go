package namesrv

import (
	"net"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

// closedPort is a loopback address nothing listens on (a port just freed).
func closedPort(t *testing.T) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := listener.Addr().String()
	_ = listener.Close()
	return addr
}

// TestNotifierCountsRecipients: every recipient is counted once by what
// became of it: sent to a real listener, failed on a closed port, skipped
// while that port is remembered as failing, dropped when the queue is full.
func TestNotifierCountsRecipients(t *testing.T) {
	addr, received := listenAsBroker(t)
	closedAddr := closedPort(t)
	logger, _ := logtest.NewNullLogger()
	n := newNotifier(logrus.NewEntry(logger))

	n.send([]route.MinBrokerIDChange{{BrokerName: "a", Recipients: []string{addr, closedAddr}}})
	next(t, received)
	n.close() // waits for the failed send too
	if got, want := n.counts.read(), (metrics.NotifyCounts{Sent: 1, Failed: 1}); got != want {
		t.Fatalf("after one change to two recipients: %+v, want %+v", got, want)
	}

	idle := newIdleNotifier(logrus.NewEntry(logger), 1)
	idle.noteFailure(closedAddr, false)
	idle.send([]route.MinBrokerIDChange{{BrokerName: "queued", Recipients: []string{closedAddr}},
		{BrokerName: "dropped", Recipients: []string{addr, closedAddr}}})
	idle.deliver(<-idle.queue) // the failing address is skipped, not dialled
	if got, want := idle.counts.read(), (metrics.NotifyCounts{Dropped: 2, Skipped: 1}); got != want {
		t.Fatalf("queue full and a failing address: %+v, want %+v", got, want)
	}
}
