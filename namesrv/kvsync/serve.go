package kvsync

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// ErrNotPeer is wrapped by Authorize's refusals: the request is not signed
// by this server's peer account.
var ErrNotPeer = errors.New("kv sync: not a peer NameServer")

// Authorize admits a request signed with peer (this server's peerAccessKey
// and peerSecretKey) and refuses any other, saying why, with an error
// wrapping ErrNotPeer. The body's size is checked before the signature is
// computed over it.
func Authorize(peer aclsign.Credentials, req *remoting.Command) error {
	switch {
	case peer.Empty():
		return fmt.Errorf("%w: KV sync is off here: peerAccessKey and peerSecretKey are not set", ErrNotPeer)
	case req.ExtFields[aclsign.AccessKey] != peer.AccessKey:
		return fmt.Errorf("%w: KV sync requests are taken only signed with the peer account (peerAccessKey)", ErrNotPeer)
	case len(req.Body) > MaxRequestBody:
		return fmt.Errorf("%w: a body of %d bytes, at most %d", ErrNotPeer, len(req.Body), MaxRequestBody)
	case !aclsign.Verify(req.ExtFields, req.Body, peer.SecretKey):
		return fmt.Errorf("%w: the signature does not match the peer account's", ErrNotPeer)
	}
	return nil
}

// AnswerDigest is the answer to a CodeKVDigest request: Equal when the
// asker's hash is ours, else the page of our digest after its cursor.
func AnswerDigest(store *kvconfig.Store, h DigestRequest) DigestAnswer {
	d := store.Digest()
	answer := DigestAnswer{Hash: d.Hash, Keys: len(d.Entries)}
	if h.Hash == d.Hash {
		answer.Equal = true
		return answer
	}
	entries := d.Entries
	if h.AfterNamespace != "" || h.AfterKey != "" {
		for len(entries) > 0 && kvconfig.CompareKeys(entries[0].Namespace, entries[0].Key, h.AfterNamespace, h.AfterKey) <= 0 {
			entries = entries[1:]
		}
	}
	size := 0
	for i, e := range entries {
		size += kvconfig.EntryBytes(e)
		if i > 0 && size > PageBytes {
			answer.Entries, answer.More = entries[:i], true
			return answer
		}
	}
	answer.Entries = entries
	return answer
}

// AnswerPull is the answer to a CodeKVPull request's body.
func AnswerPull(store *kvconfig.Store, body []byte) (PullAnswer, error) {
	var req PullRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return PullAnswer{}, fmt.Errorf("kv sync pull request: %w", err)
	}
	keys := make([][2]string, len(req.Keys))
	for i, k := range req.Keys {
		keys[i] = [2]string{k.Namespace, k.Key}
	}
	return PullAnswer{Entries: store.Entries(keys, PageBytes)}, nil
}
