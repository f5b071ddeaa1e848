package test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// startEpochBroker serves broker/admin's handlers with an epoch cache, as a
// Go broker in controller mode would, on a loopback port of its own.
func startEpochBroker(t *testing.T, cache *wire.EpochEntryCache) string {
	t.Helper()
	srv := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", NumEventLoops: 1, SlowWorkers: 1})
	h := admin.New(topicconfig.NewStore(nil, nil, nil), nil, func() map[string]string { return nil }, nil)
	h.ServeEpochCache(func() *wire.EpochEntryCache { return cache })
	h.Register(srv)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return srv.Addr().String()
}

func TestMqadminGetBrokerEpoch(t *testing.T) {
	ns := startNamesrv(t)
	addr := startEpochBroker(t, &wire.EpochEntryCache{ClusterName: "cluster-e", BrokerName: "broker-e", BrokerID: 1, MaxOffset: 4096,
		EpochList: []wire.EpochEntry{{Epoch: 1, StartOffset: 0, EndOffset: 1024}, {Epoch: 3, StartOffset: 1024, EndOffset: math.MaxInt64}}})
	reg := nstest.BrokerAMaster
	reg.Cluster, reg.Name, reg.Addr = "cluster-e", "broker-e", addr
	nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, ns.Addr), reg), remoting.SUCCESS)

	want := "\n#clusterName\tcluster-e\n#brokerName\tbroker-e\n#brokerAddr\t" + addr + "\n#brokerId\t1" +
		"\n#Epoch: EpochEntry{epoch=1, startOffset=0, endOffset=1024}\n#Epoch: EpochEntry{epoch=3, startOffset=1024, endOffset=4096}\n"
	for _, target := range [][]string{{"-b", "broker-e"}, {"-c", "cluster-e"}} {
		if out := mustMqadmin(t, append([]string{"getBrokerEpoch", "-n", ns.Addr}, target...)...); out != want {
			t.Fatalf("getBrokerEpoch %v:\n%q\nwant\n%q", target, out, want)
		}
	}
	// -i repeats the fetch every second until the process is stopped, as Java's.
	repeated := startMqadmin(t, "getBrokerEpoch", "-n", ns.Addr, "-b", "broker-e", "-i", "1")
	eventually(t, 15*time.Second, "two rounds of getBrokerEpoch -i 1", func() error {
		if out := repeated.String(); !strings.HasPrefix(out, want+want) {
			return fmt.Errorf("output so far %q", out)
		}
		return nil
	})
	if js := mustMqadmin(t, "getBrokerEpoch", "-n", ns.Addr, "-b", "broker-e", "-json"); !strings.Contains(js, `"maxOffset": 4096`) {
		t.Fatalf("getBrokerEpoch -json: %s", js)
	}
	// An unknown cluster: Java prints "[error] Make sure ..." on stdout and
	// exits 0; here it is an error (mqadmin_exit_test.go).
	if r := mqadmin(t, "getBrokerEpoch", "-n", ns.Addr, "-c", "no-such-cluster"); r.code != 1 || r.stdout != "" {
		t.Fatalf("unknown cluster: exit %d %q %q", r.code, r.stdout, r.stderr)
	}

	// cmd/broker not in controller mode: Java's broker answers SYSTEM_ERROR then.
	startBroker(t, brokerSpec{cluster: "cluster-r", name: "broker-r", nameServers: []*process{ns}})
	eventually(t, 10*time.Second, "broker-r registered", func() error {
		if info, err := clusterInfoOf(ns.Addr); err != nil || len(info.ClusterAddrTable["cluster-r"]) == 0 {
			return errString("not yet")
		}
		return nil
	})
	r := mqadmin(t, "getBrokerEpoch", "-n", ns.Addr, "-b", "broker-r")
	if r.code == 0 || !strings.Contains(r.stderr, "GetBrokerEpochSubCommand command failed") || !strings.Contains(r.stderr, "this request only for controllerMode") {
		t.Fatalf("getBrokerEpoch of a route-only broker: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// getBrokerEpoch against cmd/broker in controller mode under a real
// cmd/controller: each broker answers the epochs it learnt, master as id 0
// and slave under its controller id; after the master's kill -9 the new
// master lists epochs 1 and 2, the first ending where the second starts and
// the last (printed) ending at its max offset.
func TestMqadminGetBrokerEpochOfControllerModeBrokers(t *testing.T) {
	ctl := startControllerGroup(t, 1)
	ns := startNamesrv(t)
	const cluster, set = "epoch-cluster", "epoch-set"
	a, b := startMasterAndSlave(t, ns, cluster, set, controllerModeConf(ctl.addrs[0]), 20*time.Second)
	epochs := func() map[string]wire.EpochEntryCache {
		t.Helper()
		var caches map[string]wire.EpochEntryCache
		if err := json.Unmarshal([]byte(mustMqadmin(t, "getBrokerEpoch", "-n", ns.Addr, "-b", set, "-json")), &caches); err != nil {
			t.Fatal(err)
		}
		return caches
	}
	caches := epochs()
	for addr, wantID := range map[string]int64{a.Addr: 0, b.Addr: 2} {
		c, ok := caches[addr]
		if !ok || c.ClusterName != cluster || c.BrokerName != set || c.BrokerID != wantID || len(c.EpochList) != 1 ||
			c.EpochList[0].Epoch != 1 || c.EpochList[0].EndOffset != math.MaxInt64 || c.MaxOffset < c.EpochList[0].StartOffset {
			t.Fatalf("%s's epoch cache %+v (present %t), want id %d and epoch 1", addr, c, ok, wantID)
		}
	}

	waitInSyncSet(t, ctl.addrs, cluster, set, "[1 2]", 20*time.Second)
	a.Kill()
	eventually(t, 30*time.Second, "b as master", wantRoute(ns.Addr, set, map[int64]string{0: b.Addr}))
	c := epochs()[b.Addr]
	if c.BrokerID != 0 || len(c.EpochList) != 2 || c.EpochList[1].Epoch != 2 || c.EpochList[0].EndOffset != c.EpochList[1].StartOffset ||
		c.EpochList[1].EndOffset != math.MaxInt64 || c.MaxOffset < c.EpochList[1].StartOffset {
		t.Fatalf("new master's epoch cache %+v", c)
	}
	out := mustMqadmin(t, "getBrokerEpoch", "-n", ns.Addr, "-c", cluster)
	text := regexp.MustCompile(`^\n#clusterName\t` + cluster + `\n#brokerName\t` + set + `\n#brokerAddr\t` + regexp.QuoteMeta(b.Addr) +
		`\n#brokerId\t0\n#Epoch: EpochEntry\{epoch=1, startOffset=\d+, endOffset=(\d+)\}\n#Epoch: EpochEntry\{epoch=2, startOffset=(\d+), endOffset=(\d+)\}\n$`)
	m := text.FindStringSubmatch(out)
	if m == nil || m[1] != m[2] || m[3] == strconv.FormatInt(math.MaxInt64, 10) {
		t.Fatalf("getBrokerEpoch -c after the failover:\n%s", out)
	}
}

// startMqadmin runs mqadmin in the background (a repeating -i command),
// killed when the test ends; its stdout is returned.
func startMqadmin(t *testing.T, args ...string) *testlog.Buffer {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "mqadmin"), args...)
	cmd.Env = append(os.Environ(), "NAMESRV_ADDR=")
	out := &testlog.Buffer{}
	cmd.Stdout = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return out
}
