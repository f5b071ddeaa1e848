package faults

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// netPair is a network namespace joined to the root namespace by a veth
// pair that the test created: hostAddr on the root side, peerAddr inside.
type netPair struct {
	name               string // namespace
	hostDev, peerDev   string
	hostAddr, peerAddr string
}

// run runs one command (ip, tc), failing the test on error.
func run(t *testing.T, argv ...string) {
	t.Helper()
	if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", strings.Join(argv, " "), err, out)
	}
}

// newNetPair creates the namespace and the veth pair, or skips the case
// with the reason when the machine cannot (no ip/tc, not root, no netns).
func newNetPair(t *testing.T, r *row) *netPair {
	t.Helper()
	for _, tool := range []string{"ip", "tc"} {
		if _, err := exec.LookPath(tool); err != nil {
			r.skip(t, tool+" not installed (Debian package iproute2)")
		}
	}
	id := os.Getpid() % 100000
	n := &netPair{name: fmt.Sprintf("gnsfault%d", id), hostDev: fmt.Sprintf("gf%dh", id), peerDev: fmt.Sprintf("gf%dp", id),
		hostAddr: fmt.Sprintf("10.213.%d.1", id%250), peerAddr: fmt.Sprintf("10.213.%d.2", id%250)}
	if out, err := exec.Command("ip", "netns", "add", n.name).CombinedOutput(); err != nil {
		r.skip(t, fmt.Sprintf("cannot create a network namespace (needs root): %v %s", err, strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() {
		_ = exec.Command("ip", "netns", "del", n.name).Run() // takes the peer end, hence the pair, with it
		_ = exec.Command("ip", "link", "del", n.hostDev).Run()
	})
	in := []string{"ip", "netns", "exec", n.name}
	run(t, "ip", "link", "add", n.hostDev, "type", "veth", "peer", "name", n.peerDev)
	run(t, "ip", "link", "set", n.peerDev, "netns", n.name)
	run(t, "ip", "addr", "add", n.hostAddr+"/30", "dev", n.hostDev)
	run(t, "ip", "link", "set", n.hostDev, "up")
	run(t, append(in, "ip", "addr", "add", n.peerAddr+"/30", "dev", n.peerDev)...)
	run(t, append(in, "ip", "link", "set", n.peerDev, "up")...)
	run(t, append(in, "ip", "link", "set", "lo", "up")...)
	return n
}

// exec is the prefix that runs a command inside the namespace.
func (n *netPair) exec() []string { return []string{"ip", "netns", "exec", n.name} }

// netem sets (or, with no arguments, removes) a netem qdisc on both ends.
func (n *netPair) netem(t *testing.T, args ...string) {
	t.Helper()
	for _, dev := range []struct {
		prefix []string
		name   string
	}{{nil, n.hostDev}, {n.exec(), n.peerDev}} {
		del := append(append([]string{}, dev.prefix...), "tc", "qdisc", "del", "dev", dev.name, "root")
		_ = exec.Command(del[0], del[1:]...).Run()
		if len(args) > 0 {
			run(t, append(append(append([]string{}, dev.prefix...), "tc", "qdisc", "add", "dev", dev.name, "root", "netem"), args...)...)
		}
	}
}

// netBrokerTimeout is the timeout of the broker behind the veth: Java's
// default brokerNotActiveTimeoutMillis, as a lossy link wants.
const netBrokerTimeout = 10 * time.Second

// startNetBroker starts a NameServer on the root side of a new pair and a
// broker inside its namespace, registered.
func startNetBroker(t *testing.T, r *row) (*netPair, *proc) {
	t.Helper()
	n := newNetPair(t, r)
	ns := startNamesrv(t, nsOptions{host: n.hostAddr})
	startBroker(t, brokerOptions{name: "netns-broker", nameServers: []*proc{ns}, host: n.peerAddr, timeout: netBrokerTimeout, prefix: n.exec()})
	if _, ok := waitFor(10*time.Second, 50*time.Millisecond, func() bool { return routed(ns, "netns-broker") }); !ok {
		t.Fatal("the broker in the namespace never registered")
	}
	return n, ns
}

// TestNetworkDelayAndLoss: 200 ms of delay and 10% loss each way between a
// broker (in its own namespace) and the NameServer must not evict it.
func TestNetworkDelayAndLoss(t *testing.T) {
	r := record(t, 50, "network: delay and loss",
		"broker in a network namespace behind a veth pair (10 s timeout): tc netem 200 ms delay + 10% loss on both ends for 10 s")
	n, ns := startNetBroker(t, r)
	probe := append(n.exec(), "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "1ms")
	if out, err := exec.Command(probe[0], probe[1:]...).CombinedOutput(); err != nil {
		r.skip(t, fmt.Sprintf("tc netem is not available on this kernel (sch_netem): %s", strings.TrimSpace(string(out))))
	}
	n.netem(t, "delay", "200ms", "loss", "10%")
	missing := 0
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if !routed(ns, "netns-broker") {
			missing++
		}
		time.Sleep(100 * time.Millisecond)
	}
	n.netem(t)
	r.figure(t, "looks without the broker under delay and loss", itoa(missing))
	if missing > 0 {
		t.Errorf("the broker left the routes %d times under 200 ms delay and 10%% loss", missing)
	}
	r.observe(t, "no eviction under delay and loss")
}

// TestNetworkPartitionAndHeal: the broker's side of the veth pair taken
// down (a full partition, no packet passes) evicts it after its timeout;
// up again, the broker registers again.
func TestNetworkPartitionAndHeal(t *testing.T) {
	r := record(t, 51, "network: partition, then heal",
		"broker in a network namespace behind a veth pair (10 s timeout): its end of the pair set down until it is evicted, then up")
	n, ns := startNetBroker(t, r)
	run(t, append(n.exec(), "ip", "link", "set", n.peerDev, "down")...)
	limit := netBrokerTimeout + scanInterval + 2*time.Second
	gone, ok := waitFor(limit+5*time.Second, 50*time.Millisecond, func() bool { return !routed(ns, "netns-broker") })
	r.figure(t, "time to leave the routes after the partition", ms(gone))
	if !ok || gone > limit {
		t.Errorf("partitioned broker left after %s (ok=%v), want within %s", gone, ok, limit)
	} else if gone < netBrokerTimeout-2*time.Second {
		t.Errorf("partitioned broker left after %s, before its %s timeout", gone, netBrokerTimeout)
	}
	run(t, append(n.exec(), "ip", "link", "set", n.peerDev, "up")...)
	back, ok := waitFor(40*time.Second, 50*time.Millisecond, func() bool { return routed(ns, "netns-broker") })
	r.figure(t, "time back in the routes after healing", ms(back))
	if !ok {
		t.Errorf("the broker did not come back within 40 s of healing")
	}
	r.observe(t, "evicted by its timeout while partitioned; registered again after healing")
}
