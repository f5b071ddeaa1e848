package baseline

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// skipFrameSize is the frame size from which the baseline drops a frame's
// bytes as they arrive instead of waiting for the whole frame: a 2 MB
// registration would otherwise be copied into gnet's per-connection buffer.
const skipFrameSize = 64 << 10

// maxHeaderScan bounds a request header the baseline waits for before
// answering (the JSON header of a registration is ~300 bytes).
const maxHeaderScan = 64 << 10

// Keys the fast header scan looks for in a JSON request header.
var (
	codeKey   = []byte(`"code":`)
	opaqueKey = []byte(`"opaque":`)
	topicKey  = []byte(`"topic":"`)
	flagKey   = []byte(`"flag":`)
	onewayBit = int32(2)
)

// leanConn is a connection's state: the rest of a large frame being dropped
// and the answer due once it is gone.
type leanConn struct {
	skip   int
	answer *load.Template
	opaque int32
	oneway bool
	out    []byte
}

// leanHandler is the baseline's event handler: for every complete request
// it finds code, opaque and (for a route query) the topic in the header
// bytes, and appends the precomputed answer with the opaque patched in. No
// map, no string, no decode: only the framing, what any server must do.
type leanHandler struct {
	gnet.BuiltinEventEngine
	answers *answers
	log     *logrus.Entry
	booted  chan gnet.Engine
}

func (h *leanHandler) OnBoot(engine gnet.Engine) gnet.Action {
	h.booted <- engine
	return gnet.None
}

func (h *leanHandler) OnOpen(c gnet.Conn) ([]byte, gnet.Action) {
	c.SetContext(&leanConn{})
	return nil, gnet.None
}

func (h *leanHandler) OnTraffic(c gnet.Conn) gnet.Action {
	lc, ok := c.Context().(*leanConn)
	if !ok {
		return gnet.Close
	}
	out := lc.out[:0]
	action := gnet.None
	for {
		var err error
		var progressed bool
		if out, progressed, err = h.next(c, lc, out); err != nil {
			h.log.WithError(err).WithField("remote", c.RemoteAddr().String()).Warn("bad input, closing the connection")
			action = gnet.Close
			break
		}
		if !progressed {
			break
		}
	}
	if len(out) > 0 {
		if _, err := c.Write(out); err != nil {
			h.log.WithError(err).Debug("write failed")
		}
	}
	lc.out = out[:0]
	return action
}

// next consumes one request (or the next part of a large one) from c's
// inbound bytes and appends its answer to out; progressed is false when
// nothing could be consumed.
func (h *leanHandler) next(c gnet.Conn, lc *leanConn, out []byte) ([]byte, bool, error) {
	buffered := c.InboundBuffered()
	if lc.skip > 0 {
		n := min(lc.skip, buffered)
		if n == 0 {
			return out, false, nil
		}
		_, _ = c.Discard(n)
		lc.skip -= n
		if lc.skip == 0 && !lc.oneway {
			out = lc.answer.Append(out, lc.opaque)
		}
		return out, true, nil
	}
	if buffered < 8 {
		return out, false, nil
	}
	head, err := c.Peek(8)
	if err != nil {
		return out, false, nil
	}
	total, _, err := remoting.FrameLength(head, 0)
	if err != nil {
		return out, false, err
	}
	headerLength := int(binary.BigEndian.Uint32(head[4:]) & 0xFFFFFF)
	need := total
	if total >= skipFrameSize {
		if headerLength > maxHeaderScan {
			return out, false, fmt.Errorf("header of %d bytes: %w", headerLength, remoting.ErrBadHeaderLength)
		}
		need = 8 + headerLength
	}
	if buffered < need {
		return out, false, nil
	}
	frame, err := c.Peek(need)
	if err != nil {
		return out, false, nil
	}
	answer, opaque, oneway, err := h.answers.pick(frame)
	if err != nil {
		return out, false, err
	}
	if need < total {
		_, _ = c.Discard(need)
		lc.skip, lc.answer, lc.opaque, lc.oneway = total-need, answer, opaque, oneway
		return out, true, nil
	}
	if !oneway {
		out = answer.Append(out, opaque)
	}
	_, _ = c.Discard(total)
	return out, true, nil
}

// scanInt reads the decimal (possibly negative) integer that follows the
// top-level key in header; ok is false when key is not there. A key can
// occur only once outside string values (there its quotes are escaped), but
// once more as an ext field's name: the top-level one is after extFields
// when the keys are sorted (Java: flag and opaque follow extFields), so the
// part after the last object's closing brace is searched first, and the
// whole header forward otherwise (the Go client puts extFields last). Both
// searches are forward: a backward search is a byte-at-a-time hash.
func scanInt(header, key []byte) (int64, bool) {
	at := -1
	if brace := bytes.LastIndexByte(header[:max(len(header)-1, 0)], '}'); brace >= 0 {
		if i := bytes.Index(header[brace:], key); i >= 0 {
			at = brace + i
		}
	}
	if at < 0 {
		at = bytes.Index(header, key)
	}
	if at < 0 {
		return 0, false
	}
	i := at + len(key)
	negative := i < len(header) && header[i] == '-'
	if negative {
		i++
	}
	start := i
	var v int64
	for i < len(header) && header[i] >= '0' && header[i] <= '9' && i-start < 11 {
		v = v*10 + int64(header[i]-'0')
		i++
	}
	if i == start {
		return 0, false
	}
	if negative {
		v = -v
	}
	return v, true
}

// scanTopic returns the topic of a JSON route query's header, when it
// needs no unescaping.
func scanTopic(header []byte) ([]byte, bool) {
	at := bytes.Index(header, topicKey)
	if at < 0 {
		return nil, false
	}
	rest := header[at+len(topicKey):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 {
		return nil, false
	}
	return rest[:end], true
}

// scanBinary reads code, opaque and flag of a binary (ROCKETMQ) header from
// their fixed places and returns its ext area: code 2 bytes, language 1,
// version 2, opaque 4, flag 4, then the remark and the ext area, each
// after its 4-byte length.
func scanBinary(header []byte) (code int16, opaque, flag int32, ext []byte, ok bool) {
	const fixed = 13
	if len(header) < fixed+4 {
		return 0, 0, 0, nil, false
	}
	code = int16(binary.BigEndian.Uint16(header))
	opaque = int32(binary.BigEndian.Uint32(header[remoting.BinaryOpaqueAt:]))
	flag = int32(binary.BigEndian.Uint32(header[remoting.BinaryOpaqueAt+4:]))
	remark := int(binary.BigEndian.Uint32(header[fixed:]))
	rest := header[fixed+4:]
	if remark < 0 || remark > len(rest)-4 {
		return 0, 0, 0, nil, false
	}
	rest = rest[remark:]
	size := int(binary.BigEndian.Uint32(rest))
	if size < 0 || size > len(rest)-4 {
		return 0, 0, 0, nil, false
	}
	return code, opaque, flag, rest[4 : 4+size], true
}

// binaryExtValue finds key's value in a binary ext area (entries of a
// 2-byte key length, the key, a 4-byte value length, the value).
func binaryExtValue(ext []byte, key string) ([]byte, bool) {
	for len(ext) >= 2 {
		k := int(binary.BigEndian.Uint16(ext))
		if k > len(ext)-2-4 {
			return nil, false
		}
		name := ext[2 : 2+k]
		ext = ext[2+k:]
		v := int(binary.BigEndian.Uint32(ext))
		if v < 0 || v > len(ext)-4 {
			return nil, false
		}
		if string(name) == key {
			return ext[4 : 4+v], true
		}
		ext = ext[4+v:]
	}
	return nil, false
}
