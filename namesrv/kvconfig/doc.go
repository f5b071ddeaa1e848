// Package kvconfig is the NameServer's KV config store (Java KVConfigManager):
// namespace → key → value strings that operators set with mqadmin
// (updateKvConfig, updateOrderConf) and that route queries read for ordered
// topics (namespace ORDER_TOPIC_CONFIG).
//
// Reads are lock-free: the whole table is an immutable map swapped atomically
// after each write, so a route query never waits for a write in flight. Writes
// are serialised and each one rewrites the whole file in the Java format
// (`{"configTable":{"ns":{"k":"v"}}}`, one line, keys sorted) before it becomes
// visible, so nothing is acknowledged that is not on disk.
//
// File safety: every write goes to a new `<path>.tmp-<random>` (created with
// O_EXCL|O_NOFOLLOW, so nothing planted there is written through), is fsynced
// and renamed over `<path>`, and the directory is fsynced (package
// atomicfile). A crash leaves either the old or the new file, never a torn
// one (and at worst an orphaned temporary file). When only the directory
// fsync fails, the new table is in the file and served, and the write
// reports that its durability is unknown.
//
// Limits (Limits, DefaultLimits): namespace and key length, value length,
// keys in the store and the file's size; a write past them is refused with
// ErrOverLimit and changes nothing. The Java server's
// `<path>.bak` copy of the previous content is therefore not written: it only
// guarded against the torn files of an in-place rewrite, and the Java server
// never reads it back either.
//
// Versions (version.go, versions_file.go, store_versions.go): every key
// carries the Version of its last write (a hybrid logical clock: Unix ms,
// counter, writer id) and a delete leaves a tombstone for
// TombstoneRetention, so the NameServers of a group can make their stores
// converge (package kvsync: Digest, Entries, Merge). They live in
// `<path>.versions`, written atomically right after the Java file, which
// keeps Java's format; a key whose value the versions file did not record
// (a Java or hand-written file, a crash between the two writes) loads with
// the lowest version, so it never wins over a versioned write elsewhere.
//
// Quirks kept from Java (protocol.md section 5, Q21): a namespace emptied by
// Delete stays visible (GET_KVLIST_BY_NAMESPACE answers `{"table":{}}`), and a
// Delete of a missing key still rewrites the file (and leaves a tombstone). The store accepts any value,
// including ""; refusing a PUT without a value (quirk Q20) is the handler's job.
package kvconfig
