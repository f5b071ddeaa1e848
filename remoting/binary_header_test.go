package remoting

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

// The verified example of protocol.md 1.6.
const verifiedBinaryFrameHex = "0000002f" + "0100002b" + "0069" + "00" + "01df" + "00000007" + "00000000" +
	"00000002" + "6869" + "00000014" + "0005" + "746f706963" + "00000009" + "546f70696354657374"

func TestBinaryHeaderVerifiedExample(t *testing.T) {
	want, _ := hex.DecodeString(verifiedBinaryFrameHex)
	cmd := &Command{Code: 105, Language: JAVA, Version: 479, Opaque: 7, Remark: "hi",
		ExtFields: map[string]string{"topic": "TopicTest"}, SerializeType: ROCKETMQ}
	if got := mustEncode(t, cmd); !bytes.Equal(got, want) {
		t.Fatalf("encoded\n got % x\nwant % x", got, want)
	}
	if decoded := mustDecodeFrame(t, want); !sameCommand(decoded, cmd) {
		t.Fatalf("decoded %+v", *decoded)
	}
}

// The binary request recorded against Java 5.3.3 (fixture 087) decodes to
// the route query it is.
func TestBinaryHeaderJavaFixture(t *testing.T) {
	exchange := loadExchange(t, "087-route-topictest-rocketmq-header")
	frame := exchange.requestFrame(t)
	cmd := mustDecodeFrame(t, frame)
	want := &Command{Code: 105, Language: JAVA, Version: 479, Opaque: 87,
		ExtFields: map[string]string{"topic": "TopicTest"}, SerializeType: ROCKETMQ}
	if !sameCommand(cmd, want) {
		t.Fatalf("decoded %+v", *cmd)
	}
	if got := mustEncode(t, cmd); !bytes.Equal(got, frame) {
		t.Fatalf("re-encoded % x\nwant % x", got, frame)
	}
}

// Quirk Q29: zero-length remark, keys and values decode as absent.
func TestBinaryHeaderEmptyStringsAreAbsent(t *testing.T) {
	header := []byte{0, 1, 9, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}
	ext := []byte{0, 0, 0, 0, 0, 1, 'v', 0, 1, 'k', 0, 0, 0, 0, 0, 1, 'a', 0, 0, 0, 1, 'b'}
	header = append(header, 0, 0, 0, byte(len(ext)))
	header = append(header, ext...)
	cmd := &Command{}
	if err := decodeBinaryHeader(header, cmd); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if cmd.Remark != "" || len(cmd.ExtFields) != 1 || cmd.ExtFields["a"] != "b" || cmd.Language != GO || cmd.Opaque != 1 {
		t.Fatalf("decoded %+v", *cmd)
	}
	// And the encoder leaves out what would decode as absent.
	encoded, err := appendBinaryHeader(nil, &Command{ExtFields: map[string]string{"": "x", "y": ""}})
	if err != nil || len(encoded) != binaryFixedSize {
		t.Fatalf("encoded % x, %v", encoded, err)
	}
}

func TestBinaryHeaderRejects(t *testing.T) {
	fixed := func(remarkLength, extLength uint32, tail ...byte) []byte {
		header := []byte{0, 105, 0, 1, 0xdf, 0, 0, 0, 7, 0, 0, 0, 0,
			byte(remarkLength >> 24), byte(remarkLength >> 16), byte(remarkLength >> 8), byte(remarkLength)}
		if extLength != 1<<32-1 {
			header = append(header, byte(extLength>>24), byte(extLength>>16), byte(extLength>>8), byte(extLength))
		}
		return append(header, tail...)
	}
	cases := map[string][]byte{
		"shorter than fixed part": {0, 1, 2},
		"remark beyond header":    fixed(100, 0),
		"negative remark length":  fixed(1<<31, 0),
		"ext length beyond":       fixed(0, 50),
		"missing ext length":      fixed(0, 1<<32-1),
		"key beyond ext area":     fixed(0, 3, 0, 5, 'a'),
		"value beyond ext area":   fixed(0, 8, 0, 1, 'a', 0, 0, 0, 9, 'b'),
		"negative key length":     fixed(0, 2, 0xff, 0xff),
		"truncated value length":  fixed(0, 4, 0, 1, 'a', 0),
	}
	for name, header := range cases {
		if err := decodeBinaryHeader(header, &Command{}); !errors.Is(err, ErrBadHeader) {
			t.Errorf("%s: err = %v, want ErrBadHeader", name, err)
		}
	}
}

func TestBinaryHeaderOutOfRange(t *testing.T) {
	for _, cmd := range []*Command{
		{Code: 99999}, {Version: 40000}, {ExtFields: map[string]string{strings.Repeat("k", 1<<15): "v"}},
	} {
		if _, err := appendBinaryHeader(nil, cmd); !errors.Is(err, ErrOutOfRange) {
			t.Errorf("encode code %d version %d: err = %v", cmd.Code, cmd.Version, err)
		}
	}
}

func TestBinaryUnknownLanguageRoundTrip(t *testing.T) {
	header, err := appendBinaryHeader(nil, &Command{Language: LanguageUnknown})
	if err != nil {
		t.Fatal(err)
	}
	header[2] = 200
	cmd := &Command{}
	if err := decodeBinaryHeader(header, cmd); err != nil || cmd.Language != LanguageUnknown {
		t.Fatalf("language %d, err %v", cmd.Language, err)
	}
}

func FuzzDecodeBinaryHeader(f *testing.F) {
	verified, _ := hex.DecodeString(verifiedBinaryFrameHex)
	f.Add(verified[8:])
	f.Add(make([]byte, binaryFixedSize))
	fixture, _ := hex.DecodeString("00690001df000000570000000000000000000000140005746f70696300000009546f70696354657374")
	f.Add(fixture)
	f.Fuzz(func(t *testing.T, data []byte) {
		first := &Command{SerializeType: ROCKETMQ}
		if err := decodeBinaryHeader(data, first); err != nil {
			return
		}
		encoded, err := appendBinaryHeader(nil, first)
		if err != nil {
			t.Fatalf("re-encode %+v: %v", *first, err)
		}
		second := &Command{SerializeType: ROCKETMQ}
		if err := decodeBinaryHeader(encoded, second); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !sameCommand(first, second) {
			t.Fatalf("round trip changed the command\nfirst  %+v\nsecond %+v", *first, *second)
		}
	})
}
