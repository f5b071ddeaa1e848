package route

import (
	"fmt"
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
