package kvsync

import "github.com/gonamesrv/gonamesrv/namesrv/kvconfig"

// Request codes of the KV sync: ours, not Java's (a Java NameServer answers
// them REQUEST_CODE_NOT_SUPPORTED, 3, which the syncer shows as the peer's
// error). 5001 is the controller's election notice (controller/wire).
const (
	// CodeKVDigest asks for the peer's digest, a page at a time
	// (DigestRequest, answered DigestAnswer).
	CodeKVDigest int32 = 5010
	// CodeKVPull asks for entries with their values (PullRequest in the
	// body, answered PullAnswer).
	CodeKVPull int32 = 5011
)

// Bounds of the sync (docs/operations.md, "KV config between NameServers").
const (
	// PageBytes bounds one answer's entries (kvconfig.EntryBytes), digest
	// or pull, and one pull request's keys: a page is built, sent and held
	// by the asker one at a time. A store is at most 8 MiB
	// (kvconfig.DefaultLimits), so a full pull is about 9 pages.
	PageBytes = 1 << 20
	// MaxFrame bounds the answers the syncer reads: a page and its JSON
	// escaping (a value of control characters doubles, at worst sixfold).
	MaxFrame = 8 * PageBytes
	// MaxRequestBody bounds a pull request's body, checked before its
	// signature is computed.
	MaxRequestBody = 2 * PageBytes
)

// DigestRequest is CodeKVDigest's header: the asker's digest hash and
// where the page starts (after this namespace and key; both empty for the
// first page).
type DigestRequest struct {
	Hash           string `rmq:"hash"`
	AfterNamespace string `rmq:"afterNamespace"`
	AfterKey       string `rmq:"afterKey"`
}

// DigestAnswer is CodeKVDigest's body. Equal says the hashes matched: no
// entries follow. Otherwise Entries (no values) is one page, and More says
// another follows, after the last one.
type DigestAnswer struct {
	Hash    string           `json:"hash"`
	Keys    int              `json:"keys"`
	Equal   bool             `json:"equal,omitempty"`
	Entries []kvconfig.Entry `json:"entries,omitempty"`
	More    bool             `json:"more,omitempty"`
}

// Key names one key of the store.
type Key struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
}

// PullRequest is CodeKVPull's body: the keys wanted.
type PullRequest struct {
	Keys []Key `json:"keys"`
}

// PullAnswer is CodeKVPull's body: the entries of the keys asked, in their
// order, as many as PageBytes takes (at least one); the asker asks again
// for the rest.
type PullAnswer struct {
	Entries []kvconfig.Entry `json:"entries"`
}
