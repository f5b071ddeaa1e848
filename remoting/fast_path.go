package remoting

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"github.com/panjf2000/gnet/v2"
)

// FastRouteQuery is what the route fast path found in a GET_ROUTEINFO_BY_TOPIC
// request's header.
type FastRouteQuery struct {
	Topic                  string
	Version                int32
	AcceptStandardJSONOnly bool
}

// FastRouteHandler appends the body of a route query's SUCCESS answer to
// dst and returns it, or returns ok false (and dst unchanged in length) to
// leave the request to the normal path: an unknown topic, a server not
// ready, anything the handler does not answer from its snapshot alone.
type FastRouteHandler func(q FastRouteQuery, dst []byte) (body []byte, ok bool)

// HandleFastRoute installs h for GET_ROUTEINFO_BY_TOPIC requests whose JSON
// header holds nothing but code, flag 0, language, opaque, version,
// serializeTypeCurrentRPC and the ext fields topic and acceptStandardJsonOnly
// (what Java clients send). For those the event loop reads the header
// straight from the frame, without a map or a Command, and writes the answer
// frame in place behind the other answers of the same read, from a header
// encoded once with only the opaque written: the same bytes the normal path
// writes. Every other request, and every one h declines, takes the normal
// path (handlers, GO_AWAY, memory limit), which answers it as before.
func (s *Server) HandleFastRoute(h FastRouteHandler) { s.fastRoute.Store(&h) }

// FastHeartbeatHandler records a BROKER_HEARTBEAT of the broker at addr in
// cluster and says true, or false to leave the request to the normal path.
type FastHeartbeatHandler func(cluster, addr string) bool

// HandleFastHeartbeat installs h for BROKER_HEARTBEAT requests whose JSON
// header carries the ext fields clusterName, brokerAddr and brokerName and
// nothing unusual (see HandleFastRoute); the answer is the plain SUCCESS the
// normal path writes.
func (s *Server) HandleFastHeartbeat(h FastHeartbeatHandler) { s.fastHeartbeat.Store(&h) }

// fastRouteAnswer is the header of a SUCCESS answer without ext fields, cut
// around the opaque's digits (built once from the normal encoder).
var fastRouteAnswer = func() (parts struct{ head, tail []byte }) {
	const sentinel = 987654321
	resp := NewResponse(&Command{SerializeType: JSON, Opaque: sentinel}, SUCCESS, "")
	resp.MarkResponse()
	frame, err := Encode(resp)
	if err != nil {
		panic(err)
	}
	digits := strconv.AppendInt(nil, sentinel, 10)
	at := bytes.Index(frame, digits)
	parts.head, parts.tail = frame[frameLengthSize+headerWordSize:at], frame[at+len(digits):]
	return parts
}()

// fastFrame answers the next frame of gnetConn on the fast path when it is
// a route query or a heartbeat the fast path takes, appending the answer
// frame to out;
// handled false leaves the frame untouched for the normal path.
func (s *Server) fastFrame(conn *Conn, gnetConn gnet.Conn, out []byte) (_ []byte, handled bool) {
	route, heartbeat := s.fastRoute.Load(), s.fastHeartbeat.Load()
	if route == nil && heartbeat == nil || conn.assembly != nil || s.goingAway.Load() {
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
	headerLength := int(word & maxHeaderLength)
	// no body, JSON, whole in the buffer, below the large-frame size
	if SerializeType(word>>24) != JSON || total != frameLengthSize+headerWordSize+headerLength ||
		total > buffered || total >= largeFrameSize {
		return out, false
	}
	frame, err := gnetConn.Peek(total)
	if err != nil {
		return out, false
	}
	header, ok := scanFastHeader(frame[frameLengthSize+headerWordSize:])
	if !ok {
		return out, false
	}
	var answer func(dst []byte) ([]byte, bool)
	if q, isRoute := header.routeQuery(); isRoute && route != nil {
		answer = func(dst []byte) ([]byte, bool) { return (*route)(q, dst) }
	} else if cluster, addr, isHeartbeat := header.heartbeat(); isHeartbeat && heartbeat != nil {
		answer = func(dst []byte) ([]byte, bool) { return dst, (*heartbeat)(cluster, addr) }
	} else {
		return out, false
	}
	start := len(out)
	out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)
	out = append(out, fastRouteAnswer.head...)
	out = strconv.AppendInt(out, int64(header.opaque), 10)
	out = append(out, fastRouteAnswer.tail...)
	headerEnd := len(out)
	out, ok = answer(out)
	if !ok {
		return out[:start], false
	}
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-frameLengthSize))
	binary.BigEndian.PutUint32(out[start+frameLengthSize:], uint32(JSON)<<24|uint32(headerEnd-start-frameLengthSize-headerWordSize))
	_, _ = gnetConn.Discard(total)
	return out, true
}

// fastHeader is what the fast path reads of a request header.
type fastHeader struct {
	code, flag, opaque, version int32
	haveCode, haveOpaque        bool
	ext                         fastExtFields
}

// scanFastHeader reads a JSON request header without building a map; ok is
// false for anything unusual (unknown keys, a remark, a language given as a
// number, more than maxFastExtFields ext fields or a value that is not a
// string, a response or a one-way request), which the normal path then
// decodes.
func scanFastHeader(data []byte) (h fastHeader, ok bool) {
	s := jsonScanner{data: data}
	s.skipSpace()
	if !s.consume('{') {
		return h, false
	}
	for first := true; ; first = false {
		s.skipSpace()
		if s.consume('}') {
			break
		}
		if !first && !s.consume(',') {
			return h, false
		}
		s.skipSpace()
		key, err := s.readStringBytes()
		s.skipSpace()
		if err != nil || !s.consume(':') {
			return h, false
		}
		s.skipSpace()
		switch string(key) {
		case "code":
			h.code, err = s.readInt32()
			h.haveCode = true
		case "flag":
			h.flag, err = s.readInt32()
		case "opaque":
			h.opaque, err = s.readInt32()
			h.haveOpaque = true
		case "version":
			h.version, err = s.readInt32()
		case "language", "serializeTypeCurrentRPC":
			_, err = s.readStringBytes()
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
	return h, s.pos == len(data) && h.haveCode && h.haveOpaque && h.flag == 0
}

// routeQuery is the route query of a header the fast path takes.
func (h *fastHeader) routeQuery() (FastRouteQuery, bool) {
	q := FastRouteQuery{Version: h.version}
	topic, ok := h.ext.get("topic")
	if h.code != GET_ROUTEINFO_BY_TOPIC || !ok || len(topic) == 0 || !h.ext.only("topic", "acceptStandardJsonOnly") {
		return q, false
	}
	q.Topic = string(topic)
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

// heartbeat is the broker of a BROKER_HEARTBEAT header the fast path takes.
func (h *fastHeader) heartbeat() (cluster, addr string, ok bool) {
	c, ok1 := h.ext.get("clusterName")
	a, ok2 := h.ext.get("brokerAddr")
	n, ok3 := h.ext.get("brokerName")
	if h.code != BROKER_HEARTBEAT || !ok1 || !ok2 || !ok3 || len(c) == 0 || len(a) == 0 || len(n) == 0 ||
		!h.ext.only("clusterName", "brokerAddr", "brokerName") {
		return "", "", false
	}
	return string(c), string(a), true
}

// maxFastExtFields bounds the ext fields a fast-path header may carry.
const maxFastExtFields = 4

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
		if err != nil {
			return false
		}
		f.keys[f.n], f.value[f.n] = key, value
		f.n++
	}
}
