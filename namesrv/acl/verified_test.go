package acl

import (
	"bytes"
	"fmt"
	"testing"
)

func TestVerifiedRemembersAnExactKey(t *testing.T) {
	var v Verified
	key := []byte("\x00\x00\x00\x69AccessKeyuserKey01Signatureabc=topicT")
	if v.Allowed(1, key) {
		t.Fatal("an empty memo admits")
	}
	v.Remember(1, key)
	if !v.Allowed(1, key) {
		t.Fatal("a remembered key is not admitted")
	}
	// any byte changed, one added or one cut is another request
	for i := range key {
		changed := bytes.Clone(key)
		changed[i] ^= 1
		if v.Allowed(1, changed) {
			t.Fatalf("byte %d changed: admitted", i)
		}
	}
	if v.Allowed(1, key[:len(key)-1]) || v.Allowed(1, append(bytes.Clone(key), 'x')) {
		t.Fatal("a shorter or a longer key is admitted")
	}
}

func TestVerifiedIsDroppedByANewerEpoch(t *testing.T) {
	var v Verified
	key := []byte("key")
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
	for i := range VerifiedEntries {
		v.Remember(1, fmt.Appendf(nil, "key-%d", i))
	}
	if v.Len() != VerifiedEntries || !v.Allowed(1, []byte("key-0")) {
		t.Fatalf("%d entries, want %d with the first kept", v.Len(), VerifiedEntries)
	}
	v.Remember(1, []byte("one more"))
	if v.Len() != 1 || v.Allowed(1, []byte("key-0")) || !v.Allowed(1, []byte("one more")) {
		t.Fatalf("past the bound: %d entries, want the memo emptied and the new key alone", v.Len())
	}
	// the bytes bound: keys of VerifiedKeyMax fill it before the count does
	var w Verified
	long := bytes.Repeat([]byte("k"), VerifiedKeyMax)
	for i := range VerifiedBytes / VerifiedKeyMax {
		long[0] = byte(i)
		w.Remember(1, long)
	}
	if w.Len() != VerifiedBytes/VerifiedKeyMax {
		t.Fatalf("%d long keys kept, want %d", w.Len(), VerifiedBytes/VerifiedKeyMax)
	}
	long[0] = 0xff
	w.Remember(1, long)
	if w.Len() != 1 {
		t.Fatalf("past the bytes bound: %d entries, want 1", w.Len())
	}
	w.Remember(1, append(long, 'x'))
	if w.Allowed(1, append(long, 'x')) {
		t.Fatal("a key longer than VerifiedKeyMax was kept")
	}
}
