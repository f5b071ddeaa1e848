package load

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"maps"
	"strconv"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// templateOpaque is the opaque a template is encoded with, to find where
// the digits of the opaque sit in the frame (no other field of a request
// carries this number).
const templateOpaque = 987654321

// opaqueKey is the JSON key in front of a header's opaque digits.
var opaqueKey = []byte(`"opaque":`)

// Template is a request frame encoded once with its opaque cut out: a
// request is then two copies, the opaque and two length words, without a
// map, a string or an allocation. In a JSON header the opaque is its
// decimal digits; in a binary (ROCKETMQ) header four bytes at a fixed place.
type Template struct {
	// head is the frame up to the opaque (length words included), tail the
	// rest of the header and the body.
	head, tail []byte
	// headerWord is the serialize-type/header-length word without the
	// opaque's digits in the length.
	headerWord uint32
	// binaryOpaque says the opaque is four big-endian bytes.
	binaryOpaque bool
}

// binaryOpaqueAt is where a binary header's opaque starts in its frame,
// after the two length words.
const binaryOpaqueAt = 8 + remoting.BinaryOpaqueAt

// TemplateSigner, when set, signs every template (nsbench -ak, -sk). An
// ACL signature covers the ext fields and the body, not the opaque, so a
// template signed once stays valid for every opaque it is sent with.
var TemplateSigner func(*remoting.Command)

// NewTemplate encodes req as a template, in its header encoding.
func NewTemplate(req *remoting.Command) (Template, error) {
	c := *req
	c.Opaque = templateOpaque
	if TemplateSigner != nil {
		c.ExtFields = maps.Clone(c.ExtFields)
		TemplateSigner(&c)
	}
	frame, err := remoting.Encode(&c)
	if err != nil {
		return Template{}, fmt.Errorf("template of code %d: %w", req.Code, err)
	}
	if c.SerializeType == remoting.ROCKETMQ {
		return Template{head: frame[:binaryOpaqueAt], tail: frame[binaryOpaqueAt+4:], binaryOpaque: true}, nil
	}
	return cutTemplate(frame, req.Code)
}

// cutTemplate makes a template of a JSON request frame encoded with
// templateOpaque.
func cutTemplate(frame []byte, code int32) (Template, error) {
	digits := strconv.AppendInt(nil, templateOpaque, 10)
	at := bytes.Index(frame, append(bytes.Clone(opaqueKey), digits...))
	if len(frame) < 8 || remoting.SerializeType(frame[4]) != remoting.JSON || at < 0 {
		return Template{}, fmt.Errorf("template of code %d: no JSON opaque in the frame: %w", code, ErrBadAnswer)
	}
	at += len(opaqueKey)
	return Template{head: frame[:at], tail: frame[at+len(digits):],
		headerWord: binary.BigEndian.Uint32(frame[4:]) - uint32(len(digits))}, nil
}

// MustTemplate is NewTemplate for requests built by this package, which
// always encode.
func MustTemplate(req *remoting.Command) Template {
	t, err := NewTemplate(req)
	if err != nil {
		panic(err)
	}
	return t
}

// Append appends the request with opaque to dst.
func (t *Template) Append(dst []byte, opaque int32) []byte {
	if t.binaryOpaque {
		dst = append(dst, t.head...)
		dst = binary.BigEndian.AppendUint32(dst, uint32(opaque))
		return append(dst, t.tail...)
	}
	start := len(dst)
	dst = append(dst, t.head...)
	before := len(dst)
	dst = strconv.AppendInt(dst, int64(opaque), 10)
	digits := len(dst) - before
	dst = append(dst, t.tail...)
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	binary.BigEndian.PutUint32(dst[start+4:], t.headerWord+uint32(digits))
	return dst
}

// answerOpaque finds the opaque of an answer frame (length field included)
// without decoding the header: where it starts and ends (a JSON header's
// digits, a binary header's four bytes), and its value. ok is false for a
// header without one. hint is where the digits started in the previous
// answer: answers of one kind put them at the same place, so a JSON key is
// looked for there first.
func answerOpaque(frame []byte, hint int) (start, end int, opaque int32, ok bool) {
	if len(frame) < 8 {
		return 0, 0, 0, false
	}
	headerEnd := 8 + int(binary.BigEndian.Uint32(frame[4:])&0xFFFFFF)
	if headerEnd > len(frame) {
		return 0, 0, 0, false
	}
	switch remoting.SerializeType(frame[4]) {
	case remoting.JSON:
	case remoting.ROCKETMQ:
		if headerEnd < binaryOpaqueAt+4 {
			return 0, 0, 0, false
		}
		return binaryOpaqueAt, binaryOpaqueAt + 4, int32(binary.BigEndian.Uint32(frame[binaryOpaqueAt:])), true
	default:
		return 0, 0, 0, false
	}
	if hint >= 8+len(opaqueKey) && hint < headerEnd && bytes.Equal(frame[hint-len(opaqueKey):hint], opaqueKey) {
		start = hint
	} else {
		at := bytes.Index(frame[8:headerEnd], opaqueKey)
		if at < 0 {
			return 0, 0, 0, false
		}
		start = 8 + at + len(opaqueKey)
	}
	end = start
	negative := end < headerEnd && frame[end] == '-'
	if negative {
		end++
	}
	var value int64
	for end < headerEnd && frame[end] >= '0' && frame[end] <= '9' && end-start < 11 {
		value = value*10 + int64(frame[end]-'0')
		end++
	}
	if negative {
		value = -value
	}
	if value != int64(int32(value)) || end == start {
		return 0, 0, 0, false
	}
	return start, end, int32(value), true
}
