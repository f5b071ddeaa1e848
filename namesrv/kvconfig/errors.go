package kvconfig

import "errors"

// ErrCorruptFile is returned by Open when the KV file exists but is not the
// Java JSON format; the daemon then refuses to start, as the Java server does,
// rather than overwrite the operator's data with an empty store.
var ErrCorruptFile = errors.New("kvconfig: KV config file is not valid JSON")

// ErrOverLimit is wrapped by Put when a namespace, key or value is longer than
// the store's Limits allow, or when the store would hold too many keys or too
// large a file. Nothing changes.
var ErrOverLimit = errors.New("kvconfig: over a KV store limit")
