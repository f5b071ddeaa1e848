package test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// treeBytes sums the regular files under dir.
func treeBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return total
}

// Issue 35 item 6: 150 x CONTROLLER_APPLY_BROKER_ID (1013) with a 1 MB
// brokerName all succeeded against cmd/controller (memory 14 -> 330 MiB,
// store 0 -> 153 MiB, a restart 41 s to lead), and BROKER_HEARTBEATs with
// 1 MB names were kept. Every one is now refused, code 1 naming the field,
// before the Raft log: the store grows by at most 1 MiB. The resident
// memory and the restart's time to lead are logged (the targets are 16 MiB
// and 5 s); the memory is asserted only against a generous bound, the time
// not at all (a shared machine decides it).
func TestControllerRefusesHugeNamesAndKeepsItsStoreSmall(t *testing.T) {
	g := startControllerGroup(t, 1)
	g.leader(t, 20*time.Second)
	pid := g.procs[0].cmd.Process.Pid
	storeBefore, rssBefore := treeBytes(t, g.store), vmRSS(t, pid)
	client := remoting.NewClient(g.addrs[0], remoting.ClientConfig{DialTimeout: 3 * time.Second, RequestTimeout: 20 * time.Second})
	t.Cleanup(func() { client.Close() })
	send := func(code int32, header any, oneway bool) *remoting.Command {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req := remoting.NewRequest(code, remoting.EncodeHeader(header), nil)
		if oneway {
			if err := client.InvokeOneway(ctx, req); err != nil {
				t.Fatal(err)
			}
			return nil
		}
		resp, err := client.Invoke(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	mb := strings.Repeat("x", 1<<20)
	var accepted []string
	for i := range 150 {
		resp := send(wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "c", BrokerName: fmt.Sprintf("%03d-%s", i, mb),
			AppliedBrokerID: 1, RegisterCheckCode: "127.0.0.1:10911;1"}, false)
		if resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, "brokerName") {
			accepted = append(accepted, fmt.Sprintf("#%d: %d %.120q", i, resp.Code, resp.Remark))
		}
	}
	one := int64(1)
	for i := range 50 {
		hb := &wire.BrokerHeartbeatRequest{ClusterName: "c", BrokerName: fmt.Sprintf("%03d-%s", i, mb), BrokerAddr: "127.0.0.1:10911", BrokerID: &one}
		send(wire.CodeBrokerHeartbeat, hb, true)
		if resp := send(wire.CodeBrokerHeartbeat, hb, false); resp.Code != remoting.SYSTEM_ERROR || !strings.Contains(resp.Remark, "brokerName") {
			accepted = append(accepted, fmt.Sprintf("heartbeat #%d: %d %.120q", i, resp.Code, resp.Remark))
		}
	}
	if len(accepted) > 0 {
		t.Errorf("%d requests with a 1 MB name were not refused naming brokerName:\n%s", len(accepted), strings.Join(accepted[:min(5, len(accepted))], "\n"))
	}
	storeAfter, rssAfter := treeBytes(t, g.store), vmRSS(t, pid)
	t.Logf("store %d -> %d bytes (+%d); VmRSS %.1f -> %.1f MiB (+%.1f MiB; target +16 MiB)", storeBefore, storeAfter, storeAfter-storeBefore,
		float64(rssBefore)/(1<<20), float64(rssAfter)/(1<<20), float64(rssAfter-rssBefore)/(1<<20))
	if grew := storeAfter - storeBefore; grew > 1<<20 {
		t.Errorf("the store grew by %d bytes, at most 1 MiB", grew)
	}
	// Generous: 200 MB of refused frames pass through the read buffers;
	// before the bounds the process grew by 316 MiB.
	if grew := rssAfter - rssBefore; grew > 64<<20 {
		t.Errorf("VmRSS grew by %d MiB, want well under 64 MiB (target 16)", grew>>20)
	}
	if t.Failed() {
		return
	}
	if code := g.procs[0].Stop(); code != 0 {
		t.Fatalf("graceful stop exited %d", code)
	}
	started := time.Now()
	g.procs[0].start()
	g.leader(t, 20*time.Second)
	t.Logf("restart: serving leader %v after the start (target 5 s)", time.Since(started).Round(time.Millisecond))
	b := ctltest.NewBroker(t, "c", "set-after", g.addrs)
	b.Register(t)
}

// Issue 35 item 5: a stranger's UPDATE_CONTROLLER_CONFIG (1009) changed
// controllerStorePath and persisted it; the next start, from the same -c
// file, ran on an empty store and the acknowledged broker sets were gone.
// mqadmin now exits non-zero printing the refusal (code 1 naming the key),
// nothing is written to configStorePath, and the restart keeps the sets.
func TestControllerConfigOverTheWireCannotMoveTheStore(t *testing.T) {
	addrs, peers := groupPeers(t, 1)
	dir := t.TempDir()
	stored := filepath.Join(dir, "controller.properties")
	conf := filepath.Join(dir, "controller.conf")
	text := fmt.Sprintf("controllerDLegerGroup=e2e\ncontrollerDLegerPeers=%s\ncontrollerDLegerSelfId=n0\ncontrollerStorePath=%s\nconfigStorePath=%s\nhttpListenPort=-1\n",
		peers[0], filepath.ToSlash(filepath.Join(dir, "store")), filepath.ToSlash(stored))
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &process{t: t, name: "controller", args: []string{"-c", conf}, Addr: addrs[0], DataDir: dir}
	p.start()
	g := &controllerGroup{procs: []*process{p}, addrs: addrs, store: dir}
	g.leader(t, 20*time.Second)
	b := ctltest.NewBroker(t, "cluster-a", "set-kept", addrs)
	b.Register(t)

	for _, kv := range [][2]string{{"controllerStorePath", t.TempDir()}, {"controllerDLegerPeers", "n0-6.6.6.6:9877"}, {"controllerDLegerSelfId", "n9"}} {
		r := mqadmin(t, "updateControllerConfig", "-a", addrs[0], "-k", kv[0], "-v", kv[1])
		if r.code == 0 || !strings.Contains(r.stderr, "CODE: 1 ") || !strings.Contains(r.stderr, kv[0]) {
			t.Errorf("updateControllerConfig -k %s: exit %d\nstdout %q\nstderr %q", kv[0], r.code, r.stdout, r.stderr)
		}
	}
	if _, err := os.Stat(stored); err == nil {
		raw, _ := os.ReadFile(stored)
		t.Errorf("refused updates were written to configStorePath:\n%s", raw)
	}
	p.Restart()
	g.leader(t, 20*time.Second)
	if id := nextBrokerID(t, b); id != 2 {
		t.Fatalf("next broker id of set-kept after the restart %d, want 2 (the store kept)", id)
	}
}

// The same door through the NameServer: with enableControllerInNamesrv and
// no configStorePath, UPDATE_NAMESRV_CONFIG (318) rewrote the -c file's
// controllerStorePath (a key the NameServer does not know is replaced in
// its file), and the embedded controller started on an empty store. The
// controller's keys are protected on the NameServer (code 16 naming the key).
func TestEmbeddedControllerStoreCannotBeMovedThroughTheNameServer(t *testing.T) {
	base, ok := nstest.FreePorts(0, 1000)
	if !ok {
		t.Fatal("no free ports")
	}
	ctlAddr := fmt.Sprintf("127.0.0.1:%d", base)
	dir := t.TempDir()
	file := filepath.Join(dir, "namesrv.properties")
	conf := fmt.Sprintf("enableControllerInNamesrv=true\ncontrollerDLegerGroup=embedded\ncontrollerDLegerPeers=n0-%s\n"+
		"controllerDLegerSelfId=n0\ncontrollerStorePath=%s\n", ctlAddr, filepath.ToSlash(filepath.Join(dir, "ctl")))
	if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	ns := &process{t: t, name: "namesrv", Addr: fmt.Sprintf("127.0.0.1:%d", port), DataDir: dir,
		// The embedded controller's own configStorePath is under $HOME.
		env: []string{"HOME=" + t.TempDir()},
		args: []string{"-c", file, "-bindAddress", "127.0.0.1", "-listenPort", fmt.Sprint(port), "-data", dir,
			"-httpListenPort", "-1", "-readinessWarmUpMillis", "0"}}
	ns.start()
	b := ctltest.NewBroker(t, "cluster-a", "set-kept", []string{ctlAddr})
	b.Register(t)

	for _, kv := range [][2]string{{"controllerStorePath", filepath.ToSlash(t.TempDir())}, {"controllerDLegerPeers", "n0-" + ctlAddr},
		{"enableControllerInNamesrv", "false"}} {
		key := kv[0]
		resp, err := nstest.Call(ns.Addr, remoting.UPDATE_NAMESRV_CONFIG, nil, []byte(key+"="+kv[1]+"\n"), 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Code == remoting.SUCCESS || !strings.Contains(resp.Remark, key) {
			t.Errorf("UPDATE_NAMESRV_CONFIG %s: %d %q", key, resp.Code, resp.Remark)
		}
	}
	ns.Restart()
	eventually(t, 20*time.Second, "the embedded controller leads again", func() error {
		md, err := b.Metadata(ctlAddr)
		if err != nil || !md.IsLeader {
			return fmt.Errorf("metadata %+v %v", md, err)
		}
		return nil
	})
	if id := nextBrokerID(t, b); id != 2 {
		t.Fatalf("next broker id of set-kept after the restart %d, want 2 (the store kept)", id)
	}
}
