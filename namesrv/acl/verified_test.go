package acl

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"
)

func TestVerifiedRemembersAnExactKey(t *testing.T) {
	var v Verified
	key := []byte("\x01\x06abcde=\x00\x00\x00\x69\x09AccessKey\x09userKey01\x05topic\x01T\x00")
	if v.Allowed(1, sha256.Sum256(key)) {
		t.Fatal("an empty memo admits")
	}
	v.Remember(1, sha256.Sum256(key))
	if !v.Allowed(1, sha256.Sum256(key)) {
		t.Fatal("a remembered key is not admitted")
	}
	// any byte changed, one added or one cut is another request
	for i := range key {
		changed := bytes.Clone(key)
		changed[i] ^= 1
		if v.Allowed(1, sha256.Sum256(changed)) {
			t.Fatalf("byte %d changed: admitted", i)
		}
	}
	if v.Allowed(1, sha256.Sum256(key[:len(key)-1])) || v.Allowed(1, sha256.Sum256(append(bytes.Clone(key), 'x'))) {
		t.Fatal("a shorter or a longer key is admitted")
	}
}

func TestVerifiedIsDroppedByANewerEpoch(t *testing.T) {
	var v Verified
	key := sha256.Sum256([]byte("key"))
	v.Remember(3, key)
	if !v.Allowed(3, key) {
		t.Fatal("not remembered")
	}
	if v.Allowed(4, key) {
		t.Fatal("admitted under the accounts of a later reload")
	}
	if v.Len() != 0 {
		t.Fatalf("the reload left %d entries", v.Len())
	}
	if v.Allowed(3, key) {
		t.Fatal("back at the older epoch, the dropped entry came back")
	}
	// a check that began before the reload is not kept under the new accounts
	v.Remember(3, key)
	if v.Allowed(4, key) || v.Len() != 0 {
		t.Fatal("an admission of an older epoch was kept")
	}
	v.Remember(4, key)
	if !v.Allowed(4, key) {
		t.Fatal("not remembered under the current epoch")
	}
}

func TestVerifiedIsBounded(t *testing.T) {
	var v Verified
	digest := func(i int) Digest { return sha256.Sum256(fmt.Appendf(nil, "key-%d", i)) }
	for i := range VerifiedEntries {
		v.Remember(1, digest(i))
	}
	if v.Len() != VerifiedEntries || !v.Allowed(1, digest(0)) {
		t.Fatalf("%d entries, want %d with the first kept", v.Len(), VerifiedEntries)
	}
	v.Remember(1, digest(0)) // already there: nothing moves
	if v.Len() != VerifiedEntries {
		t.Fatalf("remembering a kept key again: %d entries", v.Len())
	}
	v.Remember(1, digest(VerifiedEntries))
	if v.Len() != 1 || v.Allowed(1, digest(0)) || !v.Allowed(1, digest(VerifiedEntries)) {
		t.Fatalf("past the bound: %d entries, want the memo emptied and the new key alone", v.Len())
	}
}
