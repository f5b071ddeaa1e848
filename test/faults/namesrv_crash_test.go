package faults

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	rmqerrors "github.com/apache/rocketmq-client-go/v2/errors"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// kvNamespace holds the suite's KV writes.
const kvNamespace = "FAULTS"

// kvWriter puts keys k0, k1, ... to a NameServer until stopped and remembers
// every put that was acknowledged (code 0).
type kvWriter struct {
	addr  string
	mu    sync.Mutex
	acked []string
	tried atomic.Int64
	stop  chan struct{}
	done  chan struct{}
}

func startKVWriter(addr string) *kvWriter {
	w := &kvWriter{addr: addr, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		repeat(w.stop, 0, func() {
			key := fmt.Sprintf("k%06d", w.tried.Add(1)-1)
			if code, _, err := putKV(w.addr, kvNamespace, key, "v-"+key); err == nil && code == remoting.SUCCESS {
				w.mu.Lock()
				w.acked = append(w.acked, key)
				w.mu.Unlock()
			} else {
				time.Sleep(20 * time.Millisecond) // the server is down: do not spin
			}
		})
	}()
	return w
}

func (w *kvWriter) finish() []string {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.acked...)
}

// registrationLoad re-registers synthetic brokers (100 topics each) over one
// connection as fast as they are answered, until stopped.
func registrationLoad(addr string, stop <-chan struct{}) *atomic.Int64 {
	var sent atomic.Int64
	go func() {
		client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: time.Second, RequestTimeout: callTimeout})
		defer client.Close()
		i := -1
		repeat(stop, 0, func() {
			i++
			b := nstest.Broker{Cluster: "LoadCluster", Name: fmt.Sprintf("load-%d", i%20), Addr: fmt.Sprintf("127.0.0.2:%d", 20000+i%20),
				Topics: map[string]int32{}, Version: route.DataVersion{Counter: int64(i), Timestamp: time.Now().UnixMilli()}}
			for j := range 100 {
				b.Topics[fmt.Sprintf("load-topic-%d-%d", i%20, j)] = 4
			}
			ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
			_, err := client.Invoke(ctx, b.RegisterRequest())
			cancel()
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				return
			}
			sent.Add(1)
		})
	}()
	return &sent
}

// goLookups asks the Apache Go client, given both NameServers, for a topic's
// route every 50 ms until stopped, and counts the failures by kind and the
// longest time between a first failure and the next success.
type goLookups struct {
	total, notFound, otherFailed atomic.Int64
	longestFailStreak            atomic.Int64 // ms
	firstFail, lastFail          atomic.Int64 // Unix ms, 0 before any failure
	stop, done                   chan struct{}
}

// failWindow is the time from the first failed lookup to the last.
func (l *goLookups) failWindow() time.Duration {
	return time.Duration(l.lastFail.Load()-l.firstFail.Load()) * time.Millisecond
}

func startGoLookups(t *testing.T, topic string, nameServers ...string) *goLookups {
	rlog.SetLogLevel("error")
	adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver(nameServers)))
	if err != nil {
		t.Fatalf("apache go admin: %v", err)
	}
	l := &goLookups{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		defer adm.Close()
		var failingSince time.Time
		repeat(l.stop, 50*time.Millisecond, func() {
			// FetchClusterList asks a NameServer every time (the next one
			// only on a transport error); FetchPublishMessageQueues would
			// answer from its cache after the first success.
			clusters, err := adm.FetchClusterList(topic)
			l.total.Add(1)
			switch {
			case errors.Is(err, rmqerrors.ErrTopicNotExist):
				l.notFound.Add(1)
			case err != nil || !slices.Contains(clusters, "FaultCluster"):
				l.otherFailed.Add(1)
			default:
				if !failingSince.IsZero() {
					l.longestFailStreak.Store(max(l.longestFailStreak.Load(), time.Since(failingSince).Milliseconds()))
					failingSince = time.Time{}
				}
				return
			}
			l.firstFail.CompareAndSwap(0, time.Now().UnixMilli())
			l.lastFail.Store(time.Now().UnixMilli())
			if failingSince.IsZero() {
				failingSince = time.Now()
			}
		})
		if !failingSince.IsZero() { // still failing at the end
			l.longestFailStreak.Store(max(l.longestFailStreak.Load(), time.Since(failingSince).Milliseconds()))
		}
	}()
	return l
}

func (l *goLookups) finish() { close(l.stop); <-l.done }

// TestNameServerKill9UnderLoad kills one NameServer of a pair with SIGKILL
// while brokers register, a load of registrations runs and KV writes are
// acknowledged one after the other, then restarts it on the same folder:
// every acknowledged write must be there (and the file must parse), every
// broker back within one registration period, and the Apache Go client,
// given both NameServers, must keep finding routes.
func TestNameServerKill9UnderLoad(t *testing.T) {
	r := record(t, 30, "NameServer kill -9 under load, then restart",
		"pair of NameServers, 3 brokers registering with both, 20 synthetic brokers re-registering as fast as answered, sequential PUT_KV_CONFIG; SIGKILL to one NameServer, restart 1 s later on the same folder")
	dataDir := t.TempDir()
	ns1 := startNamesrv(t, nsOptions{dataDir: dataDir})
	ns2 := startNamesrv(t, nsOptions{})
	names := []string{"crash-a", "crash-b", "crash-c"}
	for _, name := range names {
		startBroker(t, brokerOptions{name: name, nameServers: []*proc{ns1, ns2}})
	}
	for _, ns := range []*proc{ns1, ns2} {
		for _, name := range names {
			if _, ok := waitFor(10*time.Second, 20*time.Millisecond, func() bool { return routed(ns, name) }); !ok {
				t.Fatalf("%s never registered at %s", name, ns.Addr)
			}
		}
	}
	lookups := startGoLookups(t, "crash-a", ns1.Addr, ns2.Addr)
	stopLoad := make(chan struct{})
	registrations := registrationLoad(ns1.Addr, stopLoad)
	writer := startKVWriter(ns1.Addr)

	time.Sleep(2 * time.Second)
	ns1.kill()
	killedAt := time.Now()
	time.Sleep(time.Second)
	ns1.start()
	restarted := time.Now()
	r.figure(t, "restart (kill to listening)", ms(restarted.Sub(killedAt)))

	for _, name := range names {
		if _, ok := waitFor(registerPeriod+5*time.Second, 20*time.Millisecond, func() bool { return routed(ns1, name) }); !ok {
			t.Errorf("%s not back at the restarted NameServer", name)
		}
	}
	lastBack := time.Since(restarted) // all of them, counted from the restart
	r.figure(t, "every broker back after the restart", ms(lastBack))
	if lastBack > registerPeriod+time.Second {
		t.Errorf("brokers back %s after the restart, want within one registration period (%s) + 1 s", lastBack, registerPeriod)
	}
	time.Sleep(time.Second)
	acked := writer.finish()
	close(stopLoad)
	lookups.finish()

	r.figure(t, "KV writes acknowledged", fmt.Sprintf("%d of %d tried", len(acked), writer.tried.Load()))
	r.figure(t, "registrations answered", fmt.Sprint(registrations.Load()))
	store, err := kvconfig.Open(filepath.Join(dataDir, "kvConfig.json"), testlog.Discard())
	if err != nil {
		t.Fatalf("the KV file does not load after the kill: %v", err)
	}
	missing := 0
	for _, key := range acked {
		if v, ok := store.Get(kvNamespace, key); !ok || v != "v-"+key {
			missing++
		}
	}
	served := 0
	for _, key := range acked[max(0, len(acked)-50):] { // the server answers the last ones too
		if v, ok, err := getKV(ns1.Addr, kvNamespace, key); err == nil && ok && v == "v-"+key {
			served++
		}
	}
	r.figure(t, "acknowledged KV writes missing after the restart", fmt.Sprint(missing))
	if missing > 0 || served != min(50, len(acked)) {
		t.Errorf("%d acknowledged KV writes missing from the file; %d of the last %d served", missing, served, min(50, len(acked)))
	}
	if len(acked) == 0 {
		t.Error("no KV write was acknowledged")
	}
	failed := lookups.notFound.Load() + lookups.otherFailed.Load()
	r.figure(t, "Apache Go client lookups (both NameServers given)", fmt.Sprintf("%d, %d failed (%d TOPIC_NOT_EXIST, %d other) within %s, longest failing stretch %d ms",
		lookups.total.Load(), failed, lookups.notFound.Load(), lookups.otherFailed.Load(), ms(lookups.failWindow()), lookups.longestFailStreak.Load()))
	if lookups.notFound.Load() > 0 {
		r.observe(t, "the Go client's failed lookups were TOPIC_NOT_EXIST from the restarted NameServer before the brokers "+
			"registered again: the client moves to the other NameServer only on a transport error")
	}
	// The promise is about time: routes again within one registration
	// period of the restart, whatever the share of lookups that fell in it.
	streak := time.Duration(lookups.longestFailStreak.Load()) * time.Millisecond
	if streak > registerPeriod+time.Second || lookups.failWindow() > registerPeriod+2*time.Second || failed == lookups.total.Load() {
		t.Errorf("the Go client failed %d of %d lookups, within %s, up to %s in a row", failed, lookups.total.Load(), lookups.failWindow(), streak)
	}
	r.observe(t, "the KV file parsed and held every acknowledged write; brokers re-registered on their next period")
}
