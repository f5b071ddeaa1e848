package remoting

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// routeBody is what both paths of these tests answer for topic.
func routeBody(topic string) []byte { return []byte(`{"route":"` + topic + `"}`) }

// fastServer answers GET_ROUTEINFO_BY_TOPIC with routeBody on the normal
// path and, with fast set, also on the fast path, counting fast answers.
func fastServer(t *testing.T, fast bool, fastAnswers *atomic.Int32) *Server {
	return startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(GET_ROUTEINFO_BY_TOPIC, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = routeBody(req.ExtFields["topic"])
			return resp
		})
		s.Handle(BROKER_HEARTBEAT, func(_ *Conn, req *Command) *Command { return NewResponse(req, SUCCESS, "") })
		s.Handle(QUERY_DATA_VERSION, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.ExtFields = map[string]string{"changed": strconv.FormatBool(len(req.Body) == 0)}
			resp.Body = req.Body
			return resp
		})
		if fast {
			s.HandleFastRoute(func(q FastRouteQuery, dst []byte) ([]byte, bool) {
				if q.Topic == "declined" {
					return dst, false
				}
				fastAnswers.Add(1)
				return append(dst, routeBody(q.Topic)...), true
			})
			s.HandleFastHeartbeat(func(cluster, addr string, _ int64) bool {
				fastAnswers.Add(1)
				return cluster == "c"
			})
			s.HandleFastDataVersion(func(_, _ string, body []byte, _ int64) ([]byte, bool, bool) {
				fastAnswers.Add(1)
				return bytes.Clone(body), len(body) == 0, true
			})
		}
	})
}

func TestFastRouteAnswersTheSameBytesAsTheNormalPath(t *testing.T) {
	requests := map[string]*Command{}
	plain := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T1"}, nil)
	plain.Language, plain.Version, plain.Opaque = JAVA, 479, 77
	requests["plain"] = plain
	standard := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T2", "acceptStandardJsonOnly": "true"}, nil)
	standard.Opaque = 1<<31 - 1
	requests["accept standard"] = standard
	escaped := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "a\"b"}, nil)
	requests["escaped topic"] = escaped
	declined := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "declined"}, nil)
	requests["declined"] = declined
	other := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T3", "__ZONE_MODE": "true"}, nil)
	requests["other ext field"] = other
	remark := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T4"}, nil)
	remark.Remark = "r"
	requests["remark"] = remark
	binary := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T5"}, nil)
	binary.SerializeType = ROCKETMQ
	requests["binary"] = binary
	requests["heartbeat"] = NewRequest(BROKER_HEARTBEAT, map[string]string{"clusterName": "c", "brokerAddr": "a", "brokerName": "b"}, nil)
	identity := map[string]string{"clusterName": "c", "brokerAddr": "a", "brokerName": "b", "brokerId": "0"}
	requests["data version"] = NewRequest(QUERY_DATA_VERSION, identity, []byte(`{"counter":1}`))
	requests["data version without body"] = NewRequest(QUERY_DATA_VERSION, identity, nil)
	requests["declined heartbeat"] = NewRequest(BROKER_HEARTBEAT, map[string]string{"clusterName": "other", "brokerAddr": "a", "brokerName": "b"}, nil)
	for name, req := range map[string]*Command{
		"binary heartbeat": requests["heartbeat"], "binary data version": requests["data version"],
		"binary data version without body": requests["data version without body"],
	} {
		bin := *req
		bin.SerializeType = ROCKETMQ
		requests[name] = &bin
	}
	oneway := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T6"}, nil)
	oneway.MarkOneway()
	binaryOneway := *oneway
	binaryOneway.SerializeType = ROCKETMQ
	// Java brokers send heartbeats and data version queries one-way: the
	// fast path does the work and answers nothing
	onewayHeartbeat := *requests["heartbeat"]
	onewayHeartbeat.MarkOneway()
	onewayDataVersion := *requests["binary data version"]
	onewayDataVersion.MarkOneway()

	var fastCount, none atomic.Int32
	normal := dialRaw(t, fastServer(t, false, &none))
	fast := dialRaw(t, fastServer(t, true, &fastCount))
	frames := map[string][]byte{}
	for name, req := range requests {
		frames[name] = mustEncode(t, req)
	}
	// rocketmq-client-go's layout: keys in its struct's order, an empty remark
	frames["Go client"] = rawJSONFrame(`{"code":105,"language":"GO","version":317,"opaque":12,"flag":0,"remark":"","extFields":{"topic":"T7"}}`)
	frames["language as a number"] = rawJSONFrame(`{"code":105,"extFields":{"topic":"T8"},"flag":0,"language":0,"opaque":13,"version":479}`)
	for name, frame := range frames {
		// several in one write, as pipelining clients send them
		batch := bytes.Repeat(frame, 3)
		normal.write(batch)
		fast.write(batch)
		for i := range 3 {
			want, got := normal.readFrameBytes(), fast.readFrameBytes()
			if !bytes.Equal(want, got) {
				t.Fatalf("%s #%d: fast path wrote\n%q\nthe normal path\n%q", name, i, got, want)
			}
		}
	}
	// a one-way request is never answered: the next answer is the next request's
	var onewayBatch []byte
	for _, req := range []*Command{oneway, &binaryOneway, &onewayHeartbeat, &onewayDataVersion, plain} {
		onewayBatch = append(onewayBatch, mustEncode(t, req)...)
	}
	before := fastCount.Load()
	fast.write(onewayBatch)
	if got := fast.read(); got.Opaque != plain.Opaque {
		t.Fatalf("answer after one-way requests: %+v", got)
	}
	if n := fastCount.Load() - before; n != 3 {
		t.Fatalf("%d fast handler calls for the one-way batch, want 3 (heartbeat, data version, the plain query)", n)
	}
	// plain, accept standard, escaped topic, remark, Go client, language as
	// a number, binary, both heartbeats (the declined one counted too), both
	// data versions, and the binary heartbeat and data versions three times
	// each, then the one-way heartbeat and data version and the last plain
	if n := fastCount.Load(); n != 3*14+3 || none.Load() != 0 {
		t.Fatalf("%d answers on the fast path, want 45", n)
	}
}

// TestFastHandlersAreGivenTheAnswersClockReading: the now a heartbeat and a
// data version handler get is a monotonic reading taken after the request
// was sent and before its answer came, for each of several requests of one
// write (the batch's readings are chained).
func TestFastHandlersAreGivenTheAnswersClockReading(t *testing.T) {
	var mu sync.Mutex
	var readings []int64
	record := func(now int64) {
		mu.Lock()
		defer mu.Unlock()
		readings = append(readings, now)
	}
	srv := startServer(t, ServerConfig{}, func(s *Server) {
		s.HandleFastHeartbeat(func(_, _ string, now int64) bool { record(now); return true })
		s.HandleFastDataVersion(func(_, _ string, body []byte, now int64) ([]byte, bool, bool) {
			record(now)
			return nil, false, true
		})
	})
	conn := dialRaw(t, srv)
	identity := map[string]string{"clusterName": "c", "brokerAddr": "a", "brokerName": "b", "brokerId": "0"}
	heartbeat := mustEncode(t, NewRequest(BROKER_HEARTBEAT, map[string]string{"clusterName": "c", "brokerAddr": "a", "brokerName": "b"}, nil))
	dataVersion := mustEncode(t, NewRequest(QUERY_DATA_VERSION, identity, []byte(`{"counter":1}`)))
	before := monotonicNanos()
	conn.write(append(append(bytes.Clone(heartbeat), dataVersion...), heartbeat...))
	for range 3 {
		conn.readFrameBytes()
	}
	after := monotonicNanos()
	mu.Lock()
	defer mu.Unlock()
	if len(readings) != 3 {
		t.Fatalf("%d fast answers, want 3", len(readings))
	}
	for i, now := range readings {
		if now < before || now > after || i > 0 && now < readings[i-1] {
			t.Fatalf("reading %d: %d, outside [%d, %d] or before the one ahead of it (%v)", i, now, before, after, readings)
		}
	}
}

// rawJSONFrame frames a JSON header as written, without a body.
func rawJSONFrame(header string) []byte {
	frame := binary.BigEndian.AppendUint32(nil, uint32(4+len(header)))
	frame = binary.BigEndian.AppendUint32(frame, uint32(len(header)))
	return append(frame, header...)
}

func TestFastHeaderScanTakesOnlyPlainRouteQueriesAndHeartbeats(t *testing.T) {
	accepted := []string{
		`{"code":105,"extFields":{"topic":"T"},"flag":0,"language":"JAVA","opaque":5,"serializeTypeCurrentRPC":"JSON","version":479}`,
		` { "opaque" : 5 , "code" : 105 , "extFields" : { "topic" : "T" , "acceptStandardJsonOnly" : "false" } } `,
		// the Go client's layout, with its empty remark
		`{"code":105,"language":"GO","version":317,"opaque":5,"flag":0,"remark":"","extFields":{"topic":"T"}}`,
		`{"code":105,"extFields":{"topic":"T"},"opaque":5,"remark":"x\u0041"}`,
		`{"code":105,"extFields":{"topic":"T"},"opaque":5,"remark":null}`,
		// a language given as its ordinal, or null
		`{"code":105,"extFields":{"topic":"T"},"language":0,"opaque":5}`,
		`{"code":105,"extFields":{"topic":"T"},"language":null,"opaque":5}`,
	}
	for _, header := range accepted {
		h, ok := scanFastHeader([]byte(header))
		q, isRoute := h.routeQuery()
		if !ok || !isRoute || h.opaque != 5 || q.Topic != "T" {
			t.Errorf("%s: %+v %v", header, h, ok)
		}
	}
	refused := []string{
		`{"code":105,"extFields":{"topic":"T"},"flag":2,"opaque":5}`,      // one-way
		`{"code":105,"extFields":{"topic":"T"},"flag":1,"opaque":5}`,      // a response
		`{"code":106,"extFields":{"topic":"T"},"opaque":5}`,               // another code
		`{"code":105,"extFields":{"topic":""},"opaque":5}`,                // no topic
		`{"code":105,"extFields":{"topic":"T"}}`,                          // no opaque
		`{"code":105,"extFields":{"topic":"T"},"opaque":5,"remark":1}`,    // a remark the decoder refuses
		`{"code":105,"extFields":{"topic":"T"},"opaque":5,"remark":"\x"}`, // a bad escape
		`{"code":105,"extFields":{"topic":"T"},"opaque":5,"language":[]}`, // a language the decoder refuses
		`{"code":105,"extFields":{"topic":"T","acceptStandardJsonOnly":"yes"},"opaque":5}`,
		`{"code":105,"extFields":{"topic":1},"opaque":5}`,
		`{"code":105,"extFields":{"topic":"T"},"opaque":5} x`,
		`{"code":105,"extFields":{"topic":"T"},"opaque":5,}`,
		`{"code":105 "opaque":5}`,
		`[]`,
		``,
	}
	for _, header := range refused {
		h, ok := scanFastHeader([]byte(header))
		if _, isRoute := h.routeQuery(); ok && isRoute {
			t.Errorf("%s: taken: %+v", header, h)
		}
	}
	heartbeats := map[string]bool{
		`{"code":904,"extFields":{"brokerAddr":"a","brokerName":"b","clusterName":"c"},"flag":0,"opaque":1}`: true,
		`{"code":904,"extFields":{"brokerAddr":"a","brokerName":"b"},"flag":0,"opaque":1}`:                   false,
		`{"code":904,"extFields":{"brokerAddr":"a","brokerName":"b","clusterName":""},"opaque":1}`:           false,
		`{"code":904,"extFields":{"brokerAddr":"a","brokerName":"b","clusterName":"c","x":"y"},"opaque":1}`:  false,
		`{"code":105,"extFields":{"brokerAddr":"a","brokerName":"b","clusterName":"c"},"opaque":1}`:          false,
		`{"code":904,"extFields":{"a":"1","b":"2","c":"3","d":"4","e":"5"},"opaque":1}`:                      false,
	}
	for header, want := range heartbeats {
		h, ok := scanFastHeader([]byte(header))
		cluster, addr, isHeartbeat := h.heartbeat()
		if got := ok && isHeartbeat; got != want || got && (cluster != "c" || addr != "a") {
			t.Errorf("%s: heartbeat %v (%q %q), want %v", header, got, cluster, addr, want)
		}
	}
}

// binaryHeader encodes a binary request header by hand, ext entries in the
// order given (pairs of key and value), so a test can write what the
// encoder never would.
func binaryHeader(code int16, flag int32, remark string, ext ...string) []byte {
	h := binary.BigEndian.AppendUint16(nil, uint16(code))
	h = append(h, byte(JAVA))
	h = binary.BigEndian.AppendUint16(h, 479)
	h = binary.BigEndian.AppendUint32(h, 77)
	h = binary.BigEndian.AppendUint32(h, uint32(flag))
	h = binary.BigEndian.AppendUint32(h, uint32(len(remark)))
	h = append(h, remark...)
	var area []byte
	for i := 0; i+1 < len(ext); i += 2 {
		area = binary.BigEndian.AppendUint16(area, uint16(len(ext[i])))
		area = append(area, ext[i]...)
		area = binary.BigEndian.AppendUint32(area, uint32(len(ext[i+1])))
		area = append(area, ext[i+1]...)
	}
	h = binary.BigEndian.AppendUint32(h, uint32(len(area)))
	return append(h, area...)
}

func TestFastBinaryScanTakesWhatTheJSONScanTakes(t *testing.T) {
	for _, header := range [][]byte{
		binaryHeader(105, 0, "", "topic", "T"),
		binaryHeader(105, 0, "a remark", "acceptStandardJsonOnly", "true", "topic", "T"),
		append(binaryHeader(105, 0, "", "topic", "T"), 9, 9), // bytes after the ext area: ignored, as the decoder does
	} {
		h, ok := scanFastBinaryHeader(header)
		q, isRoute := h.routeQuery()
		if !ok || !isRoute || h.opaque != 77 || h.version != 479 || q.Topic != "T" {
			t.Errorf("%q: %+v %v", header, h, ok)
		}
	}
	refused := map[string][]byte{
		"one-way":             binaryHeader(105, 2, "", "topic", "T"),
		"a response":          binaryHeader(105, 1, "", "topic", "T"),
		"an empty value":      binaryHeader(105, 0, "", "topic", ""),
		"a repeated key":      binaryHeader(105, 0, "", "topic", "T", "topic", "U"),
		"five ext fields":     binaryHeader(105, 0, "", "topic", "T", "a", "1", "b", "2", "c", "3", "d", "4"),
		"another ext field":   binaryHeader(105, 0, "", "topic", "T", "lo", "x"),
		"short":               binaryHeader(105, 0, "")[:binaryFixedSize-1],
		"remark past the end": binaryHeader(105, 0, "abc")[:binaryFixedSize+1],
		"ext past the end":    binaryHeader(105, 0, "", "topic", "TT")[:binaryFixedSize+8],
	}
	for name, header := range refused {
		h, ok := scanFastBinaryHeader(header)
		if _, isRoute := h.routeQuery(); ok && isRoute {
			t.Errorf("%s: taken: %+v", name, h)
		}
	}
	h, ok := scanFastBinaryHeader(binaryHeader(904, 0, "", "clusterName", "c", "brokerAddr", "a", "brokerName", "b"))
	if cluster, addr, isHeartbeat := h.heartbeat(); !ok || !isHeartbeat || cluster != "c" || addr != "a" {
		t.Errorf("binary heartbeat: %+v %v", h, ok)
	}
}

// The binary scan takes a header only when the decoder reads the same
// code, opaque, flag, version and ext fields from it.
func FuzzFastBinaryHeaderAgreesWithTheDecoder(f *testing.F) {
	f.Add(binaryHeader(105, 0, "", "topic", "T"))
	f.Add(binaryHeader(322, 0, "r", "brokerId", "0", "brokerAddr", "a", "brokerName", "b", "clusterName", "c"))
	f.Add(binaryHeader(105, 0, "", "topic", ""))
	f.Fuzz(func(t *testing.T, data []byte) {
		scanAgreesWithDecoder(t, data, scanFastBinaryHeader, decodeBinaryHeader)
	})
}

// The fast scan takes a header only when the full decoder reads the same
// code, opaque, flag, version and ext fields from it.
func FuzzFastHeaderAgreesWithTheDecoder(f *testing.F) {
	for _, seed := range []string{
		`{"code":105,"extFields":{"topic":"T"},"flag":0,"language":"JAVA","opaque":5,"serializeTypeCurrentRPC":"JSON","version":479}`,
		`{"code":904,"extFields":{"brokerName":"b","clusterName":"c","brokerAddr":"a"},"flag":0,"language":"JAVA","opaque":-3,"serializeTypeCurrentRPC":"JSON","version":479}`,
		`{"code":322,"language":"GO","version":317,"opaque":9,"flag":0,"extFields":{"brokerId":"0","brokerAddr":"a","brokerName":"b","clusterName":"c"}}`,
		` { "opaque" : 5 , "code" : 105 , "extFields" : { "topic" : "T\u0041" } } `,
		`{"code":105,"code":106,"extFields":{"topic":"T"},"opaque":5}`,
		`{"code":105,"language":"GO","version":317,"opaque":5,"flag":0,"remark":"","extFields":{"topic":"T"}}`,
		`{"code":105,"language":9,"opaque":5,"extFields":{"topic":"T"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) { scanAgreesWithDecoder(t, data, scanFastHeader, decodeJSONHeader) })
}

// scanAgreesWithDecoder fails t when scan takes data and decode refuses it
// or reads another code, opaque, flag, version or ext fields.
func scanAgreesWithDecoder(t *testing.T, data []byte, scan func([]byte) (fastHeader, bool), decode func([]byte, *Command) error) {
	h, ok := scan(data)
	if !ok {
		return
	}
	var cmd Command
	if err := decode(data, &cmd); err != nil {
		t.Fatalf("fast scan took %q, the decoder refuses it: %v", data, err)
	}
	if cmd.Code != h.code || cmd.Opaque != h.opaque || cmd.Flag != h.flag || cmd.Version != h.version || len(cmd.ExtFields) != h.ext.n {
		t.Fatalf("%q: fast %+v, decoded %+v", data, h, cmd)
	}
	for i := range h.ext.n {
		if v, found := cmd.ExtFields[string(h.ext.keys[i])]; !found || v != string(h.ext.value[i]) {
			t.Fatalf("%q: ext %q=%q, decoded %v", data, h.ext.keys[i], h.ext.value[i], cmd.ExtFields)
		}
	}
}

func BenchmarkScanFastHeader(b *testing.B) {
	for name, header := range map[string]string{
		"heartbeat": `{"code":904,"extFields":{"brokerAddr":"127.0.0.1:10911","brokerName":"broker-a","clusterName":"DefaultCluster"},"flag":0,"language":"JAVA","opaque":123456,"serializeTypeCurrentRPC":"JSON","version":479}`,
		"route":     `{"code":105,"extFields":{"topic":"TopicTest-0001"},"flag":0,"language":"JAVA","opaque":123456,"serializeTypeCurrentRPC":"JSON","version":479}`,
		"route-go":  `{"code":105,"language":"GO","version":317,"opaque":123456,"flag":0,"remark":"","extFields":{"topic":"TopicTest-0001"}}`,
	} {
		data := []byte(header)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, ok := scanFastHeader(data); !ok {
					b.Fatal("not taken")
				}
			}
		})
	}
}
