package remoting

import (
	"errors"
	"fmt"
)

// Bounds of a header's ext fields, in both the JSON and the binary layout.
// A header of tiny entries costs far more decoded than on the wire (a map
// entry and two strings each: 2 million entries in a 16 MiB frame decoded to
// 125 MB in 0.8 s, on the event loop), so the count is what must be bounded;
// Java request headers have at most a few dozen fields. Keys are field names,
// never data. Values are data (a KV value travels in one), so their bound is
// half the default frame limit: the namesrv's own KV limits answer sooner.
const (
	// MaxExtFields is the most ext fields a header may carry.
	MaxExtFields = 1024
	// MaxExtKeyLength is the longest ext field name, bytes.
	MaxExtKeyLength = 1024
	// MaxExtValueLength is the longest ext field value, bytes.
	MaxExtValueLength = 8 << 20
)

// ErrHeaderLimit: a header carries more or larger ext fields than the
// bounds above. Such a frame is bad input: its connection is closed.
var ErrHeaderLimit = errors.New("remoting: header ext fields past their bounds")

// checkExtEntry refuses the next ext entry once count entries were kept,
// and any entry whose key or value is past its bound. It runs before the
// entry is copied out of the frame.
func checkExtEntry(count, keyLength, valueLength int) error {
	switch {
	case count >= MaxExtFields:
		return fmt.Errorf("more than %d ext fields: %w", MaxExtFields, ErrHeaderLimit)
	case keyLength > MaxExtKeyLength:
		return fmt.Errorf("ext field name of %d bytes, max %d: %w", keyLength, MaxExtKeyLength, ErrHeaderLimit)
	case valueLength > MaxExtValueLength:
		return fmt.Errorf("ext field value of %d bytes, max %d: %w", valueLength, MaxExtValueLength, ErrHeaderLimit)
	}
	return nil
}
