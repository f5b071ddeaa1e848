package route

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// MaxInflatedRegisterBodySize bounds what a compressed REGISTER_BROKER body may
// inflate to: four times the largest frame (16 MiB), far above a 10,000-topic
// registration (about 0.5 MiB), so a zlib bomb cannot exhaust memory.
const MaxInflatedRegisterBodySize = 64 << 20

// LooksLikeZlib reports whether b starts with a zlib header (RFC 1950, deflate
// with the 32 KiB window Java and Go write, valid header checksum). A JSON body
// starts with '{' and never matches, so a server can tolerate a compressed
// body sent with compressed=false (quirk Q7).
func LooksLikeZlib(b []byte) bool {
	return len(b) >= 2 && b[0] == 0x78 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0
}

// EncodeCompressedRegisterBrokerBody writes the binary registration body of
// protocol.md 3.8 (what a broker sends with compressed=true), zlib level 9
// like Java. Topics and mappings are written sorted by name; the mapping
// section is always present, as the Java encoder writes it.
func EncodeCompressedRegisterBrokerBody(body *RegisterBrokerBody) ([]byte, error) {
	w := &body.TopicConfigSerializeWrapper
	var plain []byte
	plain = appendLengthPrefixed(plain, func(dst []byte) []byte { return EncodeDataVersion(dst, w.DataVersion) })
	topics := sortedKeys(w.TopicConfigTable)
	plain = binary.BigEndian.AppendUint32(plain, uint32(len(topics)))
	for _, name := range topics {
		tc := w.TopicConfigTable[name]
		plain = appendLengthPrefixed(plain, func(dst []byte) []byte { return appendTopicConfigText(dst, &tc) })
	}
	plain = appendLengthPrefixed(plain, func(dst []byte) []byte {
		return appendStringArray(dst, body.FilterServerList, false)
	})
	mappings := sortedKeys(w.TopicQueueMappingInfoMap)
	plain = binary.BigEndian.AppendUint32(plain, uint32(len(mappings)))
	for _, name := range mappings {
		info := w.TopicQueueMappingInfoMap[name]
		plain = appendLengthPrefixed(plain, func(dst []byte) []byte {
			return EncodeTopicQueueMappingInfo(dst, &info, false)
		})
	}
	var out bytes.Buffer
	zw, err := zlib.NewWriterLevel(&out, zlib.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("encode compressed register body: %w", err)
	}
	if _, err := zw.Write(plain); err != nil {
		return nil, fmt.Errorf("encode compressed register body: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("encode compressed register body: %w", err)
	}
	return out.Bytes(), nil
}

// appendLengthPrefixed appends a 4-byte big-endian length and the bytes write
// appends after it.
func appendLengthPrefixed(dst []byte, write func([]byte) []byte) []byte {
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	dst = write(dst)
	binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst
}

// appendTopicConfigText writes the space-separated text form of a topic
// config: name, read and write queue numbers, perm, filter type, attributes
// JSON. topicSysFlag and order have no place in it (quirk Q8).
func appendTopicConfigText(dst []byte, tc *TopicConfig) []byte {
	dst = append(dst, tc.TopicName...)
	dst = appendInt(append(dst, ' '), tc.ReadQueueNums)
	dst = appendInt(append(dst, ' '), tc.WriteQueueNums)
	dst = appendInt(append(dst, ' '), tc.Perm)
	dst = append(append(dst, ' '), topicFilterTypeOrDefault(tc.TopicFilterType)...)
	return appendStringMap(append(dst, ' '), tc.Attributes, false)
}

// parseTopicConfigText reads the text form the way Java's TopicConfig.decode
// does: split on single spaces (trailing empty parts dropped), at least 5
// parts, part 6 read as attributes JSON and ignored when it does not parse.
func parseTopicConfigText(text string) (TopicConfig, error) {
	parts := strings.Split(text, " ")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) < 5 {
		return TopicConfig{}, fmt.Errorf("topic config %q: %d parts, want at least 5", truncateForError([]byte(text)), len(parts))
	}
	tc := NewTopicConfig(parts[0])
	for i, field := range []*int32{&tc.ReadQueueNums, &tc.WriteQueueNums, &tc.Perm} {
		v, ok := parseInt64([]byte(parts[1+i]))
		if !ok || v != int64(int32(v)) {
			return TopicConfig{}, fmt.Errorf("topic config %q: bad number %q", parts[0], truncateForError([]byte(parts[1+i])))
		}
		*field = int32(v)
	}
	switch parts[4] {
	case TopicFilterSingleTag:
	case TopicFilterMultiTag:
		tc.TopicFilterType = TopicFilterMultiTag
	default:
		return TopicConfig{}, fmt.Errorf("topic config %q: unknown filter type %q", parts[0], truncateForError([]byte(parts[4])))
	}
	if len(parts) >= 6 {
		r := jsonReader{data: []byte(parts[5])}
		if attrs, err := r.readStringMap(); err == nil && r.finish() == nil && len(attrs) > 0 {
			tc.Attributes = attrs
		}
	}
	return tc, nil
}

// DecodeCompressedRegisterBrokerBody reads the binary registration body of
// protocol.md 3.8. The mapping section is read only when version >=
// VersionV5_0_0, as Java does; bytes after the last item read are ignored.
// The body may inflate to MaxInflatedRegisterBodySize.
func DecodeCompressedRegisterBrokerBody(b []byte, version int32) (*RegisterBrokerBody, error) {
	return DecodeCompressedRegisterBrokerBodyWithin(b, version, MaxInflatedRegisterBodySize)
}

// DecodeCompressedRegisterBrokerBodyWithin is DecodeCompressedRegisterBrokerBody
// with a bound on the inflated bytes (InflatedLimit gives the daemon's). It
// also stops at the first item past the bounds of register_limits.go (topic
// count, topic name length), before inflating the rest.
func DecodeCompressedRegisterBrokerBodyWithin(b []byte, version int32, maxInflated int64) (*RegisterBrokerBody, error) {
	body, err := decodeCompressedRegisterBody(b, version, maxInflated)
	if err != nil {
		return nil, fmt.Errorf("decode compressed register body: %w", err)
	}
	return body, nil
}

// InflateRatio and MinInflatedLimit make InflatedLimit: a 10,000-topic body
// of a Java broker compresses about 15 to 1, a zlib bomb about 1,000 to 1.
const (
	InflateRatio     = 64
	MinInflatedLimit = 1 << 20
)

// InflatedLimit is what a compressed body of compressedLen bytes may inflate
// to: InflateRatio times its size, at least MinInflatedLimit, and never more
// than frameLimit (what the same registration sent uncompressed could hold).
func InflatedLimit(compressedLen int, frameLimit int64) int64 {
	limit := max(int64(compressedLen)*InflateRatio, MinInflatedLimit)
	return min(limit, frameLimit)
}

// maxTopicItemLength bounds one topic's text in a compressed body: a
// 127-byte name, four numbers, a filter type and the attributes.
const maxTopicItemLength = 64 << 10

func decodeCompressedRegisterBody(b []byte, version int32, maxInflated int64) (*RegisterBrokerBody, error) {
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRouteCompressedBody, err)
	}
	defer zr.Close()
	in := &inflatedItems{r: bufio.NewReader(&boundedReader{r: zr, remaining: maxInflated, limit: maxInflated})}

	body := &RegisterBrokerBody{}
	w := &body.TopicConfigSerializeWrapper
	w.TopicConfigTable = map[string]TopicConfig{}

	item, err := in.next("data version")
	if err != nil {
		return nil, err
	}
	if w.DataVersion, err = DecodeDataVersion(item); err != nil {
		return nil, err
	}
	topicCount, err := in.int32("topic count")
	if err != nil {
		return nil, err
	}
	if err := checkCount("topics", int(topicCount)); err != nil {
		return nil, err
	}
	for i := int32(0); i < topicCount; i++ { // a negative count reads no topic, as in Java
		item, err := in.nextWithin("topic config", maxTopicItemLength)
		if err != nil {
			return nil, err
		}
		tc, err := parseTopicConfigText(string(item))
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrRouteCompressedBody, err)
		}
		if err := CheckTopicName(tc.TopicName); err != nil {
			return nil, err
		}
		w.TopicConfigTable[tc.TopicName] = tc
	}
	item, err = in.next("filter server list")
	if err != nil {
		return nil, err
	}
	// Java logs and ignores a filter list that does not parse.
	r := jsonReader{data: item}
	if list, err := r.readStringArray(); err == nil && r.finish() == nil {
		body.FilterServerList = list
	}
	if version < VersionV5_0_0 {
		return body, nil
	}
	mappingCount, err := in.int32("mapping count")
	if err != nil {
		return nil, err
	}
	if err := checkCount("static-topic mappings", int(mappingCount)); err != nil {
		return nil, err
	}
	w.TopicQueueMappingInfoMap = map[string]TopicQueueMappingInfo{}
	for i := int32(0); i < mappingCount; i++ {
		item, err := in.next("mapping info")
		if err != nil {
			return nil, err
		}
		info, err := DecodeTopicQueueMappingInfo(item)
		if err != nil {
			return nil, err
		}
		if info.Topic == "" {
			return nil, fmt.Errorf("%w: mapping info without topic", ErrRouteCompressedBody)
		}
		w.TopicQueueMappingInfoMap[info.Topic] = *info
	}
	return body, nil
}

// inflatedItems reads the length-prefixed items of an inflated body. Item
// buffers grow only as bytes arrive, so a huge declared length costs nothing
// unless the stream really holds that much.
type inflatedItems struct {
	r   *bufio.Reader
	buf bytes.Buffer
}

func (in *inflatedItems) int32(what string) (int32, error) {
	var word [4]byte
	if _, err := io.ReadFull(in.r, word[:]); err != nil {
		return 0, in.readError(what, err)
	}
	return int32(binary.BigEndian.Uint32(word[:])), nil
}

// next returns the next length-prefixed item; valid until the next call.
func (in *inflatedItems) next(what string) ([]byte, error) {
	return in.nextWithin(what, math.MaxInt32)
}

// nextWithin is next for an item of at most limit bytes: a longer one fails
// before its bytes are inflated.
func (in *inflatedItems) nextWithin(what string, limit int32) ([]byte, error) {
	n, err := in.int32(what + " length")
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("%w: negative %s length %d", ErrRouteCompressedBody, what, n)
	}
	if n > limit {
		return nil, fmt.Errorf("%w: %s of %d bytes, at most %d", ErrLimitExceeded, what, n, limit)
	}
	in.buf.Reset()
	if _, err := io.CopyN(&in.buf, in.r, int64(n)); err != nil {
		return nil, in.readError(what, err)
	}
	return in.buf.Bytes(), nil
}

func (in *inflatedItems) readError(what string, err error) error {
	if errors.Is(err, ErrRouteBodyTooLarge) {
		return err
	}
	return fmt.Errorf("%w: reading %s: %w", ErrRouteCompressedBody, what, err)
}

// boundedReader fails with ErrRouteBodyTooLarge once more than remaining
// bytes were read.
type boundedReader struct {
	r         io.Reader
	remaining int64
	limit     int64 // for the error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.remaining <= 0 {
		return 0, fmt.Errorf("%w: inflates to more than %d bytes", ErrRouteBodyTooLarge, b.limit)
	}
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.r.Read(p)
	b.remaining -= int64(n)
	return n, err
}
