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
	for i := range 4 * VerifiedEntries {
		v.Remember(1, digest(i))
	}
	if n := v.Len(); n > VerifiedEntries || n < VerifiedEntries*9/10 {
		t.Fatalf("%d remembered: %d entries, want at most %d and most of them used", 4*VerifiedEntries, n, VerifiedEntries)
	}
	// a full set gives its oldest entry's slot to a new one, the others stay
	var w Verified
	var same []Digest
	for i := 0; len(same) < verifiedWays+1; i++ {
		if d := digest(i); w.set(d) == 0 {
			same = append(same, d)
		}
	}
	for _, d := range same[:verifiedWays] {
		w.Remember(1, d)
		w.Remember(1, d) // again: kept once
	}
	for i, d := range same[:verifiedWays] {
		if !w.Allowed(1, d) {
			t.Fatalf("way %d of a full set not admitted", i)
		}
	}
	w.Remember(1, same[verifiedWays])
	if w.Allowed(1, same[0]) || !w.Allowed(1, same[1]) || !w.Allowed(1, same[verifiedWays]) || w.Len() != verifiedWays {
		t.Fatalf("past a full set: the oldest should go, the rest stay (%d entries)", w.Len())
	}
}
