package faults

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// floodRSSBound is the resident memory the NameServer must stay under during
// every flood (README, Limits): the 1 GiB requestMemoryLimit that the
// registration flood fills, plus the rest of the process.
const floodRSSBound = 1536 << 20

// floodDuration is how long each flood runs while route queries are timed.
const floodDuration = 10 * time.Second

// probeStats are the route queries answered on a connection of their own.
type probeStats struct {
	latencies []time.Duration
	failed    int
}

func (p probeStats) p99() time.Duration { return percentile(p.latencies, 99) }

// percentile is the pct-th percentile of ds (nearest rank below), 0 for none.
func percentile(ds []time.Duration, pct int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)*pct/100]
}

// probeRoutes queries topic's route over client for d, one query at a time.
func probeRoutes(client *remoting.Client, topic string, d time.Duration) probeStats {
	var stats probeStats
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		resp, err := client.Invoke(ctx, remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": topic}, nil))
		cancel()
		if err != nil || resp.Code != remoting.SUCCESS {
			stats.failed++
			time.Sleep(10 * time.Millisecond)
			continue
		}
		stats.latencies = append(stats.latencies, time.Since(start))
		time.Sleep(2 * time.Millisecond)
	}
	return stats
}

// flood runs one flood against a fresh NameServer with one broker: route
// p99 quiet, then during the flood (which runs until stop closes), and the
// server's peak resident memory. It fails the case when a route query went
// unanswered or the memory passed floodRSSBound.
func flood(t *testing.T, r *row, extra []string, load func(addr string, stop <-chan struct{})) {
	t.Helper()
	floodWith(t, r, nsOptions{extra: extra}, load)
}

// floodWith is flood with every option of the NameServer given; it returns
// the server's resident memory before the flood and its peak.
func floodWith(t *testing.T, r *row, o nsOptions, load func(addr string, stop <-chan struct{})) (rssBefore, rssPeak int64) {
	t.Helper()
	ns := startNamesrv(t, o)
	startBroker(t, brokerOptions{name: "flood-broker", nameServers: []*proc{ns}, timeout: 30 * time.Second})
	if _, ok := waitFor(10*time.Second, 20*time.Millisecond, func() bool { return routed(ns, "flood-broker") }); !ok {
		t.Fatal("the broker never registered")
	}
	client := remoting.NewClient(ns.Addr, remoting.ClientConfig{DialTimeout: time.Second, RequestTimeout: 2 * time.Second})
	defer client.Close()
	quiet := probeRoutes(client, "flood-broker", 2*time.Second)
	rssBefore, _ = ns.rssBytes()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); load(ns.Addr, stop) }()
	var peak atomic.Int64
	go func() {
		defer wg.Done()
		repeat(stop, 100*time.Millisecond, func() {
			if rss, err := ns.rssBytes(); err == nil && rss > peak.Load() {
				peak.Store(rss)
			}
		})
	}()
	time.Sleep(time.Second) // let the flood build up
	loaded := probeRoutes(client, "flood-broker", floodDuration)
	close(stop)
	wg.Wait()

	r.figure(t, "route p99 quiet / during the flood", fmt.Sprintf("%s / %s (%d queries, %d unanswered)",
		quiet.p99().Round(10*time.Microsecond), loaded.p99().Round(10*time.Microsecond), len(loaded.latencies), loaded.failed))
	r.figure(t, "server RSS before / peak", fmt.Sprintf("%d MiB / %d MiB (bound %d MiB)", rssBefore>>20, peak.Load()>>20, floodRSSBound>>20))
	r.observe(t, "route queries on their own connection answered %d times, %d unanswered within 2 s; p99 %.1fx quiet; the broker stayed routed: %v",
		len(loaded.latencies), loaded.failed, float64(loaded.p99())/float64(max(1, quiet.p99())), routed(ns, "flood-broker"))
	if loaded.failed > 0 || len(loaded.latencies) == 0 {
		t.Errorf("%d route queries unanswered during the flood (%d answered)", loaded.failed, len(loaded.latencies))
	}
	if peak.Load() > floodRSSBound {
		t.Errorf("the server's RSS peaked at %d MiB, over the %d MiB bound", peak.Load()>>20, floodRSSBound>>20)
	}
	if !routed(ns, "flood-broker") {
		t.Error("the broker left the routes during the flood")
	}
	return rssBefore, peak.Load()
}

// localDialer spreads the flood's connections over 127.0.0.2-201 so that
// they do not use up the ephemeral ports of one source address.
func localDialer(i int) *net.Dialer {
	return &net.Dialer{Timeout: 2 * time.Second, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i%200))}}
}

func TestFloodConnectClose(t *testing.T) {
	fullOnly(t)
	r := record(t, 70, "connection flood: open and close", "20,000 connections opened and closed, 8 at a time, each sending nothing")
	var opened atomic.Int64
	flood(t, r, nil, func(addr string, stop <-chan struct{}) {
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := w; opened.Load() < 20_000; i += 8 {
					select {
					case <-stop:
						return
					default:
					}
					if c, err := localDialer(i).Dial("tcp", addr); err == nil {
						opened.Add(1)
						c.Close()
					}
				}
			}()
		}
		wg.Wait()
	})
	r.figure(t, "connections opened and closed", fmt.Sprint(opened.Load()))
}

func TestFloodIdleConnections(t *testing.T) {
	r := record(t, 71, "connection flood: idle", "10,000 connections opened and held idle")
	var held atomic.Int64
	flood(t, r, nil, func(addr string, stop <-chan struct{}) {
		var conns []net.Conn
		for i := 0; i < 10_000; i++ {
			c, err := localDialer(i).Dial("tcp", addr)
			if err != nil {
				continue
			}
			conns = append(conns, c)
			held.Store(int64(len(conns)))
		}
		<-stop
		for _, c := range conns {
			c.Close()
		}
	})
	r.figure(t, "idle connections held", fmt.Sprint(held.Load()))
	if held.Load() < 10_000 {
		t.Errorf("only %d of 10,000 idle connections opened", held.Load())
	}
}

func TestFloodSlowloris(t *testing.T) {
	r := record(t, 72, "connection flood: slowloris", "1,000 connections each sending a 1 KB frame one byte a second")
	var open atomic.Int64
	flood(t, r, nil, func(addr string, stop <-chan struct{}) {
		frame := make([]byte, 1024)
		binary.BigEndian.PutUint32(frame, 1020) // a plausible frame length; the rest trickles in
		var conns []net.Conn
		for i := 0; i < 1000; i++ {
			if c, err := localDialer(i).Dial("tcp", addr); err == nil {
				conns = append(conns, c)
			}
		}
		for sent := 0; ; sent++ {
			alive := 0
			for _, c := range conns {
				_ = c.SetWriteDeadline(time.Now().Add(10 * time.Millisecond))
				if _, err := c.Write(frame[sent%len(frame) : sent%len(frame)+1]); err == nil {
					alive++
				}
			}
			open.Store(int64(alive))
			select {
			case <-stop:
				for _, c := range conns {
					c.Close()
				}
				return
			case <-time.After(time.Second):
			}
		}
	})
	r.figure(t, "slowloris connections still open at the end", fmt.Sprint(open.Load()))
}

// TestFloodLargeRegistrations: 64 connections, each with 8 registrations
// of 2 MB in flight, for 10 s, against a requestMemoryLimit of 256 MiB
// (the 1 GiB default is more than this machine's server reads in flight):
// past it the server answers SYSTEM_BUSY; route queries go on. The senders
// run in a niced process of their own (flood_senders_test.go).
func TestFloodLargeRegistrations(t *testing.T) {
	fullOnly(t)
	r := record(t, 73, "registration flood: 2 MB bodies",
		"64 connections, 8 pipelined REGISTER_BROKER of 2 MB each (20,000 topics) in flight on each, from a process of their own at nice 10, -requestMemoryLimit 268435456")
	var answers registrationTally
	flood(t, r, []string{"-requestMemoryLimit", "268435456"}, func(addr string, stop <-chan struct{}) {
		sendLargeRegistrations(t, addr, stop, &answers)
	})
	r.figure(t, "registrations answered 0 / SYSTEM_BUSY / other or error", answers.String())
	if answers.busy.Load() == 0 {
		t.Error("no registration was answered SYSTEM_BUSY: the request memory limit was never reached")
	}
}

// registrationTally counts the answers of registrations sent in a flood,
// and keeps the first few distinct reasons of the "other" ones (an error's
// text or an unexpected code), so that a report with others says why.
type registrationTally struct {
	ok, busy, other atomic.Int64
	reasonsMu       sync.Mutex
	reasons         []string
}

// maxTallyReasons bounds the distinct reasons a tally keeps.
const maxTallyReasons = 4

// count adds one answer (or the error in its place); it reports whether
// it was an error, after which a sender waits a little.
func (r *registrationTally) count(resp *remoting.Command, err error) (failed bool) {
	switch {
	case err != nil:
		r.otherBecause(err.Error())
		return true
	case resp.Code == remoting.SUCCESS:
		r.ok.Add(1)
	case resp.Code == remoting.SYSTEM_BUSY:
		r.busy.Add(1)
	default:
		r.otherBecause(fmt.Sprintf("code %d %q", resp.Code, resp.Remark))
	}
	return false
}

// otherBecause counts one "other" answer and keeps its reason if new.
func (r *registrationTally) otherBecause(reason string) {
	r.other.Add(1)
	r.keepReason(reason)
}

func (r *registrationTally) keepReason(reason string) {
	r.reasonsMu.Lock()
	defer r.reasonsMu.Unlock()
	if len(r.reasons) < maxTallyReasons && !slices.Contains(r.reasons, reason) {
		r.reasons = append(r.reasons, reason)
	}
}

// String is "ok / busy / other", followed by the others' reasons.
func (r *registrationTally) String() string {
	s := fmt.Sprintf("%d / %d / %d", r.ok.Load(), r.busy.Load(), r.other.Load())
	r.reasonsMu.Lock()
	defer r.reasonsMu.Unlock()
	if len(r.reasons) > 0 {
		s += " (others: " + strings.Join(r.reasons, "; ") + ")"
	}
	return s
}
