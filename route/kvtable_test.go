package route

import (
	"reflect"
	"testing"
)

func TestKVTableFixtures(t *testing.T) {
	for _, fixture := range []string{"040", "022", "047"} {
		body := responseBody(t, fixture)
		kv, err := DecodeKVTable(body)
		if err != nil {
			t.Fatalf("%s: %v", fixture, err)
		}
		if got := EncodeKVTable(nil, kv); canonicalJSON(t, got) != canonicalJSON(t, body) {
			t.Errorf("%s: got %s, want %s", fixture, got, body)
		}
	}
	kv, err := DecodeKVTable(responseBody(t, "040"))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"k1": "v1", "k2": "größe=√2 名前"}; !reflect.DeepEqual(kv.Table, want) {
		t.Fatalf("got %v", kv.Table)
	}
}

func TestEncodeKVTableSortsKeys(t *testing.T) {
	kv := &KVTable{Table: map[string]string{"k2": "v2", "TopicA": "broker-a:4;broker-b:4"}}
	if got, want := string(EncodeKVTable(nil, kv)), `{"table":{"TopicA":"broker-a:4;broker-b:4","k2":"v2"}}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if got := string(EncodeKVTable(nil, &KVTable{})); got != `{"table":{}}` {
		t.Fatalf("empty: got %s", got)
	}
}
