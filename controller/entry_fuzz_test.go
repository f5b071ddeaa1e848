package controller

import (
	"reflect"
	"testing"
)

// FuzzDecodeEntry: any bytes decode to events or an error, never a panic,
// and what decodes re-encodes to events equal to it.
func FuzzDecodeEntry(f *testing.F) {
	good, _ := EncodeEntry(allEvents())
	f.Add(good)
	f.Add([]byte{})
	f.Add([]byte{0, 3, 0, 0, 0, 2, '{', '}'})
	f.Fuzz(func(t *testing.T, b []byte) {
		events, err := DecodeEntry(b)
		if err != nil {
			return
		}
		again, err := EncodeEntry(events)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeEntry(again)
		if err != nil || !reflect.DeepEqual(back, events) {
			t.Fatalf("re-encoded entry differs: %v %v", back, err)
		}
		st := NewState()
		st.ApplyAll(events)
	})
}
