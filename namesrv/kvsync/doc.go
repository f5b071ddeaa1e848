// Package kvsync makes the KV config of the NameServers of a group converge
// (issue 37 item 2). Every key carries a version (kvconfig.Version, a hybrid
// logical clock) and deletes leave tombstones (kvconfig.TombstoneRetention);
// every Interval each NameServer asks each peer for its digest (every key's
// version, paged, or only "equal" when the two digests' hashes match) and
// pulls the keys whose version there is newer, or that it lacks. Writes stay
// local and are answered at once; a NameServer back from a stop pulls what
// it missed in its first exchange, which starts with it, and its peers pull
// what it had in their next.
//
// The two requests are ours (CodeKVDigest, CodeKVPull) and answered only to
// a request signed with this server's peer account (peerAccessKey,
// peerSecretKey: the account the peer checks are signed with, the same on
// every NameServer of the group); anyone else gets NO_PERMISSION (16).
// Without a peer account there is no sync, and both requests are refused.
package kvsync
