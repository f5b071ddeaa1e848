package route

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"reflect"
	"testing"
)

func TestDecodeCompressedFixture007(t *testing.T) {
	raw := requestBody(t, "007")
	if !LooksLikeZlib(raw) {
		t.Fatal("fixture 007 not recognised as zlib")
	}
	body, err := DecodeCompressedRegisterBrokerBody(raw, 479)
	if err != nil {
		t.Fatal(err)
	}
	want := &RegisterBrokerBody{
		FilterServerList: []string{},
		TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{
			DataVersion: DataVersion{Counter: 1, Timestamp: 1700000002000},
			TopicConfigTable: map[string]TopicConfig{
				"TopicC":    {TopicName: "TopicC", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6, TopicFilterType: "SINGLE_TAG"},
				"TopicTest": {TopicName: "TopicTest", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6, TopicFilterType: "SINGLE_TAG"},
			},
			TopicQueueMappingInfoMap: map[string]TopicQueueMappingInfo{},
		},
	}
	if !reflect.DeepEqual(body, want) {
		t.Fatalf("got %+v\nwant %+v", body, want)
	}
}

func inflate(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func deflate(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	zw := zlib.NewWriter(&out)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// The verified inflated content of protocol.md 3.8 for one topic.
func TestEncodeCompressedSpecExample(t *testing.T) {
	body := &RegisterBrokerBody{TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{
		DataVersion:      DataVersion{Counter: 5, Timestamp: 1700000000000},
		TopicConfigTable: map[string]TopicConfig{"TopicA": {TopicName: "TopicA", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
	}}
	compressed, err := EncodeCompressedRegisterBrokerBody(body)
	if err != nil {
		t.Fatal(err)
	}
	if compressed[0] != 0x78 || compressed[1] != 0xDA {
		t.Fatalf("header % x, want 78 da (level 9)", compressed[:2])
	}
	want := "\x00\x00\x00\x38{\"counter\":5,\"stateVersion\":0,\"timestamp\":1700000000000}" +
		"\x00\x00\x00\x01" + "\x00\x00\x00\x1aTopicA 4 4 6 SINGLE_TAG {}" + "\x00\x00\x00\x02[]" + "\x00\x00\x00\x00"
	if got := inflate(t, compressed); string(got) != want {
		t.Fatalf("inflated\n%q\nwant\n%q", got, want)
	}
}

func TestCompressedRoundTripAndVersionGate(t *testing.T) {
	body := &RegisterBrokerBody{
		FilterServerList: []string{"10.0.0.1:1", "10.0.0.2:2"},
		TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{
			DataVersion: DataVersion{Counter: 3, StateVersion: 2, Timestamp: 99},
			TopicConfigTable: map[string]TopicConfig{
				"A": {TopicName: "A", ReadQueueNums: 1, WriteQueueNums: 2, Perm: 7, TopicFilterType: "MULTI_TAG",
					Attributes: map[string]string{"+k": "v"}},
				"B": {TopicName: "B", ReadQueueNums: 8, WriteQueueNums: 8, Perm: 6, TopicFilterType: "SINGLE_TAG"},
			},
			TopicQueueMappingInfoMap: map[string]TopicQueueMappingInfo{"A": {Topic: "A", Scope: "__global__", Bname: "b",
				TotalQueues: 2, Epoch: 5, CurrIDMap: map[int32]int32{0: 1}}},
		},
	}
	compressed, err := EncodeCompressedRegisterBrokerBody(body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeCompressedRegisterBrokerBody(compressed, VersionV5_0_0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, body) {
		t.Fatalf("got %+v\nwant %+v", got, body)
	}
	old, err := DecodeCompressedRegisterBrokerBody(compressed, VersionV5_0_0-1)
	if err != nil {
		t.Fatal(err)
	}
	if old.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap != nil || len(old.TopicConfigSerializeWrapper.TopicConfigTable) != 2 {
		t.Fatalf("version 412 read the mapping section: %+v", old)
	}
}

// The topic sys flag and order do not travel in the text form (quirk Q8).
func TestCompressedLosesSysFlagAndOrder(t *testing.T) {
	body := &RegisterBrokerBody{TopicConfigSerializeWrapper: TopicConfigSerializeWrapper{
		TopicConfigTable: map[string]TopicConfig{"U": {TopicName: "U", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6, TopicSysFlag: 3, Order: true}},
	}}
	compressed, err := EncodeCompressedRegisterBrokerBody(body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeCompressedRegisterBrokerBody(compressed, 479)
	if err != nil {
		t.Fatal(err)
	}
	if tc := got.TopicConfigSerializeWrapper.TopicConfigTable["U"]; tc.TopicSysFlag != 0 || tc.Order {
		t.Fatalf("got %+v", tc)
	}
}

func item(b []byte, s string) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func TestDecodeCompressedErrors(t *testing.T) {
	version := []byte(`{"counter":1}`)
	head := item(nil, string(version))
	tests := []struct {
		name  string
		plain []byte
	}{
		{"empty stream", nil},
		{"ends in data version", head[:6]},
		{"no topic count", head},
		{"declared topic missing", binary.BigEndian.AppendUint32(append([]byte{}, head...), 1)},
		{"huge declared length", binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(append([]byte{}, head...), 1), 0x7fffffff)},
		{"negative length", binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(append([]byte{}, head...), 1), 0xffffffff)},
		{"bad topic text", item(binary.BigEndian.AppendUint32(append([]byte{}, head...), 1), "T 1 1")},
		{"no mapping count", item(binary.BigEndian.AppendUint32(append([]byte{}, head...), 0), "[]")},
		{"bad data version", item(nil, `{"counter":"x"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCompressedRegisterBrokerBody(deflate(t, tt.plain), 479)
			if err == nil {
				t.Fatal("no error")
			}
		})
	}
	if _, err := DecodeCompressedRegisterBrokerBody([]byte(`{"a":1}`), 479); !errors.Is(err, ErrRouteCompressedBody) {
		t.Fatalf("not zlib: got %v", err)
	}
	// Below 413 the mapping count is not read, so its absence is fine; a
	// filter list that does not parse is ignored, as Java logs and goes on.
	plain := item(binary.BigEndian.AppendUint32(append([]byte{}, head...), 0), "not json")
	body, err := DecodeCompressedRegisterBrokerBody(deflate(t, plain), 412)
	if err != nil || body.FilterServerList != nil {
		t.Fatalf("got %+v, %v", body, err)
	}
}

func TestDecodeCompressedRefusesBombs(t *testing.T) {
	var out bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&out, zlib.BestSpeed)
	_, _ = zw.Write(item(nil, `{"counter":1}`))
	_, _ = zw.Write(binary.BigEndian.AppendUint32(nil, 0))          // no topic
	_, _ = zw.Write(binary.BigEndian.AppendUint32(nil, 0x7fffffff)) // a filter list "of 2 GiB"
	zeros := make([]byte, 1<<20)
	for written := 0; written <= MaxInflatedRegisterBodySize; written += len(zeros) {
		_, _ = zw.Write(zeros)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeCompressedRegisterBrokerBody(out.Bytes(), 479); !errors.Is(err, ErrRouteBodyTooLarge) {
		t.Fatalf("got %v, want ErrRouteBodyTooLarge", err)
	}
}

func TestLooksLikeZlib(t *testing.T) {
	tests := []struct {
		in   []byte
		want bool
	}{
		{[]byte{0x78, 0xDA}, true}, {[]byte{0x78, 0x9C}, true}, {[]byte{0x78, 0x01}, true},
		{[]byte{0x78, 0xDB}, false}, {[]byte(`{"a":1}`), false}, {[]byte{0x78}, false}, {nil, false},
	}
	for _, tt := range tests {
		if got := LooksLikeZlib(tt.in); got != tt.want {
			t.Errorf("% x: got %v", tt.in, got)
		}
	}
}
