package remoting

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// binaryFrameWithExt builds a ROCKETMQ-header request frame (length field
// included) whose ext area holds entries one-byte keys/values, all distinct.
func binaryFrameWithExt(entries int, key string, valueLength int) []byte {
	header := binary.BigEndian.AppendUint16(nil, uint16(GET_NAMESRV_CONFIG))
	header = append(header, byte(GO))
	header = binary.BigEndian.AppendUint16(header, 479)
	header = binary.BigEndian.AppendUint32(header, 7) // opaque
	header = binary.BigEndian.AppendUint32(header, 0) // flag
	header = binary.BigEndian.AppendUint32(header, 0) // remark
	var ext []byte
	value := strings.Repeat("v", valueLength)
	for i := range entries {
		name := key
		if name == "" {
			name = fmt.Sprintf("%x", i)
		}
		ext = binary.BigEndian.AppendUint16(ext, uint16(len(name)))
		ext = append(ext, name...)
		ext = binary.BigEndian.AppendUint32(ext, uint32(len(value)))
		ext = append(ext, value...)
	}
	header = binary.BigEndian.AppendUint32(header, uint32(len(ext)))
	header = append(header, ext...)
	frame := binary.BigEndian.AppendUint32(nil, uint32(4+len(header)))
	frame = binary.BigEndian.AppendUint32(frame, uint32(ROCKETMQ)<<24|uint32(len(header)))
	return append(frame, header...)
}

// jsonFrameWithExt builds a JSON-header request frame with entries ext fields.
func jsonFrameWithExt(entries int, key string, valueLength int) []byte {
	var b strings.Builder
	b.WriteString(`{"code":318,"opaque":7,"flag":0,"language":"JAVA","version":479,"extFields":{`)
	value := strings.Repeat("v", valueLength)
	for i := range entries {
		if i > 0 {
			b.WriteByte(',')
		}
		name := key
		if name == "" {
			name = fmt.Sprintf("%x", i)
		}
		fmt.Fprintf(&b, "%q:%q", name, value)
	}
	b.WriteString("}}")
	header := b.String()
	frame := binary.BigEndian.AppendUint32(nil, uint32(4+len(header)))
	frame = binary.BigEndian.AppendUint32(frame, uint32(JSON)<<24|uint32(len(header)))
	return append(frame, header...)
}

// TestExtFieldBounds: past the count or size bounds both decoders refuse the
// header with ErrHeaderLimit; at the bounds they decode it.
func TestExtFieldBounds(t *testing.T) {
	builders := map[string]func(int, string, int) []byte{"binary": binaryFrameWithExt, "json": jsonFrameWithExt}
	for name, build := range builders {
		t.Run(name, func(t *testing.T) {
			for _, over := range []struct {
				what              string
				entries, valueLen int
				key               string
			}{
				{"count", MaxExtFields + 1, 1, ""},
				{"key", 1, 1, strings.Repeat("k", MaxExtKeyLength+1)},
				{"value", 1, MaxExtValueLength + 1, "k"},
			} {
				frame := build(over.entries, over.key, over.valueLen)
				if _, err := DecodeFrame(frame[4:]); !errors.Is(err, ErrHeaderLimit) {
					t.Errorf("%s past its bound: err = %v, want ErrHeaderLimit", over.what, err)
				}
			}
			cmd, err := DecodeFrame(build(MaxExtFields, "", 1)[4:])
			if err != nil || len(cmd.ExtFields) != MaxExtFields {
				t.Fatalf("at the bound: %d fields, err %v", len(cmd.ExtFields), err)
			}
		})
	}
}

// TestServerClosesConnOfHugeExtHeader is the attack of issue 13: a header of
// a million ext fields filling most of a 16 MiB frame, in either layout. The server closes that connection
// without decoding it all and keeps answering others.
func TestServerClosesConnOfHugeExtHeader(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(GET_NAMESRV_CONFIG, echoHandler) })
	for _, build := range []func(int, string, int) []byte{binaryFrameWithExt, jsonFrameWithExt} {
		frame := build(1_000_000, "", 1) // 12 bytes an entry in either layout

		if len(frame) > DefaultMaxFrameSize {
			t.Fatalf("attack frame of %d bytes is past the frame limit", len(frame))
		}
		attacker := dialRaw(t, server)
		attacker.write(frame)
		attacker.expectClosed()
	}
	peer := dialRaw(t, server)
	peer.send(&Command{Code: GET_NAMESRV_CONFIG, Opaque: 3, ExtFields: map[string]string{"echo": "still here"}})
	if resp := peer.read(); resp.Remark != "still here" {
		t.Fatalf("other connection answered %+v", resp)
	}
}
