package remoting

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
)

// SignedDigest is the SHA-256 of a request's signed key (appendSignedKey):
// what the access checker's per-connection memo of admitted requests is
// keyed by, 32 bytes whatever the request's length.
type SignedDigest [sha256.Size]byte

// credentialKeys are the ext fields an ACL 1.0 client adds to sign a
// request (aclsign's AccessKey, Signature, SecurityToken; remoting cannot
// import aclsign, which imports it).
var credentialKeys = [...]string{"AccessKey", "Signature", "SecurityToken"}

// isCredentialKey says whether key is one of credentialKeys.
func isCredentialKey(key []byte) bool {
	for _, k := range credentialKeys {
		if string(key) == k {
			return true
		}
	}
	return false
}

// extPair is one ext field, as bytes.
type extPair struct{ key, value []byte }

// appendSignedKey appends the bytes an access check of a signed request
// depends on: the Signature's value, the code, every other ext field (the
// other credentials among them) in key order, each name and value behind
// its length, then the body. Unlike
// the signature's content it keeps the field boundaries and the code, so
// two requests with the same key are the same request but for their opaque
// and the header fields no check reads. pairs is sorted in place.
//
// The Signature comes first (then the code and the other fields in key
// order): keys of one client's requests share their other leading bytes,
// and a memo's lookup then tells them apart at the first word.
func appendSignedKey(dst []byte, code int32, pairs []extPair, body []byte) []byte {
	slices.SortFunc(pairs, func(a, b extPair) int {
		aSig, bSig := string(a.key) == credentialKeys[1], string(b.key) == credentialKeys[1]
		switch {
		case aSig != bSig && aSig:
			return -1
		case aSig != bSig:
			return 1
		}
		return compareBytes(a.key, b.key)
	})
	if len(pairs) > 0 && string(pairs[0].key) == credentialKeys[1] {
		dst = append(dst, 1) // a signature, its length and value
		dst = binary.AppendUvarint(dst, uint64(len(pairs[0].value)))
		dst = append(dst, pairs[0].value...)
		pairs = pairs[1:]
	} else {
		dst = append(dst, 0) // none
	}
	dst = binary.BigEndian.AppendUint32(dst, uint32(code))
	for _, p := range pairs {
		dst = binary.AppendUvarint(dst, uint64(len(p.key)))
		dst = append(dst, p.key...)
		dst = binary.AppendUvarint(dst, uint64(len(p.value)))
		dst = append(dst, p.value...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(body)))
	return append(dst, body...)
}

func compareBytes(a, b []byte) int {
	switch {
	case string(a) < string(b):
		return -1
	case string(a) > string(b):
		return 1
	}
	return 0
}

// AppendSignedKey appends req's signed key (appendSignedKey) to dst. The
// fast path builds the same bytes from the frame for the same request.
func (c *Command) AppendSignedKey(dst []byte) []byte {
	pairs := make([]extPair, 0, len(c.ExtFields))
	for k, v := range c.ExtFields {
		pairs = append(pairs, extPair{key: []byte(k), value: []byte(v)})
	}
	return appendSignedKey(dst, c.Code, pairs, c.Body)
}

// signedDigest is the SignedDigest of a bodiless fast-path header h and
// whether h carries credentials at all: the one its memo entry kept, or
// else built in scratch.
func (h *fastHeader) signedDigest(scratch []byte) (SignedDigest, bool) {
	if h.signedKnown {
		return h.signed, h.hasSigned
	}
	key := h.signedKey(scratch, nil)
	if key == nil {
		return SignedDigest{}, false
	}
	return sha256.Sum256(key), true
}

// signedKey is the signed key of a fast-path header h carrying
// credentials, appended to scratch[:0]; nil when h carries none.
func (h *fastHeader) signedKey(scratch []byte, body []byte) []byte {
	var pairs [maxFastExtFields]extPair
	signed := false
	for i := range h.ext.n {
		pairs[i] = extPair{key: h.ext.keys[i], value: h.ext.value[i]}
		signed = signed || isCredentialKey(h.ext.keys[i])
	}
	if !signed {
		return nil
	}
	return appendSignedKey(scratch[:0], h.code, pairs[:h.ext.n], body)
}

// SignedDigest is the SHA-256 of req's signed key; the fast path's
// FastRouteQuery.Digest of the same request is the same.
func (c *Command) SignedDigest() SignedDigest {
	return sha256.Sum256(c.AppendSignedKey(make([]byte, 0, 256)))
}
