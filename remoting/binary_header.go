package remoting

import (
	"encoding/binary"
	"fmt"
	"math"
)

// binaryFixedSize is the fixed part of a ROCKETMQ header: code 2, language
// 1, version 2, opaque 4, flag 4, remark length 4, ext length 4.
const binaryFixedSize = 21

// BinaryOpaqueAt is where a ROCKETMQ header's opaque (4 bytes) starts,
// after code (2 bytes), language (1) and version (2); its flag (4 bytes)
// follows. Readers that take the opaque without decoding the header (the
// fast path, the load generator, the benchmark baseline) use it.
const BinaryOpaqueAt = 5

// appendBinaryHeader appends cmd's header in the ROCKETMQ layout of
// protocol.md 1.6. Code and version must fit 16 bits (Java would silently
// truncate; we refuse). Ext entries are written in key order; entries with
// an empty key or value are skipped, since they would decode as absent.
func appendBinaryHeader(dst []byte, cmd *Command) ([]byte, error) {
	if cmd.Code < math.MinInt16 || cmd.Code > math.MaxInt16 {
		return dst, fmt.Errorf("binary header code %d: %w", cmd.Code, ErrOutOfRange)
	}
	if cmd.Version < math.MinInt16 || cmd.Version > math.MaxInt16 {
		return dst, fmt.Errorf("binary header version %d: %w", cmd.Version, ErrOutOfRange)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(cmd.Code)))
	dst = append(dst, byte(cmd.Language))
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(cmd.Version)))
	dst = binary.BigEndian.AppendUint32(dst, uint32(cmd.Opaque))
	dst = binary.BigEndian.AppendUint32(dst, uint32(cmd.Flag))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(cmd.Remark)))
	dst = append(dst, cmd.Remark...)

	extLengthAt := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var stackKeys [16]string
	for _, key := range sortedKeys(stackKeys[:0], cmd.ExtFields) {
		value := cmd.ExtFields[key]
		if key == "" || value == "" {
			continue
		}
		if len(key) > math.MaxInt16 {
			return dst, fmt.Errorf("binary header ext key of %d bytes: %w", len(key), ErrOutOfRange)
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(key)))
		dst = append(dst, key...)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(value)))
		dst = append(dst, value...)
	}
	binary.BigEndian.PutUint32(dst[extLengthAt:], uint32(len(dst)-extLengthAt-4))
	return dst, nil
}

// decodeBinaryHeader fills cmd from a ROCKETMQ header. Every length is
// checked against the bytes that remain before anything is allocated; a
// zero-length remark, key or value decodes as absent (quirk Q29), and an
// unknown language byte as LanguageUnknown. Bytes after the ext area are
// ignored, as Java does.
func decodeBinaryHeader(header []byte, cmd *Command) error {
	if len(header) < binaryFixedSize {
		return fmt.Errorf("binary header of %d bytes, need %d: %w", len(header), binaryFixedSize, ErrBadHeader)
	}
	cmd.Code = int32(int16(binary.BigEndian.Uint16(header[0:])))
	cmd.Language = languageFromCode(int64(header[2]))
	cmd.Version = int32(int16(binary.BigEndian.Uint16(header[3:])))
	cmd.Opaque = int32(binary.BigEndian.Uint32(header[BinaryOpaqueAt:]))
	cmd.Flag = int32(binary.BigEndian.Uint32(header[BinaryOpaqueAt+4:]))
	rest := header[13:]

	remark, rest, err := takeSized(rest, 4)
	if err != nil {
		return fmt.Errorf("binary header remark: %w", err)
	}
	cmd.Remark = string(remark)

	extArea, _, err := takeSized(rest, 4)
	if err != nil {
		return fmt.Errorf("binary header ext fields: %w", err)
	}
	cmd.ExtFields, err = decodeBinaryExtFields(extArea)
	return err
}

// decodeBinaryExtFields reads key/value entries until the area is used up;
// an entry that runs past the area is an error.
func decodeBinaryExtFields(area []byte) (map[string]string, error) {
	if len(area) == 0 {
		return nil, nil
	}
	ext := make(map[string]string, 8)
	// Entries skipped as empty count too: each costs a loop turn.
	for entries := 0; len(area) > 0; entries++ {
		key, rest, err := takeSized(area, 2)
		if err != nil {
			return nil, fmt.Errorf("binary header ext key: %w", err)
		}
		value, rest, err := takeSized(rest, 4)
		if err != nil {
			return nil, fmt.Errorf("binary header ext value of %q: %w", key, err)
		}
		area = rest
		if err := checkExtEntry(entries, len(key), len(value)); err != nil {
			return nil, fmt.Errorf("binary header: %w", err)
		}
		if len(key) > 0 && len(value) > 0 {
			ext[string(key)] = string(value)
		}
	}
	if len(ext) == 0 {
		return nil, nil
	}
	return ext, nil
}

// takeSized reads a big-endian signed length of lengthSize (2 or 4) bytes
// and that many bytes after it, returning them and what follows.
func takeSized(buf []byte, lengthSize int) (field, rest []byte, err error) {
	if len(buf) < lengthSize {
		return nil, nil, fmt.Errorf("length field truncated: %w", ErrBadHeader)
	}
	var size int64
	if lengthSize == 2 {
		size = int64(int16(binary.BigEndian.Uint16(buf)))
	} else {
		size = int64(int32(binary.BigEndian.Uint32(buf)))
	}
	buf = buf[lengthSize:]
	if size < 0 || size > int64(len(buf)) {
		return nil, nil, fmt.Errorf("length %d with %d bytes left: %w", size, len(buf), ErrBadHeader)
	}
	return buf[:size], buf[size:], nil
}
