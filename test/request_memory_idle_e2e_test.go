package test

import (
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// dialFrom connects to addr from the loopback address local (127.0.0.2,
// 127.0.0.3, ...): the server tells known brokers from strangers by their
// IP address, and every test peer would otherwise share 127.0.0.1 with the
// test's broker.
func dialFrom(t *testing.T, local, addr string) net.Conn {
	t.Helper()
	dialer := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	conn, err := dialer.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial %s from %s: %v", addr, local, err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// brokerWithTopics is BrokerAMaster, renamed, with n topics of its own.
func brokerWithTopics(name, addr string, n int) nstest.Broker {
	broker := nstest.BrokerAMaster
	broker.Name, broker.Addr = name, addr
	broker.Topics = map[string]int32{}
	for i := range n {
		broker.Topics[fmt.Sprintf("%s-Topic-%05d", name, i)] = 8
	}
	return broker
}

// registerOver sends b's registration on conn, whole and at once, and
// returns the answer.
func registerOver(t *testing.T, conn net.Conn, b nstest.Broker) *remoting.Command {
	t.Helper()
	frame, err := remoting.Encode(b.RegisterRequest())
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetWriteDeadline(time.Now().Add(20 * time.Second))
	if _, err := conn.Write(frame); err != nil {
		t.Fatalf("write registration of %s: %v", b.Name, err)
	}
	resp, err := remoting.DecodeFrame(readFrame(t, conn, "registration of "+b.Name)[4:])
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestPartialSmallFramesCountAndStopShortOfTheBrokerHeadroom: 1,500
// connections from 127.0.0.2 each send 60,000 bytes of a 65,000-byte frame
// and stop. Before, such frames were not counted at all (the issue: +99 MB
// resident, request memory 0); now they count from their first byte, and
// strangers together stop at requestMemoryLimit (32 MiB) minus the broker
// headroom (a quarter): those finding no room are closed. A broker
// registered before from 127.0.0.1 still registers.
func TestPartialSmallFramesCountAndStopShortOfTheBrokerHeadroom(t *testing.T) {
	const limit, peers, sent = 32 << 20, 1500, 60_000
	const strangerPart = limit - limit/4
	ns := startNamesrvHTTP(t, "-requestMemoryLimit", strconv.Itoa(limit))
	client := nstest.NewClient(t, ns.Addr)
	nstest.MustCode(t, nstest.Register(t, client, nstest.BrokerAMaster), remoting.SUCCESS)

	frame, err := remoting.Encode(remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T"},
		make([]byte, 65_000-100)))
	if err != nil {
		t.Fatal(err)
	}
	if len(frame) >= 64<<10 || len(frame) <= sent {
		t.Fatalf("frame of %d bytes", len(frame))
	}
	for range peers {
		conn := dialFrom(t, "127.0.0.2", ns.Addr)
		if _, err := conn.Write(frame[:sent]); err != nil {
			t.Fatal(err)
		}
	}
	var held, arriving, closed float64
	eventually(t, 30*time.Second, "every partial frame counted or its connection closed", func() error {
		families := ns.scrape(t)
		held = value(families, "rocketmq_namesrv_request_memory_bytes")
		arriving = value(families, "rocketmq_namesrv_request_memory_arriving_bytes")
		closed = value(families, "rocketmq_namesrv_frame_closes_total", "reason", "memory")
		if counted := arriving / sent; closed+counted < peers-5 || held < arriving {
			return fmt.Errorf("held %.0f, arriving %.0f (%.0f frames), closed for memory %.0f", held, arriving, counted, closed)
		}
		return nil
	})
	t.Logf("held %.0f bytes, %.0f of them by partial frames; %.0f connections closed for memory", held, arriving, closed)
	if arriving < 300*sent || arriving > strangerPart || closed == 0 {
		t.Fatalf("partial frames hold %.0f bytes (want at least %d, at most %d), %.0f closed", arriving, 300*sent, strangerPart, closed)
	}
	nstest.MustCode(t, nstest.Register(t, client, nstest.BrokerAMaster), remoting.SUCCESS)
}

// TestStalledLargeFramesCloseAndKnownBrokersStillRegister: 4 connections
// from 127.0.0.2 each send 4 MiB of a 6 MB registration and stall. Before,
// they held the whole 16 MiB requestMemoryLimit until the idle timeout
// (120 s) and every registration was answered SYSTEM_BUSY; now strangers
// stop at 12 MiB (the broker headroom is a quarter), a known broker,
// reconnecting from 127.0.0.1, registers 2 MB while they stall, and they
// are closed once largeFrameStallTimeoutMillis (5 s) passes without a byte
// (or as slow, when the rate window opened near the end of their bytes).
func TestStalledLargeFramesCloseAndKnownBrokersStillRegister(t *testing.T) {
	const limit, stall = 16 << 20, 5 * time.Second
	ns := startNamesrvHTTP(t, "-requestMemoryLimit", strconv.Itoa(limit),
		"-largeFrameStallTimeoutMillis", strconv.Itoa(int(stall/time.Millisecond)))
	known := brokerWithTopics("known-broker", "127.0.0.1:10911", 10_000)
	nstest.MustCode(t, registerOver(t, dialFrom(t, "127.0.0.1", ns.Addr), known), remoting.SUCCESS)

	large, err := remoting.Encode(brokerWithTopics("stalling", "127.0.0.2:10911", 30_000).RegisterRequest())
	if err != nil {
		t.Fatal(err)
	}
	stalled := make([]net.Conn, 4)
	for i := range stalled {
		stalled[i] = dialFrom(t, "127.0.0.2", ns.Addr)
		if _, err := stalled[i].Write(large[:4<<20]); err != nil {
			t.Fatal(err)
		}
	}
	// Three of them fit the strangers' 12 MiB; which ones depends on how
	// their reads interleave, and a frame that found no room is dropped.
	eventually(t, 10*time.Second, "the stalled frames arrived", func() error {
		if held := value(ns.scrape(t), "rocketmq_namesrv_request_memory_bytes"); held < 2*(4<<20-4) {
			return fmt.Errorf("request memory %.0f", held)
		}
		return nil
	})
	time.Sleep(200 * time.Millisecond) // the rest of the 16 MiB sent is read
	started := time.Now()
	resp := registerOver(t, dialFrom(t, "127.0.0.1", ns.Addr), known)
	families := ns.scrape(t)
	if resp.Code != remoting.SUCCESS {
		t.Fatalf("known broker's registration during the stall: code %d %q (request memory %.0f)", resp.Code, resp.Remark,
			value(families, "rocketmq_namesrv_request_memory_bytes"))
	}
	if value(families, "rocketmq_namesrv_frame_closes_total") != 0 {
		t.Fatalf("the registration took %s: the stall had ended", time.Since(started))
	}
	for i, conn := range stalled {
		_ = conn.SetReadDeadline(time.Now().Add(stall + 10*time.Second))
		if n, err := conn.Read(make([]byte, 1)); err == nil {
			t.Fatalf("stalled connection %d: read %d bytes, want a close", i, n)
		} else if isTimeout(err) {
			t.Fatalf("stalled connection %d still open %s after the stall", i, time.Since(started))
		}
	}
	eventually(t, 10*time.Second, "the stalled frames' memory given back", func() error {
		families := ns.scrape(t)
		stalled := value(families, "rocketmq_namesrv_frame_closes_total", "reason", "stalled")
		if slow := value(families, "rocketmq_namesrv_frame_closes_total", "reason", "slow"); stalled+slow != 4 {
			return fmt.Errorf("%.0f closed as stalled, %.0f as slow", stalled, slow)
		}
		if held := value(families, "rocketmq_namesrv_request_memory_bytes"); held != 0 {
			return fmt.Errorf("request memory %.0f", held)
		}
		return nil
	})
}

// TestANewBrokersFirstLargeRegistrationIsTaken: a broker never seen (from
// 127.0.0.3) sends a 6 MB first registration in 64 KiB pieces every 10 ms,
// a normal broker's pace, to a NameServer whose stranger share would be
// 4 MiB (a 64th of 256 MiB) but for the rule that a share holds one frame
// of frameMaxLength, and whose rate check looks every 500 ms for 1 MiB/s:
// it is applied, its routes answered. An earlier design without the rule
// refused exactly this.
func TestANewBrokersFirstLargeRegistrationIsTaken(t *testing.T) {
	ns := startNamesrv(t, "-requestMemoryLimit", strconv.Itoa(256<<20),
		"-largeFrameStallTimeoutMillis", "500", "-largeFrameMinBytesPerSecond", strconv.Itoa(1<<20))
	broker := brokerWithTopics("new-broker", "127.0.0.3:10911", 33_000)
	frame, err := remoting.Encode(broker.RegisterRequest())
	if err != nil {
		t.Fatal(err)
	}
	if len(frame) < 6_000_000 {
		t.Fatalf("registration of %d bytes, want 6 MB", len(frame))
	}
	conn := dialFrom(t, "127.0.0.3", ns.Addr)
	_ = conn.SetWriteDeadline(time.Now().Add(30 * time.Second))
	for sent := 0; sent < len(frame); sent += 64 << 10 {
		if _, err := conn.Write(frame[sent:min(sent+64<<10, len(frame))]); err != nil {
			t.Fatalf("write at %d: %v", sent, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	resp, err := remoting.DecodeFrame(readFrame(t, conn, "first registration")[4:])
	if err != nil {
		t.Fatal(err)
	}
	nstest.MustCode(t, resp, remoting.SUCCESS)
	nstest.MustCode(t, nstest.RouteQuery(t, nstest.NewClient(t, ns.Addr), "new-broker-Topic-32999", 479), remoting.SUCCESS)
}
