package remoting

import (
	"crypto/sha256"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/panjf2000/gnet/v2"
)

// javaHeader is a header as a Java broker writes it.
func javaHeader(code int32, ext string, opaque int64, version int) []byte {
	return fmt.Appendf(nil, `{"code":%d,"extFields":{%s},"flag":0,"language":"JAVA","opaque":%d,"serializeTypeCurrentRPC":"JSON","version":%d}`,
		code, ext, opaque, version)
}

const (
	brokerA = `"brokerAddr":"127.0.0.1:10911","brokerName":"broker-a","clusterName":"DefaultCluster"`
	brokerB = `"brokerAddr":"127.0.0.1:10921","brokerName":"broker-b","clusterName":"DefaultCluster"`
)

// sameHeader fails unless the memo's result is the scan's.
func sameHeader(t *testing.T, data []byte, got fastHeader, gotOK bool) {
	t.Helper()
	want, wantOK := scanFastHeader(data)
	if gotOK != wantOK {
		t.Fatalf("%s: memo ok %v, scan ok %v", data, gotOK, wantOK)
	}
	if !wantOK {
		return
	}
	if got.code != want.code || got.flag != want.flag || got.opaque != want.opaque || got.version != want.version ||
		got.haveCode != want.haveCode || got.haveOpaque != want.haveOpaque || got.ext.n != want.ext.n {
		t.Fatalf("%s: memo %+v, scan %+v", data, got, want)
	}
	for i := range want.ext.n {
		if string(got.ext.keys[i]) != string(want.ext.keys[i]) || string(got.ext.value[i]) != string(want.ext.value[i]) {
			t.Fatalf("%s: memo ext %q=%q, scan %q=%q", data, got.ext.keys[i], got.ext.value[i], want.ext.keys[i], want.ext.value[i])
		}
	}
	if gotDigest, gotSigned := got.signedDigest(nil); gotSigned != (want.signedKey(nil, nil) != nil) ||
		gotSigned && gotDigest != sha256.Sum256(want.signedKey(nil, nil)) {
		t.Fatalf("%s: memo signed %v %x, scan's key %q", data, gotSigned, gotDigest, want.signedKey(nil, nil))
	}
	type identity struct {
		cluster, addr string
		ok            bool
	}
	var gotID, wantID identity
	gotID.cluster, gotID.addr, gotID.ok = got.heartbeat()
	wantID.cluster, wantID.addr, wantID.ok = want.heartbeat()
	if gotID != wantID {
		t.Fatalf("%s: memo heartbeat %+v, scan %+v", data, gotID, wantID)
	}
	gotID.cluster, gotID.addr, gotID.ok = got.brokerIdentity()
	wantID.cluster, wantID.addr, wantID.ok = want.brokerIdentity()
	if gotID != wantID {
		t.Fatalf("%s: memo data version identity %+v, scan %+v", data, gotID, wantID)
	}
}

// fromMemo says whether h's ext values are the memo's copies, not the frame's bytes.
func fromMemo(m *fastHeaderMemo, h fastHeader) bool {
	v := uintptr(unsafe.Pointer(unsafe.SliceData(h.ext.value[0])))
	for i := range m.entries {
		p := m.entries[i].prefix
		start := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
		if len(p) > 0 && v >= start && v < start+uintptr(len(p)) {
			return true
		}
	}
	return false
}

func TestHeaderMemoAnswersWhatTheScanWouldWithEveryOpaque(t *testing.T) {
	m := newFastHeaderMemo()
	for _, code := range []int32{BROKER_HEARTBEAT, QUERY_DATA_VERSION} {
		ext := brokerA
		if code == QUERY_DATA_VERSION {
			ext += `,"brokerId":"0"`
		}
		for i, opaque := range []int64{7, 8, -5, 1<<31 - 1, -(1 << 31), 0, 123456} {
			data := javaHeader(code, ext, opaque, 479)
			h, ok := m.scan(data)
			sameHeader(t, data, h, ok)
			if memo := fromMemo(m, h); memo != (i > 0) {
				t.Fatalf("code %d, header %d: taken from the memo %v", code, i, memo)
			}
		}
	}
}

func TestHeaderMemoScansWhatDiffersFromWhatItKeeps(t *testing.T) {
	// broker a and broker b in slots of their own: with a few seeds in 256
	// they share one, and the memo (rightly) keeps only the last of them
	m := memoKeepingApart(t, javaHeader(BROKER_HEARTBEAT, brokerA, 1, 479), javaHeader(BROKER_HEARTBEAT, brokerB, 1, 479))
	cases := []struct {
		name string
		data []byte
		memo bool // answered from the memo
	}{
		{"first of broker a", javaHeader(BROKER_HEARTBEAT, brokerA, 1, 479), false},
		{"broker a again", javaHeader(BROKER_HEARTBEAT, brokerA, 2, 479), true},
		{"broker b", javaHeader(BROKER_HEARTBEAT, brokerB, 3, 479), false},
		{"a with another version", javaHeader(BROKER_HEARTBEAT, brokerA, 4, 480), false},
		{"a with the version before", javaHeader(BROKER_HEARTBEAT, brokerA, 5, 479), true}, // in its second slot
		{"a with the other version again", javaHeader(BROKER_HEARTBEAT, brokerA, 5, 480), true},
		{"b again", javaHeader(BROKER_HEARTBEAT, brokerB, 6, 479), true},
		// past int32: the scan refuses it, and so does the memo
		{"opaque too large", javaHeader(BROKER_HEARTBEAT, brokerB, 1<<31, 479), false},
		{"opaque past ten digits", javaHeader(BROKER_HEARTBEAT, brokerB, 12345678901, 479), false},
		{"opaque with a leading zero", []byte(`{"code":904,"extFields":{` + brokerB + `},"flag":0,"language":"JAVA","opaque":007,"serializeTypeCurrentRPC":"JSON","version":479}`), true},
		{"quoted opaque", []byte(`{"code":904,"extFields":{` + brokerB + `},"flag":0,"language":"JAVA","opaque":"9","serializeTypeCurrentRPC":"JSON","version":479}`), false},
		{"one way", []byte(`{"code":904,"extFields":{` + brokerB + `},"flag":2,"language":"JAVA","opaque":9,"serializeTypeCurrentRPC":"JSON","version":479}`), false},
		{"escaped value", javaHeader(BROKER_HEARTBEAT, `"brokerAddr":"a\u0041","brokerName":"b","clusterName":"c"`, 1, 479), false},
		{"escaped value again", javaHeader(BROKER_HEARTBEAT, `"brokerAddr":"a\u0041","brokerName":"b","clusterName":"c"`, 2, 479), false},
		{"Go client's layout", []byte(`{"code":904,"language":"GO","version":317,"opaque":9,"flag":0,"extFields":{` + brokerA + `}}`), false},
		{"Go client's layout again", []byte(`{"code":904,"language":"GO","version":317,"opaque":10,"flag":0,"extFields":{` + brokerA + `}}`), false},
		{"longer than the memo keeps", javaHeader(BROKER_HEARTBEAT, `"brokerAddr":"`+strings.Repeat("a", maxMemoHeader)+`","brokerName":"b","clusterName":"c"`, 1, 479), false},
		{"longer than the memo keeps, again", javaHeader(BROKER_HEARTBEAT, `"brokerAddr":"`+strings.Repeat("a", maxMemoHeader)+`","brokerName":"b","clusterName":"c"`, 2, 479), false},
		{"route query", javaHeader(GET_ROUTEINFO_BY_TOPIC, `"topic":"T"`, 1, 479), false},
		{"route query again", javaHeader(GET_ROUTEINFO_BY_TOPIC, `"topic":"T"`, 2, 479), false},
	}
	for _, c := range cases {
		h, ok := m.scan(c.data)
		sameHeader(t, c.data, h, ok)
		if memo := ok && h.ext.n > 0 && fromMemo(m, h); memo != c.memo {
			t.Errorf("%s: taken from the memo %v, want %v", c.name, memo, c.memo)
		}
	}
}

// memoKeepingApart is a memo whose seed puts each of headers (in Java's
// layout) in two slots of its own.
func memoKeepingApart(t *testing.T, headers ...[]byte) *fastHeaderMemo {
	t.Helper()
	for range 100 {
		m := newFastHeaderMemo()
		slots := map[uint64]bool{}
		for _, data := range headers {
			start, _, found := javaOpaqueSpan(data)
			if !found {
				t.Fatalf("%s is not in Java's layout", data)
			}
			first, second := memoSlots(maphash.Bytes(m.seed, data[:start]))
			slots[first], slots[second] = true, true
		}
		if len(slots) == 2*len(headers) {
			return m
		}
	}
	t.Fatal("no seed keeps the headers apart")
	return nil
}

// A memo entry is two headers' worth of bytes at most, kept in the slot
// of its hash: many brokers through one memo stay correct.
func TestHeaderMemoStaysRightForMoreBrokersThanItKeeps(t *testing.T) {
	m := newFastHeaderMemo()
	for round := range 3 {
		for b := range 4 * fastHeaderMemoSize {
			ext := `"brokerAddr":"10.0.0.` + strconv.Itoa(b) + `:10911","brokerName":"b` + strconv.Itoa(b) + `","clusterName":"c"`
			data := javaHeader(BROKER_HEARTBEAT, ext, int64(round*100000+b), 479)
			h, ok := m.scan(data)
			sameHeader(t, data, h, ok)
		}
	}
}

// Each event loop has a memo of its own, and a connection served by a
// goroutine (TLS) has none.
func TestEachEventLoopHasItsOwnHeaderMemo(t *testing.T) {
	s := &Server{}
	var loops [2]struct{ gnet.EventLoop }
	memo := func(loop gnet.EventLoop) *fastHeaderMemo { return s.loopStateOf(loop).headerMemo() }
	a, b := memo(&loops[0]), memo(&loops[1])
	if a == nil || b == nil || a == b || memo(&loops[0]) != a {
		t.Fatalf("memos %p %p, again %p", a, b, memo(&loops[0]))
	}
	if m := memo((&netConn{}).EventLoop()); m != nil {
		t.Fatalf("a goroutine's connection got memo %p", m)
	}
}

// Heartbeats of two brokers taking turns on one connection, each with an
// opaque of its own: every answer carries its request's opaque, and the
// handler sees each request's broker.
func TestAlternatingBrokersGetTheirOwnAnswersThroughTheMemo(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	s := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(BROKER_HEARTBEAT, func(_ *Conn, req *Command) *Command { return NewResponse(req, SYSTEM_ERROR, "normal path") })
		s.HandleFastHeartbeat(func(_, addr string, _ int64) bool {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, addr)
			return true
		})
	})
	c := dialRaw(t, s)
	addrs := []string{"127.0.0.1:10911", "127.0.0.1:10921"}
	const n = 40
	var batch []byte
	for i := range n {
		req := NewRequest(BROKER_HEARTBEAT, map[string]string{"clusterName": "c", "brokerAddr": addrs[i%2], "brokerName": "b"}, nil)
		req.Language, req.Version, req.Opaque = JAVA, 479, int32(1000+i*7)
		batch = append(batch, mustEncode(t, req)...)
	}
	c.write(batch)
	for i := range n {
		resp := c.read()
		if resp.Code != SUCCESS || resp.Opaque != int32(1000+i*7) {
			t.Fatalf("answer %d: code %d opaque %d, want success with %d", i, resp.Code, resp.Opaque, 1000+i*7)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for i, addr := range seen {
		if addr != addrs[i%2] {
			t.Fatalf("heartbeat %d was taken as %s's, want %s's", i, addr, addrs[i%2])
		}
	}
	if len(seen) != n {
		t.Fatalf("%d heartbeats handled, want %d", len(seen), n)
	}
}

func FuzzFastHeaderMemoAgreesWithTheScan(f *testing.F) {
	f.Add(javaHeader(BROKER_HEARTBEAT, brokerA, 1, 479), javaHeader(BROKER_HEARTBEAT, brokerA, 2, 479), int32(3))
	f.Add(javaHeader(QUERY_DATA_VERSION, brokerA+`,"brokerId":"0"`, -1, 479), javaHeader(QUERY_DATA_VERSION, brokerB+`,"brokerId":"0"`, 2, 479), int32(-9))
	f.Add([]byte(`{"code":904,"opaque":1,"opaque":2,"extFields":{"brokerAddr":"a","brokerName":"b","clusterName":"c"},"flag":0,"language":"JAVA","opaque":3,"serializeTypeCurrentRPC":"JSON","version":1}`),
		[]byte(`{"code":904,"extFields":{},"flag":0,"opaque":5,"serializeTypeCurrentRPC":"JSON","version":1}`), int32(0))
	f.Fuzz(func(t *testing.T, first, second []byte, opaque int32) {
		m := newFastHeaderMemo()
		h, ok := m.scan(first)
		sameHeader(t, first, h, ok)
		// first again with another opaque, as its broker would send it
		if start, end, found := javaOpaqueSpan(first); found {
			again := append(append(append([]byte{}, first[:start]...), strconv.Itoa(int(opaque))...), first[end:]...)
			h, ok = m.scan(again)
			sameHeader(t, again, h, ok)
		}
		h, ok = m.scan(second)
		sameHeader(t, second, h, ok)
	})
}

// BenchmarkFastHeaderMemo is a broker's heartbeat taken from the memo
// (against BenchmarkScanFastHeader/heartbeat, the same header scanned).
func BenchmarkFastHeaderMemo(b *testing.B) {
	benchmarkMemo(b, [2][]byte{javaHeader(BROKER_HEARTBEAT, brokerA, 123456, 479), javaHeader(BROKER_HEARTBEAT, brokerA, 123457, 479)})
}

// benchmarkMemo reads the two headers in turn through one memo, as the fast
// path does, after the first was scanned once.
func benchmarkMemo(b *testing.B, headers [2][]byte) {
	m := newFastHeaderMemo()
	var h fastHeader
	if !m.scanTo(headers[0], &h) {
		b.Fatal("not taken")
	}
	i := 0
	for b.Loop() {
		i ^= 1
		if !m.scanTo(headers[i], &h) {
			b.Fatal("not taken")
		}
	}
}
