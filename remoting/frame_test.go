package remoting

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func lengthPrefix(length uint32, word ...uint32) []byte {
	buf := binary.BigEndian.AppendUint32(nil, length)
	for _, w := range word {
		buf = binary.BigEndian.AppendUint32(buf, w)
	}
	return buf
}

func TestFrameLength(t *testing.T) {
	cases := []struct {
		name         string
		buf          []byte
		max          int
		wantTotal    int
		wantComplete bool
		wantErr      error
	}{
		{"too few bytes", []byte{0, 0, 0}, 0, 0, false, nil},
		{"length only", lengthPrefix(100), 0, 104, false, nil},
		{"largest accepted length", lengthPrefix(16777212), 0, 16777216, false, nil},
		{"one over the default max", lengthPrefix(16777213), 0, 0, false, ErrFrameTooLarge},
		{"negative length read as huge", lengthPrefix(0xFFFFFFFF), 0, 0, false, ErrFrameTooLarge},
		{"custom max", lengthPrefix(97), 100, 0, false, ErrFrameTooLarge},
		{"length below 4", lengthPrefix(3), 0, 0, false, ErrFrameTooShort},
		{"unknown serialize type", lengthPrefix(10, 2<<24|2), 0, 0, false, ErrUnknownSerializeType},
		{"header beyond frame", lengthPrefix(10, 7), 0, 0, false, ErrBadHeaderLength},
		{"empty header and body", lengthPrefix(4, 0), 0, 8, true, nil},
		{"complete with spare bytes", append(lengthPrefix(5, 1), 'x', 'y'), 0, 9, true, nil},
	}
	for _, tc := range cases {
		total, complete, err := FrameLength(tc.buf, tc.max)
		if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
			t.Errorf("%s: err = %v, want %v", tc.name, err, tc.wantErr)
			continue
		}
		if err == nil && (total != tc.wantTotal || complete != tc.wantComplete) {
			t.Errorf("%s: total %d complete %v, want %d %v", tc.name, total, complete, tc.wantTotal, tc.wantComplete)
		}
	}
}

func TestDecodeFrameRejects(t *testing.T) {
	cases := map[string][]byte{
		"shorter than header word": {0, 0},
		"header beyond frame":      lengthPrefix(100)[0:4],
		"unknown serialize type":   lengthPrefix(5 << 24),
		"json null":                append(lengthPrefix(4), "null"...),
		"binary too short":         append(lengthPrefix(1<<24|2), 0, 1),
	}
	for name, frame := range cases {
		if cmd, err := DecodeFrame(frame); err == nil {
			t.Errorf("%s: decoded %+v", name, *cmd)
		}
	}
}

func TestFrameRoundTripBothSerializations(t *testing.T) {
	for _, serializeType := range []SerializeType{JSON, ROCKETMQ} {
		cmd := &Command{Code: 103, Language: GO, Version: 479, Opaque: -5, Flag: 2, Remark: "r\u2028é",
			ExtFields: map[string]string{"brokerName": "broker-a", "brokerId": "0"}, Body: []byte("{\"x\":1}"),
			SerializeType: serializeType}
		frame := mustEncode(t, cmd)
		if total, complete, err := FrameLength(frame, 0); err != nil || !complete || total != len(frame) {
			t.Fatalf("%s: FrameLength = %d %v %v", serializeType, total, complete, err)
		}
		if got := mustDecodeFrame(t, frame); !sameCommand(got, cmd) {
			t.Fatalf("%s: round trip\n got %+v\nwant %+v", serializeType, *got, *cmd)
		}
	}
}

func TestAppendFrameBatchesAndKeepsDstOnError(t *testing.T) {
	first := NewRequest(GET_KV_CONFIG, map[string]string{"key": "k"}, nil)
	second := NewRequest(PUT_KV_CONFIG, nil, []byte("body"))
	batch, err := AppendFrame(nil, first)
	if err != nil {
		t.Fatal(err)
	}
	batch, err = AppendFrame(batch, second)
	if err != nil {
		t.Fatal(err)
	}
	total, _, _ := FrameLength(batch, 0)
	if !sameCommand(mustDecodeFrame(t, batch[:total]), first) || !sameCommand(mustDecodeFrame(t, batch[total:]), second) {
		t.Fatal("batched frames do not decode to their commands")
	}
	bad := &Command{Code: 70000, SerializeType: ROCKETMQ}
	kept, err := AppendFrame(batch, bad)
	if !errors.Is(err, ErrOutOfRange) || !bytes.Equal(kept, batch) {
		t.Fatalf("AppendFrame error %v changed dst to %d bytes", err, len(kept))
	}
	if _, err := Encode(&Command{SerializeType: 9}); !errors.Is(err, ErrUnknownSerializeType) {
		t.Fatalf("unknown type encode: %v", err)
	}
}

func TestDecodeFrameEmptyBodyIsNil(t *testing.T) {
	cmd := mustDecodeFrame(t, mustEncode(t, &Command{Body: []byte{}}))
	if cmd.Body != nil {
		t.Fatalf("body %v, want nil", cmd.Body)
	}
}

func FuzzDecodeFrame(f *testing.F) {
	for _, cmd := range []*Command{
		NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "TopicTest"}, nil),
		{Code: 103, Flag: 1, Remark: "x", Body: []byte("body"), SerializeType: ROCKETMQ, ExtFields: map[string]string{"a": "b"}},
	} {
		frame, _ := Encode(cmd)
		f.Add(frame[4:])
	}
	f.Add([]byte{0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, frame []byte) {
		first, err := DecodeFrame(frame)
		if err != nil {
			return
		}
		encoded, err := Encode(first)
		if err != nil {
			if errors.Is(err, ErrOutOfRange) {
				return // a JSON code beyond 16 bits cannot be re-encoded in binary and vice versa
			}
			t.Fatalf("re-encode %+v: %v", *first, err)
		}
		second, err := DecodeFrame(encoded[4:])
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !sameCommand(first, second) {
			t.Fatalf("round trip changed the command\nfirst  %+v\nsecond %+v", *first, *second)
		}
	})
}

// typicalRouteResponse is a GET_ROUTEINFO_BY_TOPIC answer with a body of
// about 1.5 KB: four broker groups of two members each.
func typicalRouteResponse() *Command {
	var brokers, queues []string
	for i := range 4 {
		brokers = append(brokers, fmt.Sprintf(`{"brokerAddrs":{"0":"10.0.0.%d:10911","1":"10.0.1.%d:10911"},"brokerName":"broker-%d","cluster":"DefaultCluster","enableActingMaster":false}`, i, i, i))
		queues = append(queues, fmt.Sprintf(`{"brokerName":"broker-%d","perm":6,"readQueueNums":16,"topicSysFlag":0,"writeQueueNums":16}`, i))
	}
	body := `{"brokerDatas":[` + strings.Join(brokers, ",") + `],"filterServerTable":{},"queueDatas":[` + strings.Join(queues, ",") + `]}`
	req := &Command{Opaque: 12345}
	resp := NewResponse(req, SUCCESS, "")
	resp.Body = []byte(body)
	return resp
}

func BenchmarkEncodeRouteResponse(b *testing.B) {
	resp := typicalRouteResponse()
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	b.SetBytes(int64(len(resp.Body)))
	for b.Loop() {
		var err error
		if buf, err = AppendFrame(buf[:0], resp); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRouteResponse(b *testing.B) {
	frame, _ := Encode(typicalRouteResponse())
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if _, err := DecodeFrame(frame[4:]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeRouteRequest(b *testing.B) {
	frame, _ := Encode(&Command{Code: 105, Version: 479, Opaque: 7, ExtFields: map[string]string{"topic": "TopicTest"}})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeFrame(frame[4:]); err != nil {
			b.Fatal(err)
		}
	}
}
