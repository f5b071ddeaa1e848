package remoting

import (
	"encoding/binary"
	"slices"
)

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
// depends on: the code, every ext field (the credentials among them) in
// key order, each name and value behind its length, then the body. Unlike
// the signature's content it keeps the field boundaries and the code, so
// two requests with the same key are the same request but for their opaque
// and the header fields no check reads. pairs is sorted in place.
func appendSignedKey(dst []byte, code int32, pairs []extPair, body []byte) []byte {
	slices.SortFunc(pairs, func(a, b extPair) int { return compareBytes(a.key, b.key) })
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

// AppendSignedKey appends req's signed key (appendSignedKey) to dst: what
// the access checker's per-connection memo of verified requests is keyed
// by. The fast path builds the same bytes from the frame for the same
// request (FastRouteQuery.SignedKey).
func (c *Command) AppendSignedKey(dst []byte) []byte {
	pairs := make([]extPair, 0, len(c.ExtFields))
	for k, v := range c.ExtFields {
		pairs = append(pairs, extPair{key: []byte(k), value: []byte(v)})
	}
	return appendSignedKey(dst, c.Code, pairs, c.Body)
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
