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

// fastRouteAnswer is the header of a route query's SUCCESS answer, cut
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
// a route query the fast path takes, appending the answer frame to out;
// handled false leaves the frame untouched for the normal path.
func (s *Server) fastFrame(conn *Conn, gnetConn gnet.Conn, out []byte) (_ []byte, handled bool) {
	h := s.fastRoute.Load()
	if h == nil || conn.assembly != nil || s.goingAway.Load() {
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
	header, ok := scanFastRouteHeader(frame[frameLengthSize+headerWordSize:])
	if !ok {
		return out, false
	}
	start := len(out)
	out = append(out, 0, 0, 0, 0, 0, 0, 0, 0)
	out = append(out, fastRouteAnswer.head...)
	out = strconv.AppendInt(out, int64(header.opaque), 10)
	out = append(out, fastRouteAnswer.tail...)
	headerEnd := len(out)
	out, ok = (*h)(header.query, out)
	if !ok {
		return out[:start], false
	}
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-frameLengthSize))
	binary.BigEndian.PutUint32(out[start+frameLengthSize:], uint32(JSON)<<24|uint32(headerEnd-start-frameLengthSize-headerWordSize))
	_, _ = gnetConn.Discard(total)
	return out, true
}

// fastRouteHeader is what the fast path reads of a request header.
type fastRouteHeader struct {
	query                FastRouteQuery
	code, flag, opaque   int32
	haveCode, haveOpaque bool
}

// scanFastRouteHeader reads a route query's JSON header without building a
// map; ok is false for anything else or anything unusual (unknown keys, a
// remark, a language given as a number, other ext fields, escapes aside),
// which the normal path then decodes.
func scanFastRouteHeader(data []byte) (h fastRouteHeader, ok bool) {
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
			h.query.Version, err = s.readInt32()
		case "language", "serializeTypeCurrentRPC":
			_, err = s.readStringBytes()
		case "extFields":
			if !s.fastRouteExtFields(&h.query) {
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
	return h, s.pos == len(data) && h.haveCode && h.haveOpaque && h.code == GET_ROUTEINFO_BY_TOPIC &&
		h.flag == 0 && h.query.Topic != ""
}

// fastRouteExtFields reads an extFields object holding topic and, maybe,
// acceptStandardJsonOnly ("true" or "false"), string values only.
func (s *jsonScanner) fastRouteExtFields(q *FastRouteQuery) bool {
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
		if err != nil || !s.consume(':') {
			return false
		}
		s.skipSpace()
		value, err := s.readStringBytes()
		if err != nil {
			return false
		}
		switch string(key) {
		case "topic":
			q.Topic = string(value)
		case "acceptStandardJsonOnly":
			switch string(value) {
			case "true":
				q.AcceptStandardJSONOnly = true
			case "false":
				q.AcceptStandardJSONOnly = false
			default:
				return false
			}
		default:
			return false
		}
	}
}
