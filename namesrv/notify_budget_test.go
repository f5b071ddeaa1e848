package namesrv

import (
	"context"
	"net"
	"net/netip"
	"syscall"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/route"
)

// hangingAddrs are n loopback addresses whose connects hang: sockets
// listening with a backlog of 0 that never accept, their one queue place
// taken, so the kernel drops further SYNs and a dial waits until its
// timeout, as a dial to an unreachable host does.
func hangingAddrs(t *testing.T, n int) []string {
	t.Helper()
	addrs := make([]string, n)
	for i := range addrs {
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = syscall.Close(fd) })
		if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Listen(fd, 0); err != nil {
			t.Fatal(err)
		}
		sa, err := syscall.Getsockname(fd)
		if err != nil {
			t.Fatal(err)
		}
		addrs[i] = netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(sa.(*syscall.SockaddrInet4).Port)).String()
		c, err := net.DialTimeout("tcp", addrs[i], time.Second) // takes the one queue place
		if err != nil {
			t.Fatalf("fill the accept queue of %s: %v", addrs[i], err)
		}
		t.Cleanup(func() { _ = c.Close() })
	}
	if c, err := net.DialTimeout("tcp", addrs[0], 200*time.Millisecond); err == nil {
		_ = c.Close()
		t.Skip("this kernel completes connects past the backlog; no hanging address on loopback")
	}
	return addrs
}

// deadGroup is count notifications, each to the same members at hanging
// addresses: what members registering at unreachable addresses queue.
func deadGroup(t *testing.T, members, count int) []route.MinBrokerIDChange {
	recipients := hangingAddrs(t, members)
	events := make([]route.MinBrokerIDChange, count)
	for i := range events {
		events[i] = route.MinBrokerIDChange{BrokerName: "dead-group", Recipients: recipients}
	}
	return events
}

// TestNotifyDeadMembersDoNotDelayLiveBrokers: NOTIFY_MIN_BROKER_ID_CHANGE
// dialled one recipient at a time, so 40 members at unreachable addresses
// queued hundreds of 300 ms dials and a live broker waited behind them for
// minutes. Now sends run concurrently (notifySenders), a failing address is
// skipped for notifyFailureBackoff and a send past notifyBudget is dropped.
func TestNotifyDeadMembersDoNotDelayLiveBrokers(t *testing.T) {
	live, received := listenAsBroker(t)
	n := newNotifier(quietLog())
	t.Cleanup(n.close)
	n.send(deadGroup(t, 40, 40))
	n.send([]route.MinBrokerIDChange{{BrokerName: "live-group", Recipients: []string{live}}})
	next(t, received) // 10 s at most; sequential sends would take 40*40*0.3 s
}

// TestShutdownHonoursItsDeadlineWithNotificationsQueued: SIGTERM did not
// finish within its 30 s budget while notifications to unreachable
// addresses were queued (50 s and counting). Shutdown now returns soon
// after its deadline whatever is queued.
func TestShutdownHonoursItsDeadlineWithNotificationsQueued(t *testing.T) {
	s := startServer(t, nil)
	s.ns.notifier.send(deadGroup(t, 40, 500))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- s.ns.Shutdown(ctx) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown with a 500 ms deadline still running after 10 s")
	}
}

// quietLog is a logger that keeps nothing.
func quietLog() *logrus.Entry {
	logger, _ := logtest.NewNullLogger()
	return logrus.NewEntry(logger)
}
