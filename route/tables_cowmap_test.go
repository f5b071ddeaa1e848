package route

import (
	"fmt"
	"reflect"
	"testing"
)

func TestCowEditorLeavesThePublishedMapAlone(t *testing.T) {
	var published cowMap[string, int]
	seed := cowEditor[string, int]{target: &published}
	for i := 0; i < 100; i++ {
		seed.set(fmt.Sprint(i), i)
	}
	next := published // what txn.edit does: copy the shard pointers
	edit := cowEditor[string, int]{target: &next}
	edit.set("0", -1)
	edit.delete("1")
	edit.delete("absent")
	edit.set("new", 7)
	if v, _ := published.get("0"); v != 0 {
		t.Fatalf("published map changed: %d", v)
	}
	if _, ok := published.get("1"); !ok || published.len() != 100 {
		t.Fatal("published map lost an entry")
	}
	if v, _ := next.get("0"); v != -1 {
		t.Fatalf("edit not applied: %d", v)
	}
	if _, ok := next.get("1"); ok || next.len() != 100 {
		t.Fatalf("next len = %d", next.len())
	}
	n := 0
	for range next.all() {
		n++
	}
	if n != next.len() {
		t.Fatalf("all yields %d, len %d", n, next.len())
	}
}

// An edit copies the shard it changes, whole, and shares every other shard
// with the published map.
func TestCowEditorCopiesOnlyTheShardItChanges(t *testing.T) {
	var published cowMap[string, int]
	seed := cowEditor[string, int]{target: &published}
	for i := range 5000 {
		seed.set(fmt.Sprint(i), i)
	}
	next := published
	edit := cowEditor[string, int]{target: &next}
	edit.set("7", -7)
	changed := cowShardOf("7")
	for i := range cowShardCount {
		copied := reflect.ValueOf(next.shards[i]).UnsafePointer() != reflect.ValueOf(published.shards[i]).UnsafePointer()
		if copied != (i == changed) {
			t.Errorf("shard %d: copied %v, want %v", i, copied, i == changed)
		}
	}
	for k, v := range published.shards[changed] {
		if got, ok := next.get(k); k != "7" && (!ok || got != v) {
			t.Fatalf("the copied shard has %q = %d, %v; want %d", k, got, ok, v)
		}
	}
	if len(next.shards[changed]) != len(published.shards[changed]) || !edit.touched() {
		t.Errorf("the copied shard has %d entries, the published one %d; touched %v",
			len(next.shards[changed]), len(published.shards[changed]), edit.touched())
	}
	empty := cowEditor[string, int]{target: &cowMap[string, int]{}}
	if empty.set("first", 1); empty.target.len() != 1 {
		t.Error("a first entry in an empty shard was not stored")
	}
}
