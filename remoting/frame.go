package remoting

import (
	"encoding/binary"
	"fmt"
)

// DefaultMaxFrameSize is Java's com.rocketmq.remoting.frameMaxLength default
// (16 MiB). Netty compares length+4 with it, so the largest length field
// accepted is DefaultMaxFrameSize-4 (protocol.md 1.3).
const DefaultMaxFrameSize = 16 << 20

// frameLengthSize is the size of the leading length field; headerWordSize
// the size of the serialize-type/header-length word after it.
const (
	frameLengthSize = 4
	headerWordSize  = 4
	maxHeaderLength = 1<<24 - 1
)

// Encode returns cmd as one complete frame, length field included.
func Encode(cmd *Command) ([]byte, error) {
	return AppendFrame(make([]byte, 0, 256+len(cmd.Body)), cmd)
}

// AppendFrame appends cmd as one complete frame to dst, so a caller can
// batch several frames into one write. On error dst is returned unchanged.
func AppendFrame(dst []byte, cmd *Command) ([]byte, error) {
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0, 0, 0, 0)
	headerStart := len(dst)
	var err error
	switch cmd.SerializeType {
	case JSON:
		dst = appendJSONHeader(dst, cmd)
	case ROCKETMQ:
		dst, err = appendBinaryHeader(dst, cmd)
	default:
		err = fmt.Errorf("encode %s: %w", cmd.SerializeType, ErrUnknownSerializeType)
	}
	if err != nil {
		return dst[:start], fmt.Errorf("encode code %d: %w", cmd.Code, err)
	}
	headerLength := len(dst) - headerStart
	if headerLength > maxHeaderLength {
		return dst[:start], fmt.Errorf("encode code %d: header of %d bytes: %w", cmd.Code, headerLength, ErrOutOfRange)
	}
	dst = append(dst, cmd.Body...)
	frameLength := len(dst) - start - frameLengthSize
	if uint64(frameLength) > 1<<32-1 {
		return dst[:start], fmt.Errorf("encode code %d: frame of %d bytes: %w", cmd.Code, frameLength, ErrFrameTooLarge)
	}
	binary.BigEndian.PutUint32(dst[start:], uint32(frameLength))
	binary.BigEndian.PutUint32(dst[start+frameLengthSize:], uint32(cmd.SerializeType)<<24|uint32(headerLength))
	return dst, nil
}

// FrameLength inspects the start of buf (which may hold a partial frame)
// and returns the total size of the first frame, length field included.
// total is 0 while fewer than 4 bytes are there; complete says whether
// len(buf) >= total. Bad input is reported as soon as the bytes show it: a
// length below 4 or with length+4 above maxFrameSize, and, once 8 bytes are
// there, an unknown serialize type or a header longer than the frame.
// maxFrameSize <= 0 means DefaultMaxFrameSize.
func FrameLength(buf []byte, maxFrameSize int) (total int, complete bool, err error) {
	if len(buf) < frameLengthSize {
		return 0, false, nil
	}
	if maxFrameSize <= 0 {
		maxFrameSize = DefaultMaxFrameSize
	}
	length := uint64(binary.BigEndian.Uint32(buf))
	if length+frameLengthSize > uint64(maxFrameSize) {
		return 0, false, fmt.Errorf("frame length %d, max %d: %w", length, maxFrameSize-frameLengthSize, ErrFrameTooLarge)
	}
	if length < headerWordSize {
		return 0, false, fmt.Errorf("frame length %d: %w", length, ErrFrameTooShort)
	}
	if len(buf) >= frameLengthSize+headerWordSize {
		if err := checkHeaderWord(binary.BigEndian.Uint32(buf[frameLengthSize:]), int(length)); err != nil {
			return 0, false, err
		}
	}
	total = int(length) + frameLengthSize
	return total, len(buf) >= total, nil
}

// checkHeaderWord validates the serialize type and header length against
// the frame length (the bytes after the length field).
func checkHeaderWord(word uint32, length int) error {
	serializeType := SerializeType(word >> 24)
	if serializeType != JSON && serializeType != ROCKETMQ {
		return fmt.Errorf("serialize type byte %d: %w", byte(serializeType), ErrUnknownSerializeType)
	}
	headerLength := int(word & maxHeaderLength)
	if headerLength > length-headerWordSize {
		return fmt.Errorf("decode error, bad header length: %d: %w", headerLength, ErrBadHeaderLength)
	}
	return nil
}

// DecodeFrame decodes one frame given without its 4-byte length field (the
// Netty decoder strips it). The returned Body aliases frame: copy it when
// frame is a reused buffer.
func DecodeFrame(frame []byte) (*Command, error) {
	if len(frame) < headerWordSize {
		return nil, fmt.Errorf("decode frame of %d bytes: %w", len(frame), ErrFrameTooShort)
	}
	word := binary.BigEndian.Uint32(frame)
	if err := checkHeaderWord(word, len(frame)); err != nil {
		return nil, fmt.Errorf("decode frame: %w", err)
	}
	headerLength := int(word & maxHeaderLength)
	header := frame[headerWordSize : headerWordSize+headerLength]
	cmd := &Command{SerializeType: SerializeType(word >> 24)}
	var err error
	if cmd.SerializeType == JSON {
		err = decodeJSONHeader(header, cmd)
	} else {
		err = decodeBinaryHeader(header, cmd)
	}
	if err != nil {
		return nil, fmt.Errorf("decode frame: %w", err)
	}
	if body := frame[headerWordSize+headerLength:]; len(body) > 0 {
		cmd.Body = body
	}
	return cmd, nil
}
