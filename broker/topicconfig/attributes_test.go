package topicconfig

import (
	"maps"
	"testing"
)

func TestParseAttributeModification(t *testing.T) {
	got, err := ParseAttributeModification("+message.type=FIFO,-queue.type")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"+message.type": "FIFO", "-queue.type": ""}
	if !maps.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"message.type=FIFO", "queue.type", "+a=1,+a=2"} {
		if _, err := ParseAttributeModification(bad); err == nil {
			t.Errorf("ParseAttributeModification(%q) succeeded", bad)
		}
	}
}

func TestAlterAttributes(t *testing.T) {
	created, err := AlterAttributes(true, nil, map[string]string{"+message.type": "FIFO", "+queue.type": "SimpleCQ"})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(created, map[string]string{"message.type": "FIFO", "queue.type": "SimpleCQ"}) {
		t.Fatalf("created = %v", created)
	}
	updated, err := AlterAttributes(false, created, map[string]string{"-message.type": ""})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := updated["message.type"]; ok || updated["queue.type"] != "SimpleCQ" {
		t.Fatalf("after removal = %v", updated)
	}
	bad := []struct {
		create  bool
		current map[string]string
		mods    map[string]string
	}{
		{true, nil, map[string]string{"-message.type": ""}},                           // removal on create
		{true, nil, map[string]string{"+nope": "x"}},                                  // unknown key
		{true, nil, map[string]string{"+message.type": "WHATEVER"}},                   // bad value
		{false, created, map[string]string{"+queue.type": "BatchCQ"}},                 // unchangeable
		{false, map[string]string{}, map[string]string{"-message.type": ""}},          // nonexistent
		{false, nil, map[string]string{"+message.type": "FIFO", "-message.type": ""}}, // duplicate
	}
	for _, b := range bad {
		if _, err := AlterAttributes(b.create, b.current, b.mods); err == nil {
			t.Errorf("AlterAttributes(%v, %v, %v) succeeded", b.create, b.current, b.mods)
		}
	}
}
