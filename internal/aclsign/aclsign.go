// Package aclsign computes RocketMQ's ACL 1.0 request signature, the one the
// Java AclClientRPCHook and the Apache Go client's WithCredentials send:
// base64(HMAC-SHA1(secretKey, values of the ext fields in key order, then the
// body)). The NameServer verifies with it and our own tools (broker, mqadmin,
// nsbench) sign with it, so both sides share one definition of the content.
package aclsign

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"slices"
)

// The ext fields the signature adds to a request (Java SessionCredentials).
const (
	AccessKey     = "AccessKey"
	SecretKey     = "SecretKey"
	Signature     = "Signature"
	SecurityToken = "SecurityToken"
)

// Credentials is an account's key pair, with the optional security token.
type Credentials struct {
	AccessKey, SecretKey, SecurityToken string
}

// Empty reports whether there is nothing to sign with.
func (c Credentials) Empty() bool { return c.AccessKey == "" || c.SecretKey == "" }

// Compute returns base64(HMAC-SHA1(secret, content)), where the content is
// the values of ext sorted by key (byte order, as Java's TreeMap of strings),
// every key but Signature and skip ("" skips nothing), followed by body. The
// content is fed to the MAC piece by piece: a 2 MB registration body is not
// copied.
func Compute(ext map[string]string, body []byte, secret, skip string) string {
	keys := make([]string, 0, len(ext))
	for key := range ext {
		if key != Signature && (skip == "" || key != skip) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	mac := hmac.New(sha1.New, []byte(secret))
	for _, key := range keys {
		mac.Write([]byte(ext[key]))
	}
	mac.Write(body)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Sign adds AccessKey, SecurityToken (when set) and Signature to ext as
// Java's AclClientRPCHook does: the access key and the token are part of the
// signed content. ext must not be nil. Empty credentials leave ext alone.
func Sign(ext map[string]string, body []byte, cred Credentials) {
	if cred.Empty() {
		return
	}
	ext[AccessKey] = cred.AccessKey
	if cred.SecurityToken != "" {
		ext[SecurityToken] = cred.SecurityToken
	}
	ext[Signature] = Compute(ext, body, cred.SecretKey, "")
}

// Verify reports whether ext carries a Signature that secret computed over
// ext and body. Two contents are accepted, both keyed by the secret: Java's
// (every ext field but Signature) and the Apache Go client's, which leaves
// the SecurityToken's value out of the content when it sends one. The
// comparison takes the same time whatever the signatures' contents.
func Verify(ext map[string]string, body []byte, secret string) bool {
	got, ok := ext[Signature]
	if !ok {
		return false
	}
	if hmac.Equal([]byte(got), []byte(Compute(ext, body, secret, ""))) {
		return true
	}
	if _, hasToken := ext[SecurityToken]; !hasToken {
		return false
	}
	return hmac.Equal([]byte(got), []byte(Compute(ext, body, secret, SecurityToken)))
}
