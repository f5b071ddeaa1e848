package remoting

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"time"
	"unsafe"

	"github.com/panjf2000/gnet/v2"
)

// FastRouteQuery is what the route fast path found in a GET_ROUTEINFO_BY_TOPIC
// request's header.
type FastRouteQuery struct {
	// Topic aliases the request's bytes: valid during the handler's call
	// only (a lookup key, never kept), as for FastHeartbeatHandler.
	Topic                  string
	Version                int32
	AcceptStandardJSONOnly bool
	// Signed says the query carries ACL credentials (AccessKey, Signature,
	// SecurityToken); Digest is then its Command.SignedDigest.
	Signed bool
	Digest SignedDigest
	// Conn is the connection the query came on.
	Conn *Conn
}

// FastRouteHandler appends the body of a route query's SUCCESS answer to
// dst and returns it, or returns ok false (and dst unchanged in length) to
// leave the request to the normal path: an unknown topic, a server not
// ready, anything the handler does not answer from its snapshot alone.
type FastRouteHandler func(q FastRouteQuery, dst []byte) (body []byte, ok bool)

// HandleFastRoute installs h for GET_ROUTEINFO_BY_TOPIC requests whose
// header, JSON or binary (ROCKETMQ), holds nothing but code, flag 0,
// language, opaque, version, remark, serializeTypeCurrentRPC and the ext
// fields topic and acceptStandardJsonOnly (what the Java and the Go clients
// send, a JSON header's keys in any order), with or without the ACL
// credentials AccessKey, Signature and SecurityToken (which h then checks:
// FastRouteQuery.Signed). For those the event loop reads
// the header straight from the frame, without a map or a Command, and
// writes the answer frame in place behind the other answers of the same
// read, from a header encoded once with only the opaque written: the same
// bytes the normal path writes. Every other request, and every one h
// declines, takes the normal path (handlers, GO_AWAY, memory limit), which
// answers it as before.
func (s *Server) HandleFastRoute(h FastRouteHandler) { s.fastRoute.Store(&h) }

// FastHeartbeatHandler records a BROKER_HEARTBEAT of the broker at addr in
// cluster and says true, or false to leave the request to the normal path.
// cluster and addr alias the request's bytes: they are valid during the
// call only (a lookup key, never kept), which spares two allocations per
// heartbeat. now is monotime.Nanotime when the answer began, the reading
// its handler time is measured from: a handler that needs the time takes
// it from there (monotime.Clock.At) instead of reading the clock again.
type FastHeartbeatHandler func(cluster, addr string, now int64) bool

// HandleFastHeartbeat installs h for BROKER_HEARTBEAT requests whose header
// (JSON or binary) carries the ext fields clusterName, brokerAddr and
// brokerName and nothing unusual (see HandleFastRoute); the answer is the
// plain SUCCESS the normal path writes.
func (s *Server) HandleFastHeartbeat(h FastHeartbeatHandler) { s.fastHeartbeat.Store(&h) }

// FastDataVersionHandler answers a QUERY_DATA_VERSION of the broker at addr
// in cluster whose body (the broker's data version, maybe empty) is given:
// it returns the answer's body, which the server only reads, and says
// whether the version changed, or ok false to leave the request to the
// normal path. cluster, addr and now are as for FastHeartbeatHandler.
type FastDataVersionHandler func(cluster, addr string, body []byte, now int64) (answer []byte, changed, ok bool)

// HandleFastDataVersion installs h for QUERY_DATA_VERSION requests whose
// header (JSON or binary) carries the ext fields brokerName, brokerAddr,
// clusterName and a numeric brokerId and nothing unusual (see
// HandleFastRoute); the answer is the SUCCESS with ext field changed that
// the normal path writes.
func (s *Server) HandleFastDataVersion(h FastDataVersionHandler) { s.fastDataVersion.Store(&h) }

// answerHeader is the header of a SUCCESS answer in one serialization, cut
// around the opaque (built once from the normal encoder): in JSON its
// digits, in the binary layout its four bytes.
type answerHeader struct {
	head, tail []byte
	serialize  SerializeType
}

// Answer headers of the fast path, indexed by serialize type (JSON,
// ROCKETMQ): no ext fields, and changed false / true. An answer is written
// in its request's serialization, as NewResponse does.
var (
	fastPlainAnswer   = [2]answerHeader{cutAnswerHeader(nil, JSON), cutAnswerHeader(nil, ROCKETMQ)}
	fastChangedAnswer = [2][2]answerHeader{
		{cutAnswerHeader(map[string]string{"changed": "false"}, JSON), cutAnswerHeader(map[string]string{"changed": "true"}, JSON)},
		{cutAnswerHeader(map[string]string{"changed": "false"}, ROCKETMQ), cutAnswerHeader(map[string]string{"changed": "true"}, ROCKETMQ)},
	}
)

func cutAnswerHeader(ext map[string]string, serialize SerializeType) answerHeader {
	const sentinel = 987654321
	resp := NewResponse(&Command{SerializeType: serialize, Opaque: sentinel}, SUCCESS, "")
	resp.ExtFields = ext
	resp.MarkResponse()
	frame, err := Encode(resp)
	if err != nil {
		panic(err)
	}
	header := frame[frameLengthSize+headerWordSize:]
	if serialize == ROCKETMQ {
		return answerHeader{head: header[:BinaryOpaqueAt], tail: header[BinaryOpaqueAt+4:], serialize: serialize}
	}
	digits := strconv.AppendInt(nil, sentinel, 10)
	at := bytes.Index(header, digits)
	return answerHeader{head: header[:at], tail: header[at+len(digits):], serialize: serialize}
}

// fastFrame answers the next frame of gnetConn on the fast path when it is
// a route query or a heartbeat the fast path takes, appending the answer
// frame to out;
// handled false leaves the frame untouched for the normal path.
//
// clock chains the handler-latency readings of one batch: when not 0 it is
// the time the previous fast answer was done, which is when this one
// starts, and it is set to when this one is done; one clock reading per
// answer instead of two (the clock is 3-5% of a heartbeat's CPU on a
// virtual machine). The caller zeroes it after any other work.
func (s *Server) fastFrame(conn *Conn, gnetConn gnet.Conn, out []byte, clock *int64) (_ []byte, handled bool) {
	route, heartbeat, dataVersion := s.fastRoute.Load(), s.fastHeartbeat.Load(), s.fastDataVersion.Load()
	if route == nil && heartbeat == nil && dataVersion == nil || conn.assembly != nil || s.goingAway.Load() {
		return out, false
	}
	buffered := gnetConn.InboundBuffered()
	if buffered < frameLengthSize+headerWordSize {
		return out, false
	}
	head, err := gnetConn.Peek(frameLengthSize + headerWordSize)
	if err != nil {
		return out, false
	}
	total := frameLengthSize + int(binary.BigEndian.Uint32(head))
	word := binary.BigEndian.Uint32(head[frameLengthSize:])
	headerEnd := frameLengthSize + headerWordSize + int(word&maxHeaderLength)
	// JSON or binary, whole in the buffer, below the large-frame size
	serialize := SerializeType(word >> 24)
	if serialize != JSON && serialize != ROCKETMQ || headerEnd > total || total > buffered || total >= largeFrameSize {
		return out, false
	}
	frame, err := gnetConn.Peek(total)
	if err != nil {
		return out, false
	}
	started := *clock
	if started == 0 {
		started = monotonicNanos()
	}
	var header fastHeader
	var ok bool
	if serialize == JSON {
		ok = conn.loop.headerMemo().scanTo(frame[frameLengthSize+headerWordSize:headerEnd], &header)
	} else {
		header, ok = scanFastBinaryHeader(frame[frameLengthSize+headerWordSize : headerEnd])
	}
	if !ok {
		return out, false
	}
	body := frame[headerEnd:]
	answerHead := &fastPlainAnswer[serialize]
	var answerBody []byte
	switch {
	case header.code == GET_ROUTEINFO_BY_TOPIC && route != nil && len(body) == 0:
		q, isRoute := header.routeQuery()
		if !isRoute {
			return out, false
		}
		q.Conn = conn
		q.Digest, q.Signed = header.signedDigest(conn.loop.keyScratch())
		start := len(out)
		out = appendAnswerHeader(out, answerHead, header.opaque)
		bodyStart := len(out)
		if out, ok = (*route)(q, out); !ok {
			return out[:start], false
		}
		out = finishFast(gnetConn, out, answerHead, start, bodyStart, total)
		s.answeredFast(header.code, started, clock, len(out)-start)
		return out, true
	case header.code == BROKER_HEARTBEAT && heartbeat != nil && len(body) == 0:
		cluster, addr, isHeartbeat := header.heartbeat()
		if !isHeartbeat || !(*heartbeat)(cluster, addr, started) {
			return out, false
		}
	case header.code == QUERY_DATA_VERSION && dataVersion != nil:
		cluster, addr, isQuery := header.brokerIdentity()
		if !isQuery {
			return out, false
		}
		var changed bool
		if answerBody, changed, ok = (*dataVersion)(cluster, addr, body, started); !ok {
			return out, false
		}
		answerHead = &fastChangedAnswer[serialize][0]
		if changed {
			answerHead = &fastChangedAnswer[serialize][1]
		}
	default:
		return out, false
	}
	if header.flag == flagOneway {
		// the handler's work done, nothing to answer (as appendResponse)
		_, _ = gnetConn.Discard(total)
		s.answeredFast(header.code, started, clock, 0)
		return out, true
	}
	start := len(out)
	out = appendAnswerHeader(out, answerHead, header.opaque)
	bodyStart := len(out)
	out = finishFast(gnetConn, append(out, answerBody...), answerHead, start, bodyStart, total)
	s.answeredFast(header.code, started, clock, len(out)-start)
	return out, true
}

// answeredFast counts a fast answer like the normal path's answers
// (Observer.Answered) and moves the batch's clock to its end.
func (s *Server) answeredFast(code int32, started int64, clock *int64, frameBytes int) {
	done := monotonicNanos()
	*clock = done
	s.observe().Answered(code, SUCCESS, time.Duration(done-started), frameBytes)
}

// appendAnswerHeader appends the length words (patched by finishFast) and
// the answer header with opaque.
func appendAnswerHeader(out []byte, h *answerHeader, opaque int32) []byte {
	out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)
	out = append(out, h.head...)
	if h.serialize == ROCKETMQ {
		out = binary.BigEndian.AppendUint32(out, uint32(opaque))
	} else {
		out = strconv.AppendInt(out, int64(opaque), 10)
	}
	return append(out, h.tail...)
}

// finishFast patches the length words of the answer frame of header h that
// starts at start, its body at bodyStart, and drops the request of
// requestSize bytes.
func finishFast(gnetConn gnet.Conn, out []byte, h *answerHeader, start, bodyStart, requestSize int) []byte {
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-frameLengthSize))
	binary.BigEndian.PutUint32(out[start+frameLengthSize:], uint32(h.serialize)<<24|uint32(bodyStart-start-frameLengthSize-headerWordSize))
	_, _ = gnetConn.Discard(requestSize)
	return out
}

// fastHeader is what the fast path reads of a request header.
type fastHeader struct {
	code, flag, opaque, version int32
	haveCode, haveOpaque        bool
	// opaqueStart and opaqueEnd are where the opaque's value is in the
	// header (the last one, if it came twice), for fastHeaderMemo.
	opaqueStart, opaqueEnd int
	ext                    fastExtFields
	// identity is the broker that heartbeat or brokerIdentity finds for a
	// header of code identity.code, when the memo found it already.
	identity knownIdentity
	// signed is the SignedDigest of a bodiless request and hasSigned
	// whether it carries credentials, when signedKnown says the memo found
	// them already.
	signed                 SignedDigest
	signedKnown, hasSigned bool
}

// knownIdentity is a broker identity found once for a remembered header.
type knownIdentity struct {
	code          int32 // 0: not known
	cluster, addr string
	ok            bool
}

// javaHeaderKeys and goHeaderKeys are a request header's keys, with their
// quotes and colon, in the orders the clients write them: Java's (name
// order) and the Go client's (its struct's field order); both begin with
// code. At each key the scan first tries the key each order would write
// next, a comparison of a few bytes instead of a string read and a switch;
// a key neither expects is read as any key.
var (
	javaHeaderKeys = [...]string{`"code":`, `"extFields":`, `"flag":`, `"language":`, `"opaque":`,
		`"serializeTypeCurrentRPC":`, `"version":`}
	goHeaderKeys = [...]string{`"code":`, `"language":`, `"version":`, `"opaque":`, `"flag":`, `"remark":`, `"extFields":`}
)

func hasPrefixString(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// scanFastHeader reads a JSON request header without building a map; ok is
// false for anything unusual (unknown keys, more than maxFastExtFields ext
// fields or a value that is not a string, a flag other than 0 or one-way),
// which the normal path then decodes.
func scanFastHeader(data []byte) (h fastHeader, ok bool) {
	s := jsonScanner{data: data}
	s.skipSpace()
	if !s.consume('{') {
		return h, false
	}
	nextJava, nextGo := 0, 0 // the index of the key each order writes next
	for first := true; ; first = false {
		s.skipSpace()
		if s.consume('}') {
			break
		}
		if !first && !s.consume(',') {
			return h, false
		}
		s.skipSpace()
		var key []byte
		var err error
		size := 0
		switch rest := s.data[s.pos:]; {
		case nextJava < len(javaHeaderKeys) && hasPrefixString(rest, javaHeaderKeys[nextJava]):
			size = len(javaHeaderKeys[nextJava])
			nextJava++
			if nextJava == 1 {
				nextGo = 1 // code, where both orders begin
			}
		case nextGo < len(goHeaderKeys) && hasPrefixString(rest, goHeaderKeys[nextGo]):
			size = len(goHeaderKeys[nextGo])
			nextGo++
		}
		if size > 0 {
			// a key where a client's order puts it: its name is in the frame already
			key = s.data[s.pos+1 : s.pos+size-2]
			s.pos += size
		} else {
			key, err = s.readStringBytes()
			s.skipSpace()
			if err != nil || !s.consume(':') {
				return h, false
			}
		}
		s.skipSpace()
		switch string(key) {
		case "code":
			h.code, err = s.readInt32()
			h.haveCode = true
		case "flag":
			h.flag, err = s.readInt32()
		case "opaque":
			h.opaqueStart = s.pos
			h.opaque, err = s.readInt32()
			h.opaqueEnd, h.haveOpaque = s.pos, true
		case "version":
			h.version, err = s.readInt32()
		case "language":
			if s.pos < len(s.data) && s.data[s.pos] == '"' {
				_, err = s.readStringBytes() // the name answers nothing
			} else {
				_, err = s.readLanguage() // an ordinal or null, read as the decoder reads it
			}
		case "serializeTypeCurrentRPC":
			_, err = s.readStringBytes()
		case "remark":
			// a request's remark answers nothing (the Go client always
			// sends an empty one); read as the decoder reads it
			if !s.consumeLiteral("null") {
				_, err = s.readStringBytes()
			}
		case "extFields":
			if !s.readFastExtFields(&h.ext) {
				return h, false
			}
		default:
			return h, false
		}
		if err != nil {
			return h, false
		}
	}
	s.skipSpace()
	return h, s.pos == len(data) && h.haveCode && h.haveOpaque && plainFlag(h.flag)
}

// scanFastBinaryHeader reads a binary (ROCKETMQ) request header as
// decodeBinaryHeader does, without building a map; ok is false for what the
// JSON scan also leaves to the normal path (a flag other than 0 or one-way,
// more than maxFastExtFields ext fields, a repeated key) and for an empty
// key or value, which the decoder drops as absent.
func scanFastBinaryHeader(data []byte) (h fastHeader, ok bool) {
	if len(data) < binaryFixedSize {
		return h, false
	}
	h.code = int32(int16(binary.BigEndian.Uint16(data)))
	h.version = int32(int16(binary.BigEndian.Uint16(data[3:])))
	h.opaque = int32(binary.BigEndian.Uint32(data[BinaryOpaqueAt:]))
	h.flag = int32(binary.BigEndian.Uint32(data[BinaryOpaqueAt+4:]))
	h.haveCode, h.haveOpaque = true, true
	h.opaqueStart, h.opaqueEnd = BinaryOpaqueAt, BinaryOpaqueAt+4
	_, rest, err := takeSized(data[BinaryOpaqueAt+8:], 4) // the remark answers nothing
	if err != nil {
		return h, false
	}
	area, _, err := takeSized(rest, 4) // bytes after the area are ignored, as the decoder does
	if err != nil {
		return h, false
	}
	f := &h.ext
	for len(area) > 0 {
		key, rest, err := takeSized(area, 2)
		if err != nil {
			return h, false
		}
		value, rest, err := takeSized(rest, 4)
		if err != nil || len(key) == 0 || len(value) == 0 || f.n == maxFastExtFields || checkExtEntry(f.n, len(key), len(value)) != nil {
			return h, false
		}
		if _, repeated := f.get(aliasString(key)); repeated {
			return h, false
		}
		f.keys[f.n], f.value[f.n] = key, value
		f.n++
		area = rest
	}
	return h, plainFlag(h.flag)
}

// plainFlag says whether a request's flag is one the fast path takes: 0, or
// one-way alone, which Java brokers set on their heartbeats and data version
// queries (BrokerOuterAPI sends both with invokeOneway); the fast path then
// does the handler's work and answers nothing, as the normal path does.
func plainFlag(flag int32) bool { return flag == 0 || flag == flagOneway }

// routeQuery is the route query of a header the fast path takes: two-way
// only (a one-way route query answers nothing and costs the normal path
// nothing worth saving).
func (h *fastHeader) routeQuery() (FastRouteQuery, bool) {
	q := FastRouteQuery{Version: h.version}
	topic, ok := h.ext.get("topic")
	if h.code != GET_ROUTEINFO_BY_TOPIC || h.flag != 0 || !ok || len(topic) == 0 || !h.ext.only("topic", "acceptStandardJsonOnly", "AccessKey", "Signature", "SecurityToken") {
		return q, false
	}
	q.Topic = aliasString(topic)
	if accept, given := h.ext.get("acceptStandardJsonOnly"); given {
		switch string(accept) {
		case "true":
			q.AcceptStandardJSONOnly = true
		case "false":
		default:
			return q, false
		}
	}
	return q, true
}

// brokerIdentity is the broker of a QUERY_DATA_VERSION header the fast path
// takes: every field of the handler's header present, brokerId a number.
func (h *fastHeader) brokerIdentity() (cluster, addr string, ok bool) {
	if h.identity.code == QUERY_DATA_VERSION {
		return h.identity.cluster, h.identity.addr, h.identity.ok
	}
	c, ok1 := h.ext.get("clusterName")
	a, ok2 := h.ext.get("brokerAddr")
	n, ok3 := h.ext.get("brokerName")
	id, ok4 := h.ext.get("brokerId")
	if !ok1 || !ok2 || !ok3 || !ok4 || len(c) == 0 || len(a) == 0 || len(n) == 0 ||
		!h.ext.only("clusterName", "brokerAddr", "brokerName", "brokerId") {
		return "", "", false
	}
	if _, err := strconv.ParseInt(aliasString(id), 10, 64); err != nil {
		return "", "", false
	}
	return aliasString(c), aliasString(a), true
}

// aliasString is b as a string without a copy, for the handlers that are
// told their strings live only during the call.
func aliasString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// heartbeat is the broker of a BROKER_HEARTBEAT header the fast path takes.
func (h *fastHeader) heartbeat() (cluster, addr string, ok bool) {
	if h.identity.code == BROKER_HEARTBEAT {
		return h.identity.cluster, h.identity.addr, h.identity.ok
	}
	c, ok1 := h.ext.get("clusterName")
	a, ok2 := h.ext.get("brokerAddr")
	n, ok3 := h.ext.get("brokerName")
	if h.code != BROKER_HEARTBEAT || !ok1 || !ok2 || !ok3 || len(c) == 0 || len(a) == 0 || len(n) == 0 ||
		!h.ext.only("clusterName", "brokerAddr", "brokerName") {
		return "", "", false
	}
	return aliasString(c), aliasString(a), true
}

// maxFastExtFields bounds the ext fields a fast-path header may carry: a
// signed route query's five (topic, acceptStandardJsonOnly and the three
// ACL credentials).
const maxFastExtFields = 5

// fastExtFields are a header's ext fields, as read: keys and (unescaped)
// values alias the frame or a fresh buffer.
type fastExtFields struct {
	n           int
	keys, value [maxFastExtFields][]byte
}

// get returns the value of key and whether it was there.
func (f *fastExtFields) get(key string) ([]byte, bool) {
	for i := range f.n {
		if string(f.keys[i]) == key {
			return f.value[i], true
		}
	}
	return nil, false
}

// only says whether every key is one of allowed.
func (f *fastExtFields) only(allowed ...string) bool {
	for i := range f.n {
		found := false
		for _, a := range allowed {
			if string(f.keys[i]) == a {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// readFastExtFields reads an extFields object of at most maxFastExtFields
// string values.
func (s *jsonScanner) readFastExtFields(f *fastExtFields) bool {
	if !s.consume('{') {
		return false
	}
	for first := true; ; first = false {
		s.skipSpace()
		if s.consume('}') {
			return true
		}
		if !first && !s.consume(',') {
			return false
		}
		s.skipSpace()
		key, err := s.readStringBytes()
		s.skipSpace()
		if err != nil || !s.consume(':') || f.n == maxFastExtFields {
			return false
		}
		s.skipSpace()
		value, err := s.readStringBytes()
		if err != nil || checkExtEntry(f.n, len(key), len(value)) != nil {
			return false // past the decoder's bounds: the normal path refuses it
		}
		if _, repeated := f.get(aliasString(key)); repeated {
			return false // the decoder keeps the last value: leave it to the normal path
		}
		f.keys[f.n], f.value[f.n] = key, value
		f.n++
	}
}
