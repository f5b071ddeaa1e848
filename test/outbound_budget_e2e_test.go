package test

import (
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestNonReadersOfLargeAnswersStayWithinTheOutboundBudget: 16 connections
// pipeline GET_ALL_TOPIC_LIST_FROM_NAMESERVER at 20,000 topics (about
// 400 KB an answer) for 4 s and never read. Before, the worker answers went
// past the per-connection limits and nothing bounded them together (the
// server grew by 714 MiB here); now they count against them and against
// outboundMemoryLimit (16 MiB here), paused connections' unread requests
// count too, and past the budget such connections are closed, so the
// server's resident memory stays within the bound below, and another
// client's route queries go on answering. Their p99 is logged, not asserted.
func TestNonReadersOfLargeAnswersStayWithinTheOutboundBudget(t *testing.T) {
	const budget, soft, peers = 16 << 20, 1 << 20, 16
	// The bound: the budget, 64 MiB (the margin), and 4 MiB a peer
	// for what is read and buffered between two looks at a connection and
	// the garbage collector's slack (measured: 97 to 118 MiB of growth).
	const bound = budget + 64<<20 + peers*4<<20
	ns := startNamesrv(t, "-outboundMemoryLimit", strconv.Itoa(budget), "-connectionOutboundSoftLimit", strconv.Itoa(soft))
	broker := nstest.BrokerAMaster
	broker.Topics = map[string]int32{}
	for i := range 20000 {
		broker.Topics[fmt.Sprintf("OutboundTopic-%05d", i)] = 8
	}
	client := nstest.NewClient(t, ns.Addr)
	nstest.MustCode(t, nstest.Register(t, client, broker), remoting.SUCCESS)
	nstest.MustCode(t, nstest.RouteQuery(t, client, "OutboundTopic-00001", 479), remoting.SUCCESS)
	pid := ns.cmd.Process.Pid
	before := vmRSS(t, pid)

	request, err := remoting.Encode(remoting.NewRequest(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	burst := slices.Repeat(request, 200)
	var wg sync.WaitGroup
	for range peers {
		conn, err := net.DialTimeout("tcp", ns.Addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.(*net.TCPConn).SetReadBuffer(16 << 10)
		wg.Add(1)
		go func() { // pipeline until the server stops reading, or closes, or 4 s pass; never read
			defer wg.Done()
			_ = conn.SetWriteDeadline(time.Now().Add(4 * time.Second))
			for {
				if _, err := conn.Write(burst); err != nil {
					return
				}
			}
		}()
	}
	peak := before
	var latencies []time.Duration
	end := time.Now().Add(5 * time.Second)
	for time.Now().Before(end) {
		started := time.Now()
		nstest.MustCode(t, nstest.RouteQuery(t, client, "OutboundTopic-00001", 479), remoting.SUCCESS)
		latencies = append(latencies, time.Since(started))
		peak = max(peak, vmRSS(t, pid))
		time.Sleep(5 * time.Millisecond)
	}
	wg.Wait()
	slices.Sort(latencies)
	p99 := latencies[len(latencies)*99/100]
	t.Logf("VmRSS %d MiB before, %d MiB at the peak (budget %d MiB); %d route queries meanwhile, p99 %v",
		before>>20, peak>>20, budget>>20, len(latencies), p99)
	if grown := peak - before; grown > bound {
		t.Fatalf("resident memory grew by %d MiB, past the budget plus 64 MiB plus 4 MiB a peer (%d MiB)", grown>>20, bound>>20)
	}
}

// vmRSS is the resident memory of process pid, from /proc/PID/status.
func vmRSS(t *testing.T, pid int) int64 {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}
