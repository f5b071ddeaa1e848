package kvconfig

import "fmt"

// Limits bound what Put accepts. Java has none: eight 8 MiB values made a
// 64 MiB file, every later write rewrote and fsynced all of it, and the
// server held 411 MB. The store is a small table of operator settings
// (ordered topics' queue layouts, a few flags); the defaults leave ample room
// for that and keep one write below a fraction of a second.
type Limits struct {
	// MaxKeyBytes bounds a namespace and a key, each (a topic name is at most
	// 127 characters in Java).
	MaxKeyBytes int
	// MaxValueBytes bounds one value (an ORDER_TOPIC_CONFIG value lists
	// `brokerName:queueCount` for each broker: a few KB for hundreds).
	MaxValueBytes int
	// MaxKeys bounds the keys of all namespaces together, and also the
	// tombstones of deletes kept (tombstones.go): past it the oldest are
	// forgotten before TombstoneRetention.
	MaxKeys int
	// MaxFileBytes bounds the file a write produces, hence the memory the
	// table takes and what each write rewrites.
	MaxFileBytes int
}

// DefaultLimits are the limits of the NameServer's store (README, Limits).
var DefaultLimits = Limits{
	MaxKeyBytes:   1024,
	MaxValueBytes: 64 << 10,
	MaxKeys:       10_000,
	MaxFileBytes:  8 << 20,
}

// checkEntry refuses a namespace, key or value over its own limit.
func (l Limits) checkEntry(namespace, key, value string) error {
	switch {
	case len(namespace) > l.MaxKeyBytes:
		return fmt.Errorf("%w: namespace of %d bytes, at most %d", ErrOverLimit, len(namespace), l.MaxKeyBytes)
	case len(key) > l.MaxKeyBytes:
		return fmt.Errorf("%w: key of %d bytes, at most %d", ErrOverLimit, len(key), l.MaxKeyBytes)
	case len(value) > l.MaxValueBytes:
		return fmt.Errorf("%w: value of %d bytes, at most %d", ErrOverLimit, len(value), l.MaxValueBytes)
	}
	return nil
}

// checkStore refuses a table of too many keys or a file too large; a change
// that makes neither grow is always accepted, so a store loaded over the
// limits (a hand-edited file) can still be cleaned up.
func (l Limits) checkStore(keys, prevKeys, fileBytes, prevFileBytes int) error {
	switch {
	case keys > l.MaxKeys && keys > prevKeys:
		return fmt.Errorf("%w: the store would hold %d keys, at most %d", ErrOverLimit, keys, l.MaxKeys)
	case fileBytes > l.MaxFileBytes && fileBytes > prevFileBytes:
		return fmt.Errorf("%w: the store file would be %d bytes, at most %d", ErrOverLimit, fileBytes, l.MaxFileBytes)
	}
	return nil
}

// countKeys counts the keys of every namespace.
func countKeys(table configTable) int {
	n := 0
	for _, kv := range table {
		n += len(kv)
	}
	return n
}
