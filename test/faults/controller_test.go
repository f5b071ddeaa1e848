package faults

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// controllerGroupArgs is each node's command line for a 3-node group on
// loopback (its Raft ports at +1000), all stores under one folder.
func controllerGroupArgs(t *testing.T) ([][]string, []string) {
	t.Helper()
	return controllerGroupArgsOn(t, "127.0.0.1")
}

// controllerGroupArgsOn is controllerGroupArgs with the nodes on host (an
// address of a network namespace they are started in); the ports are picked
// free on loopback, which a fresh namespace has all free as well.
func controllerGroupArgsOn(t *testing.T, host string) ([][]string, []string) {
	t.Helper()
	base, ok := nstest.FreePorts(0, 1, 2, 1000, 1001, 1002)
	if !ok {
		t.Fatal("no free ports for the controller group")
	}
	store := t.TempDir()
	var addrs, peers []string
	for i := range 3 {
		addrs = append(addrs, net.JoinHostPort(host, strconv.Itoa(base+i)))
		peers = append(peers, fmt.Sprintf("n%d-%s", i, addrs[i]))
	}
	args := make([][]string, 3)
	for i := range 3 {
		args[i] = []string{"-controllerDLegerGroup", "faults", "-controllerDLegerPeers", strings.Join(peers, ";"),
			"-controllerDLegerSelfId", fmt.Sprintf("n%d", i), "-controllerStorePath", store, "-httpListenPort", "-1"}
	}
	return args, addrs
}

// startControllers starts a 3-node cmd/controller group on loopback.
func startControllers(t *testing.T) ([]*proc, []string) {
	t.Helper()
	args, addrs := controllerGroupArgs(t)
	var procs []*proc
	for i := range 3 {
		procs = append(procs, startProc(t, "controller", addrs[i], nil, args[i]...))
	}
	return procs, addrs
}

// controllerLeader is the node whose 1005 says it leads, waiting up to within.
func controllerLeader(t *testing.T, addrs []string, down int, within time.Duration) int {
	t.Helper()
	probe := ctltest.NewBroker(t, "probe", "probe", nil)
	for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for i, addr := range addrs {
			if i == down {
				continue
			}
			if md, err := probe.Metadata(addr); err == nil && md.IsLeader {
				return i
			}
		}
	}
	t.Fatalf("no controller leader within %s", within)
	return -1
}

// opClient sends each operation once, to the node it believes leads,
// following the leader a 2007 names; a failed attempt is an operation of
// unknown outcome in the history, never retried inside one operation.
type opClient struct {
	addrs   []string
	clients map[string]*remoting.Client
	guess   string
}

func newOpClient(addrs []string) *opClient {
	c := &opClient{addrs: addrs, clients: map[string]*remoting.Client{}, guess: addrs[0]}
	for _, a := range addrs {
		c.clients[a] = remoting.NewClient(a, remoting.ClientConfig{RequestTimeout: 3 * time.Second, Logger: testlog.Discard()})
	}
	return c
}

func (c *opClient) close() {
	for _, cl := range c.clients {
		_ = cl.Close()
	}
}

func (c *opClient) try(code int32, header any, body []byte) (*remoting.Command, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	resp, err := c.clients[c.guess].Invoke(ctx, remoting.NewRequest(code, remoting.EncodeHeader(header), body))
	switch {
	case err != nil:
		c.guess = c.addrs[(slices.Index(c.addrs, c.guess)+1)%len(c.addrs)]
		return nil, false
	case resp.Code == controller.CodeNotLeader:
		if next, ok := resp.Ext(wire.LeaderAddressExt); ok && next != "" {
			c.guess = next
		} else {
			c.guess = c.addrs[(slices.Index(c.addrs, c.guess)+1)%len(c.addrs)]
		}
		return resp, false
	case resp.Code == remoting.SYSTEM_ERROR || resp.Code == remoting.SYSTEM_BUSY:
		return resp, false // a commit that timed out may still apply
	}
	return resp, true
}

// The model of one broker set for porcupine: ids with their check codes,
// the next id, and the in-sync set with its epoch (master 1, masterEpoch 1
// fixed before the history starts). Collections are strings so states
// compare with ==.
type setState struct {
	next     int64
	ids      string // ",1=code,2=code," in id order
	sss      string
	sssEpoch int32
}

type setOp struct {
	kind     string // next, apply, alter, info
	id       int64
	code     string
	sss      string
	sssEpoch int32
}

type setOut struct {
	known    bool // false: the outcome is unknown (error, 2007, timeout)
	code     int32
	next     int64
	sss      string
	sssEpoch int32
}

func (s setState) codeOf(id int64) (string, bool) {
	for _, kv := range strings.Split(strings.Trim(s.ids, ","), ",") {
		k, v, _ := strings.Cut(kv, "=")
		if k == strconv.FormatInt(id, 10) {
			return v, true
		}
	}
	return "", false
}

func (s setState) withID(id int64, code string) setState {
	type pair struct {
		id   int64
		code string
	}
	var pairs []pair
	for _, kv := range strings.Split(strings.Trim(s.ids, ","), ",") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			n, _ := strconv.ParseInt(k, 10, 64)
			pairs = append(pairs, pair{n, v})
		}
	}
	pairs = append(pairs, pair{id, code})
	slices.SortFunc(pairs, func(a, b pair) int { return int(a.id - b.id) })
	var b strings.Builder
	b.WriteString(",")
	for _, p := range pairs {
		fmt.Fprintf(&b, "%d=%s,", p.id, p.code)
	}
	s.ids, s.next = b.String(), s.next+1
	return s
}

// step is the controller's rules for the four operations (Java's, as the
// package controller implements them), each outcome-unknown operation
// allowed both to have happened and not.
var setModel = porcupine.NondeterministicModel{
	Init: func() []any { return nil }, // set by the test
	Step: func(st, in, out any) []any {
		s, op, o := st.(setState), in.(setOp), out.(setOut)
		switch op.kind {
		case "next":
			if !o.known || o.next == s.next {
				return []any{s}
			}
		case "info":
			if !o.known || (o.sss == s.sss && o.sssEpoch == s.sssEpoch) {
				return []any{s}
			}
		case "apply":
			held, ok := s.codeOf(op.id)
			accept := !ok || held == op.code
			after := s
			if !ok {
				after = s.withID(op.id, op.code)
			}
			switch {
			case !o.known && accept:
				return []any{s, after}
			case !o.known:
				return []any{s}
			case o.code == 0 && accept:
				return []any{after}
			case o.code == controller.CodeBrokerIDInvalid && !accept:
				return []any{s}
			}
		case "alter":
			var want int32
			switch {
			case op.sss == s.sss:
				want = controller.CodeAlterSyncStateSetFailed
			case op.sssEpoch != s.sssEpoch:
				want = controller.CodeFencedSyncStateSetEpoch
			}
			after := s
			if want == 0 {
				after.sss, after.sssEpoch = op.sss, s.sssEpoch+1
			}
			switch {
			case !o.known && want == 0:
				return []any{s, after}
			case !o.known:
				return []any{s}
			case o.code == controller.CodeBrokerNotAlive && want == 0:
				// Java checks liveness after the epochs: the answering
				// node's heartbeat table, local and outside the
				// replicated state this model holds, may not have a
				// member alive yet; the refusal changes nothing.
				return []any{s}
			case o.code == want && (want != 0 || o.sssEpoch == after.sssEpoch):
				return []any{after}
			}
		}
		return nil
	},
}

// history records operations from several goroutines.
type history struct {
	mu    sync.Mutex
	start time.Time
	ops   []porcupine.Operation
}

func (h *history) add(client int, in setOp, call time.Time, out setOut) {
	ret := int64(time.Since(h.start))
	if !out.known {
		ret = math.MaxInt64 // it may take effect at any time later
	}
	h.mu.Lock()
	h.ops = append(h.ops, porcupine.Operation{ClientId: client, Input: in, Call: int64(call.Sub(h.start)), Output: out, Return: ret})
	h.mu.Unlock()
}

func TestControllerLeaderKillUnderHeartbeatLoadIsLinearizable(t *testing.T) {
	r := record(t, 80, "controller leader kill -9 under heartbeat load",
		"3-node cmd/controller group; 500 heartbeats/s to every node; 5 clients applying ids, altering the in-sync set with their last known epoch and reading; SIGKILL to the leader 1.5 s in, the history checked for linearizability (porcupine, a model of one broker set)")
	procs, addrs := startControllers(t)
	checkControllerHistory(t, r, addrs, func(leader int) { procs[leader].kill() }, func(int) {})
}

func TestControllerLeaderPausedThenResumedIsLinearizable(t *testing.T) {
	r := record(t, 81, "controller leader paused (SIGSTOP), then resumed",
		"as the kill case, but the leader gets SIGSTOP 1.5 s in and SIGCONT 1 s after a new leader serves: it wakes up believing it leads, and its answers must not break linearizability (reads verify the lead with a quorum first)")
	procs, addrs := startControllers(t)
	checkControllerHistory(t, r, addrs, func(leader int) { procs[leader].signal(syscall.SIGSTOP) },
		func(leader int) { procs[leader].signal(syscall.SIGCONT) })
}

// checkControllerHistory runs the history of the controller fault cases on
// a started group: fault is injected into the leader 1.5 s in, heal 1 s
// after another node serves.
func checkControllerHistory(t *testing.T, r *row, addrs []string, fault, heal func(leader int)) {
	leader := controllerLeader(t, addrs, -1, 20*time.Second)
	b1 := ctltest.NewBroker(t, "cluster-f", "set-lin", addrs)
	b2 := ctltest.NewBroker(t, "cluster-f", "set-lin", addrs)
	b1.Register(t)
	b2.Register(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	loop := func(period time.Duration, fn func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				fn()
				select {
				case <-stop:
					return
				case <-time.After(period):
				}
			}
		}()
	}
	loop(300*time.Millisecond, func() { b1.Heartbeat(t, 0, 100, 60000); b2.Heartbeat(t, 0, 100, 60000) })
	// Heartbeat load: 50 members on 5 connections, 10 a second each, to every node.
	for c := range 5 {
		clients := make([]*remoting.Client, len(addrs))
		for i, a := range addrs {
			clients[i] = remoting.NewClient(a, remoting.ClientConfig{Logger: testlog.Discard()})
			t.Cleanup(func() { _ = clients[i].Close() })
		}
		loop(100*time.Millisecond, func() {
			for id := int64(1); id <= 10; id++ {
				// Every name a heartbeat needs, or the node drops it (issue 35).
				h := wire.BrokerHeartbeatRequest{ClusterName: "load", BrokerName: fmt.Sprintf("load-%d", c),
					BrokerAddr: fmt.Sprintf("127.0.0.1:%d", 1000+10*c+int(id)), BrokerID: &id}
				for _, cl := range clients {
					ctx, cancel := context.WithTimeout(context.Background(), time.Second)
					_ = cl.InvokeOneway(ctx, remoting.NewRequest(wire.CodeBrokerHeartbeat, remoting.EncodeHeader(&h), nil))
					cancel()
				}
			}
		})
	}
	ctltest.MustCode(t, b1.Elect(t), 0)
	// The heartbeats are oneway and each broker has its own connections:
	// b1's went ahead of its elect, b2's may still be on the way. Wait
	// until the leader has b2 alive (1006), so that an alter to {1,2} is
	// not refused 2006 from the start.
	ctltest.WaitAlive(t, b2)

	h := &history{start: time.Now()}
	// Ids 1 and 2 are the fake brokers'; the history applies only ids it
	// read as next (3 and up), so their check codes never matter.
	init := setState{next: 1}.withID(1, "b1").withID(2, "b2")
	init.sss, init.sssEpoch = "1", 1
	// The clients run 5 s, or until heal returns when it takes longer
	// (the membership case heals for longer).
	deadline, healed := time.Now().Add(5*time.Second), make(chan struct{})
	running := func() bool {
		select {
		case <-healed:
			return time.Now().Before(deadline)
		default:
			return true
		}
	}
	var clientWG sync.WaitGroup
	for c := range 5 {
		clientWG.Add(1)
		go func() {
			defer clientWG.Done()
			oc := newOpClient(addrs)
			defer oc.close()
			knownEpoch := int32(1)
			for n := 0; running(); n++ {
				call := time.Now()
				switch {
				case c < 2: // read the next id, then apply it
					resp, ok := oc.try(wire.CodeGetNextBrokerID, &wire.GetNextBrokerIDRequest{ClusterName: "cluster-f", BrokerName: "set-lin"}, nil)
					out := setOut{known: ok}
					if ok {
						next, _ := strconv.ParseInt(resp.ExtFields["nextBrokerId"], 10, 64)
						out.next = next
						h.add(c, setOp{kind: "next"}, call, out)
						code := fmt.Sprintf("c%d-%d", c, n)
						call = time.Now()
						ar, aok := oc.try(wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: "cluster-f", BrokerName: "set-lin",
							AppliedBrokerID: next, RegisterCheckCode: code}, nil)
						ao := setOut{known: aok}
						if aok {
							ao.code = ar.Code
						}
						h.add(c, setOp{kind: "apply", id: next, code: code}, call, ao)
					} else {
						h.add(c, setOp{kind: "next"}, call, out)
					}
				case c < 4: // alter with the last epoch this client saw
					sss := []int64{1}
					if n%2 == 0 {
						sss = []int64{1, 2}
					}
					body := (&wire.SyncStateSet{SyncStateSet: sss, SyncStateSetEpoch: knownEpoch}).Encode()
					resp, ok := oc.try(wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: "set-lin", MasterBrokerID: 1, MasterEpoch: 1}, body)
					out := setOut{known: ok}
					if ok {
						out.code = resp.Code
						e, _ := strconv.ParseInt(resp.ExtFields["newSyncStateSetEpoch"], 10, 32)
						out.sssEpoch = int32(e)
					}
					h.add(c, setOp{kind: "alter", sss: idsText(sss), sssEpoch: knownEpoch}, call, out)
					call = time.Now()
					ir, iok := oc.try(wire.CodeGetReplicaInfo, &wire.GetReplicaInfoRequest{BrokerName: "set-lin"}, nil)
					io := setOut{known: iok}
					if iok {
						if s, err := wire.DecodeSyncStateSet(ir.Body); err == nil {
							io.sss, io.sssEpoch = idsText(s.SyncStateSet), s.SyncStateSetEpoch
							knownEpoch = s.SyncStateSetEpoch
						} else {
							io.known = false
						}
					}
					h.add(c, setOp{kind: "info"}, call, io)
				default: // read only
					ir, iok := oc.try(wire.CodeGetReplicaInfo, &wire.GetReplicaInfoRequest{BrokerName: "set-lin"}, nil)
					io := setOut{known: iok}
					if iok {
						s, _ := wire.DecodeSyncStateSet(ir.Body)
						io.sss, io.sssEpoch = idsText(s.SyncStateSet), s.SyncStateSetEpoch
					}
					h.add(c, setOp{kind: "info"}, call, io)
				}
				time.Sleep(30 * time.Millisecond)
			}
		}()
	}
	time.Sleep(1500 * time.Millisecond)
	injected := time.Now()
	fault(leader)
	next := controllerLeader(t, addrs, leader, 30*time.Second)
	r.figure(t, "leader change after the fault", time.Since(injected).Round(time.Millisecond).String())
	time.Sleep(time.Second)
	heal(leader)
	close(healed)
	clientWG.Wait()
	close(stop)
	wg.Wait()

	model := setModel
	model.Init = func() []any { return []any{init} }
	known := 0
	for _, op := range h.ops {
		if op.Output.(setOut).known {
			known++
		}
	}
	r.observe(t, "%d operations (%d with a known outcome), new leader n%d", len(h.ops), known, next)
	res, info := porcupine.CheckOperationsVerbose(model.ToModel(), h.ops, 60*time.Second)
	r.observe(t, "linearizability: %s", res)
	lostWritesFigure(t, r, addrs, h.ops)
	if res != porcupine.Ok {
		// The history as porcupine's HTML view, kept for a look at what failed.
		if f, err := os.CreateTemp("", "controller-history-*.html"); err == nil {
			m := model.ToModel()
			m.DescribeOperation = func(in, out any) string { return fmt.Sprintf("%+v -> %+v", in, out) }
			m.DescribeState = func(st any) string { return fmt.Sprintf("%+v", st) }
			_ = porcupine.Visualize(m, info, f)
			f.Close()
			t.Logf("history view: %s", f.Name())
		}
		t.Fatalf("the history of %d operations is %s", len(h.ops), res)
	}
}

func idsText(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range wire.SortedIDs(ids) {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

// TestSetModelAllowsANotAliveRefusal is the start of a failed make faults
// history: two alters to {1,2} refused 2006 (the leader had no heartbeat
// of broker 2 yet), then a read of the unchanged set. The model must accept
// it, and still refuse a 2006 where Java checks the epochs first, or one
// that changed the set.
func TestSetModelAllowsANotAliveRefusal(t *testing.T) {
	init := setState{next: 1}.withID(1, "b1").withID(2, "b2")
	init.sss, init.sssEpoch = "1", 1
	model := setModel
	model.Init = func() []any { return []any{init} }
	alter := func(client int, sssEpoch int32, code int32, call, ret int64) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: setOp{kind: "alter", sss: "1,2", sssEpoch: sssEpoch},
			Output: setOut{known: true, code: code}, Call: call, Return: ret}
	}
	info := func(client int, sss string, epoch int32, call, ret int64) porcupine.Operation {
		return porcupine.Operation{ClientId: client, Input: setOp{kind: "info"},
			Output: setOut{known: true, sss: sss, sssEpoch: epoch}, Call: call, Return: ret}
	}
	for _, c := range []struct {
		name string
		ops  []porcupine.Operation
		ok   bool
	}{
		{"refused 2006, set unchanged", []porcupine.Operation{alter(2, 1, controller.CodeBrokerNotAlive, 265, 1818),
			alter(3, 1, controller.CodeBrokerNotAlive, 344, 1860), info(3, "1", 1, 1860, 2732)}, true},
		{"2006 where the epoch is fenced first", []porcupine.Operation{alter(2, 2, controller.CodeBrokerNotAlive, 0, 10)}, false},
		{"2006 that changed the set", []porcupine.Operation{alter(2, 1, controller.CodeBrokerNotAlive, 0, 10),
			info(3, "1,2", 2, 20, 30)}, false},
	} {
		if got := porcupine.CheckOperations(model.ToModel(), c.ops); got != c.ok {
			t.Errorf("%s: linearizable %v, want %v", c.name, got, c.ok)
		}
	}
}
