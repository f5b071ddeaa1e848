package remoting

import (
	"net/netip"
	"testing"
	"time"
)

// TestAPartialSmallFrameCountsFromItsFirstByte: 30 KiB of a 40 KiB frame
// count against the request memory while the rest is awaited, as frames
// arriving, and are given back once the frame is whole and answered, and
// when its peer goes away.
func TestAPartialSmallFrameCountsFromItsFirstByte(t *testing.T) {
	server, _ := gatedServerWith(t, ServerConfig{})
	frame := mustEncode(t, bodyRequest(GET_ROUTEINFO_BY_TOPIC, 1, 40<<10))
	peer := dialRaw(t, server)
	peer.write(frame[:30<<10])
	waitHeld(t, server, 30<<10)
	if arriving := server.RequestMemoryArriving(); arriving != 30<<10 {
		t.Fatalf("arriving %d, want %d", arriving, 30<<10)
	}
	peer.write(frame[30<<10:])
	expectAnswer(t, peer, 1, SUCCESS, "1")
	waitHeld(t, server, 0)

	gone := dialRaw(t, server)
	gone.write(frame[:20<<10])
	waitHeld(t, server, 20<<10)
	gone.conn.Close()
	waitHeld(t, server, 0)
	if arriving := server.RequestMemoryArriving(); arriving != 0 {
		t.Fatalf("arriving %d after the close", arriving)
	}
}

// TestStrangersStopShortOfTheBrokerHeadroom: with 1 MiB of request memory
// and 512 KiB of it kept for brokers, 20 strangers each 40 KiB into a frame
// hold at most 512 KiB (those that find no room are closed and counted),
// while a connection that registered a broker still gets a 500 KiB frame
// taken and answered, not SYSTEM_BUSY.
func TestStrangersStopShortOfTheBrokerHeadroom(t *testing.T) {
	server, gate := gatedServerWith(t, ServerConfig{RequestMemoryLimit: 1 << 20, RequestMemoryBrokerHeadroom: 512 << 10})
	broker := dialRaw(t, server) // connected first: the strangers are classified as they open, before it registers
	partial := mustEncode(t, bodyRequest(GET_ROUTEINFO_BY_TOPIC, 2, 50<<10))[:40<<10]
	strangers := make([]*rawConn, 20)
	for i := range strangers {
		strangers[i] = dialRaw(t, server)
		strangers[i].write(partial)
	}
	deadline := time.Now().Add(waitLimit)
	for server.FrameCloses()[closeMemory] < 8 { // 12 fit in 512 KiB, the 8 others are closed
		if time.Now().After(deadline) {
			t.Fatalf("closed for memory: %d, held %d", server.FrameCloses()[closeMemory], server.memory.held.Load())
		}
		time.Sleep(time.Millisecond)
	}
	waitHeld(t, server, 12*40<<10)

	broker.send(bodyRequest(BROKER_HEARTBEAT, 1, 10))
	expectAnswer(t, broker, 1, SUCCESS, "1")
	broker.send(bodyRequest(REGISTER_BROKER, 3, 500<<10))
	waitHeld(t, server, 12*40<<10+mustFrameSize(t, bodyRequest(REGISTER_BROKER, 3, 500<<10)))
	close(gate)
	expectAnswer(t, broker, 3, SUCCESS, "3")
	for _, stranger := range strangers {
		stranger.conn.Close()
	}
	waitHeld(t, server, 0)
}

// TestAStrangerStopsAtItsShare: a stranger's share (256 KiB, frames of at
// most 256 KiB) holds one 200 KiB request waiting for a worker; its next
// one is answered SYSTEM_BUSY on the same connection, while another
// stranger's is taken.
func TestAStrangerStopsAtItsShare(t *testing.T) {
	server, gate := gatedServerWith(t, ServerConfig{MaxFrameSize: 256 << 10, RequestMemoryPerStranger: 256 << 10})
	first, second := dialRaw(t, server), dialRaw(t, server)
	first.send(bodyRequest(REGISTER_BROKER, 1, 200<<10))
	one := mustFrameSize(t, bodyRequest(REGISTER_BROKER, 1, 200<<10))
	waitHeld(t, server, one)
	first.send(bodyRequest(REGISTER_BROKER, 2, 200<<10))
	expectAnswer(t, first, 2, SYSTEM_BUSY, remarkOverload)
	second.send(bodyRequest(REGISTER_BROKER, 3, 200<<10))
	waitHeld(t, server, 2*one)
	close(gate)
	expectAnswer(t, first, 1, SUCCESS, "1")
	expectAnswer(t, second, 3, SUCCESS, "3")
	waitHeld(t, server, 0)
}

// TestASharePassesOneWholeFrame: a share set below the frame limit is
// raised to it, so a new broker's first registration of any allowed size
// fits its connection; the headroom is at most half the limit.
func TestASharePassesOneWholeFrame(t *testing.T) {
	cfg := ServerConfig{MaxFrameSize: 16 << 20, RequestMemoryLimit: 64 << 20, RequestMemoryPerStranger: 1 << 20,
		RequestMemoryPerConnection: 32 << 20, RequestMemoryBrokerHeadroom: 60 << 20}.withDefaults()
	if cfg.RequestMemoryPerStranger != 16<<20 || cfg.RequestMemoryPerConnection != 32<<20 {
		t.Fatalf("shares %d %d", cfg.RequestMemoryPerStranger, cfg.RequestMemoryPerConnection)
	}
	if cfg.RequestMemoryBrokerHeadroom != 32<<20 {
		t.Fatalf("headroom %d, want half the limit", cfg.RequestMemoryBrokerHeadroom)
	}
}

// TestKnownBrokerAddressesAreRememberedForAWhile: an address is known from
// its registration for KnownBrokerMemory; at the bound the oldest goes.
func TestKnownBrokerAddressesAreRememberedForAWhile(t *testing.T) {
	var known knownBrokerAddrs
	start := time.Unix(1000, 0)
	addr := netip.MustParseAddr("10.0.0.1")
	if known.known(addr, start) {
		t.Fatal("known before any registration")
	}
	known.note(addr, start)
	if !known.known(addr, start.Add(KnownBrokerMemory)) || known.known(addr, start.Add(KnownBrokerMemory+1)) {
		t.Fatal("not remembered for exactly KnownBrokerMemory")
	}
	for i := 1; i < maxKnownBrokerAddrs; i++ {
		known.note(netip.AddrFrom4([4]byte{10, 1, byte(i >> 8), byte(i)}), start.Add(time.Duration(i)))
	}
	newcomer := netip.MustParseAddr("10.9.9.9")
	known.note(newcomer, start.Add(time.Hour/6))
	if len(known.seen) != maxKnownBrokerAddrs || known.known(addr, start.Add(time.Second)) || !known.known(newcomer, start.Add(time.Hour/6)) {
		t.Fatalf("at the bound: %d kept, oldest kept %t", len(known.seen), known.known(addr, start.Add(time.Second)))
	}
}

// TestAConnectionFromAKnownBrokerAddressIsKnown: after a broker registered
// from 127.0.0.1, a new connection from there is a known broker's.
func TestAConnectionFromAKnownBrokerAddressIsKnown(t *testing.T) {
	server, _ := gatedServerWith(t, ServerConfig{})
	stranger := dialRaw(t, server)
	stranger.send(bodyRequest(GET_ROUTEINFO_BY_TOPIC, 1, 10))
	expectAnswer(t, stranger, 1, SUCCESS, "1")
	if n := knownConns(server); n != 0 {
		t.Fatalf("%d known connections before a registration", n)
	}
	broker := dialRaw(t, server)
	broker.send(bodyRequest(BROKER_HEARTBEAT, 2, 10))
	expectAnswer(t, broker, 2, SUCCESS, "2")
	again := dialRaw(t, server)
	again.send(bodyRequest(GET_ROUTEINFO_BY_TOPIC, 3, 10))
	expectAnswer(t, again, 3, SUCCESS, "3")
	if n := knownConns(server); n != 2 { // the broker's and the new one, not the older stranger
		t.Fatalf("%d known connections, want 2", n)
	}
}

func knownConns(server *Server) int {
	n := 0
	server.conns.Range(func(_, value any) bool {
		if value.(*Conn).KnownBroker() {
			n++
		}
		return true
	})
	return n
}
