package kvconfig

import "errors"

// ErrCorruptFile is returned by Open when the KV file exists but is not the
// Java JSON format; the daemon then refuses to start, as the Java server does,
// rather than overwrite the operator's data with an empty store.
var ErrCorruptFile = errors.New("kvconfig: KV config file is not valid JSON")
