package route

import (
	"encoding/json"
	"fmt"
	"testing"
)

// registerBody10k is what a broker with 10,000 topics sends: the JSON body of
// a 5.x broker (fixture 001's shape) with every topic present.
func registerBody10k(tb testing.TB) []byte {
	tb.Helper()
	table := make(map[string]TopicConfig, 10000)
	for i := range 10000 {
		name := fmt.Sprintf("benchmark-topic-%05d", i)
		table[name] = TopicConfig{TopicName: name, ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6, TopicSysFlag: int32(i % 4)}
	}
	body := &RegisterBrokerBody{TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{
		DataVersion: DataVersion{Counter: 42, Timestamp: 1700000000000}, TopicConfigTable: table}}
	return EncodeRegisterBrokerBody(nil, body, DataVersion{Timestamp: 1700000000000})
}

// encoding/json reads the same body into the same types (its field matching
// is case-insensitive, so the Java names find the Go fields): both decoders
// must agree, or the benchmark below would compare different work.
func TestRegisterBody10kMatchesEncodingJSON(t *testing.T) {
	raw := registerBody10k(t)
	ours, err := DecodeRegisterBrokerBody(raw)
	if err != nil {
		t.Fatal(err)
	}
	var std RegisterBrokerBody
	if err := json.Unmarshal(raw, &std); err != nil {
		t.Fatal(err)
	}
	if len(ours.TopicConfigSerializeWrapper.TopicConfigTable) != 10000 ||
		ours.TopicConfigSerializeWrapper.DataVersion != std.TopicConfigSerializeWrapper.DataVersion {
		t.Fatalf("ours: %d topics, version %+v", len(ours.TopicConfigSerializeWrapper.TopicConfigTable), ours.TopicConfigSerializeWrapper.DataVersion)
	}
	for name, tc := range std.TopicConfigSerializeWrapper.TopicConfigTable {
		tc.Attributes = nil // encoding/json makes {} an empty map; ours keeps nil
		if got := ours.TopicConfigSerializeWrapper.TopicConfigTable[name]; fmt.Sprint(got) != fmt.Sprint(tc) {
			t.Fatalf("%s: ours %+v, encoding/json %+v", name, got, tc)
		}
	}
}

func BenchmarkDecodeRegisterBody10k(b *testing.B) {
	raw := registerBody10k(b)
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := DecodeRegisterBrokerBody(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			var body RegisterBrokerBody
			if err := json.Unmarshal(raw, &body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("data-version-only", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := DecodeRegisterBrokerDataVersion(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkCompressedRegisterBody10k(b *testing.B) {
	body, err := DecodeRegisterBrokerBody(registerBody10k(b))
	if err != nil {
		b.Fatal(err)
	}
	compressed, err := EncodeCompressedRegisterBrokerBody(body)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(compressed)))
		for b.Loop() {
			if _, err := DecodeCompressedRegisterBrokerBody(compressed, 479); err != nil {
				b.Fatal(err)
			}
		}
	})
}
