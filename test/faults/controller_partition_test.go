package faults

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// controllerNets puts each of 3 nodes in a network namespace of its own,
// joined by veth pairs to one bridge in the root namespace (where the test's
// clients are): cutting a node's host-side veth partitions it from the
// other nodes and the clients alike. It returns each node's address.
func controllerNets(t *testing.T, r *row) (addrs []string, prefixes [][]string, cut, heal func(i int)) {
	t.Helper()
	hosts, prefixes, cut, heal := bridgeNets(t, r, "c", 214, 3)
	for _, h := range hosts {
		addrs = append(addrs, net.JoinHostPort(h, "9877"))
	}
	return addrs, prefixes, cut, heal
}

// bridgeNets creates n network namespaces, each joined by a veth pair to one
// bridge in the root namespace, which has 10.OCTET.X.1 (X from the test's
// pid); namespace i has 10.OCTET.X.(10+i), its host returned. tag (one
// letter) keeps the device and namespace names of two callers apart. cut(i)
// and heal(i) set namespace i's host-side veth down and up. Everything is
// deleted when the test ends.
func bridgeNets(t *testing.T, r *row, tag string, octet, n int) (hosts []string, prefixes [][]string, cut, heal func(i int)) {
	t.Helper()
	if _, err := exec.LookPath("ip"); err != nil {
		r.skip(t, "ip not installed (Debian package iproute2)")
	}
	id := os.Getpid() % 10000
	bridge := fmt.Sprintf("g%sbr%d", tag, id)
	subnet := fmt.Sprintf("10.%d.%d", octet, id%250)
	if out, err := exec.Command("ip", "link", "add", bridge, "type", "bridge").CombinedOutput(); err != nil {
		r.skip(t, fmt.Sprintf("cannot create a bridge (needs root): %v %s", err, strings.TrimSpace(string(out))))
	}
	t.Cleanup(func() { _ = exec.Command("ip", "link", "del", bridge).Run() })
	run(t, "ip", "addr", "add", subnet+".1/24", "dev", bridge)
	run(t, "ip", "link", "set", bridge, "up")
	hostDevs := make([]string, n)
	for i := range n {
		ns, h, p := fmt.Sprintf("g%sns%d-%d", tag, id, i), fmt.Sprintf("g%s%dh%d", tag, id, i), fmt.Sprintf("g%s%dp%d", tag, id, i)
		hostDevs[i] = h
		if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
			r.skip(t, fmt.Sprintf("cannot create a network namespace (needs root): %v %s", err, strings.TrimSpace(string(out))))
		}
		t.Cleanup(func() {
			_ = exec.Command("ip", "netns", "del", ns).Run()
			_ = exec.Command("ip", "link", "del", h).Run()
		})
		in := []string{"ip", "netns", "exec", ns}
		run(t, "ip", "link", "add", h, "type", "veth", "peer", "name", p)
		run(t, "ip", "link", "set", p, "netns", ns)
		run(t, "ip", "link", "set", h, "master", bridge)
		run(t, "ip", "link", "set", h, "up")
		run(t, append(in, "ip", "addr", "add", fmt.Sprintf("%s.%d/24", subnet, 10+i), "dev", p)...)
		run(t, append(in, "ip", "link", "set", p, "up")...)
		run(t, append(in, "ip", "link", "set", "lo", "up")...)
		hosts = append(hosts, fmt.Sprintf("%s.%d", subnet, 10+i))
		prefixes = append(prefixes, in)
	}
	return hosts, prefixes, func(i int) { run(t, "ip", "link", "set", hostDevs[i], "down") },
		func(i int) { run(t, "ip", "link", "set", hostDevs[i], "up") }
}

func TestControllerLeaderPartitionedThenHealedIsLinearizable(t *testing.T) {
	r := record(t, 83, "controller leader partitioned, then healed",
		"3 nodes, each in its own network namespace on one bridge; the leader's link cut 1.5 s into the history of the kill case (it loses the other nodes and the clients), restored 1 s after a new leader serves; the history checked for linearizability")
	addrs, prefixes, cut, heal := controllerNets(t, r)
	var peers []string
	for i, a := range addrs {
		peers = append(peers, fmt.Sprintf("n%d-%s", i, a))
	}
	store := t.TempDir()
	for i := range 3 {
		startProc(t, "controller", addrs[i], prefixes[i], "-controllerDLegerGroup", "faults", "-controllerDLegerPeers",
			strings.Join(peers, ";"), "-controllerDLegerSelfId", fmt.Sprintf("n%d", i), "-controllerStorePath", store,
			"-httpListenPort", "-1")
	}
	checkControllerHistory(t, r, addrs, cut, heal)
}
