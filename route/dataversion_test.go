package route

import "testing"

func TestDataVersionEncodeMatchesFixture(t *testing.T) {
	want := responseBody(t, "055")
	v, err := DecodeDataVersion(want)
	if err != nil {
		t.Fatal(err)
	}
	if v != (DataVersion{Counter: 2, Timestamp: 1700000060000}) {
		t.Fatalf("decoded %+v", v)
	}
	if got := EncodeDataVersion(nil, v); string(got) != string(want) {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestDataVersionEqual(t *testing.T) {
	base := DataVersion{Counter: 5, StateVersion: 1, Timestamp: 1700000000000}
	if !base.Equal(base) {
		t.Fatal("a version must equal itself")
	}
	for _, other := range []DataVersion{
		{Counter: 6, StateVersion: 1, Timestamp: 1700000000000},
		{Counter: 5, StateVersion: 2, Timestamp: 1700000000000},
		{Counter: 5, StateVersion: 1, Timestamp: 1700000000001},
	} {
		if base.Equal(other) {
			t.Errorf("%+v equals %+v", base, other)
		}
	}
}

func TestDecodeDataVersionMissingFieldsAreZero(t *testing.T) {
	// Quirk Q19: Java stamps a missing timestamp with its clock; route reads 0.
	v, err := DecodeDataVersion([]byte(`{"counter":7,"unknown":[1]}`))
	if err != nil {
		t.Fatal(err)
	}
	if v != (DataVersion{Counter: 7}) {
		t.Fatalf("got %+v", v)
	}
	if _, err := DecodeDataVersion([]byte(`{"counter":"x"}`)); err == nil {
		t.Fatal("a non-numeric counter was accepted")
	}
}
