package remoting

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// headerBytes is the header of cmd's frame, as the fast path reads it.
func headerBytes(t *testing.T, cmd *Command) []byte {
	t.Helper()
	frame, err := Encode(cmd)
	if err != nil {
		t.Fatal(err)
	}
	length := int(binary.BigEndian.Uint32(frame[frameLengthSize:]) & maxHeaderLength)
	return frame[frameLengthSize+headerWordSize : frameLengthSize+headerWordSize+length]
}

func signedRoute(topic, signature string, serialize SerializeType) *Command {
	cmd := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": topic, "AccessKey": "userKey01",
		"Signature": signature, "acceptStandardJsonOnly": "true"}, nil)
	cmd.SerializeType, cmd.Opaque = serialize, 42
	return cmd
}

// TestFastSignedKeyIsTheCommandsKey: the fast path's key of a signed route
// query (scanned, and through the loop's layout memo) is the normal path's
// Command.AppendSignedKey of the same request, in both header encodings; a
// query without credentials has none.
func TestFastSignedKeyIsTheCommandsKey(t *testing.T) {
	memo := newFastHeaderMemo()
	for _, serialize := range []SerializeType{JSON, ROCKETMQ} {
		for _, topic := range []string{"TopicA", "TopicB", "TopicA"} { // the memo's layout is learned, then matched
			cmd := signedRoute(topic, "sig/"+topic+"=", serialize)
			var h fastHeader
			var ok bool
			if serialize == JSON {
				ok = memo.scanTo(headerBytes(t, cmd), &h)
			} else {
				h, ok = scanFastBinaryHeader(headerBytes(t, cmd))
			}
			if !ok {
				t.Fatalf("%v %s: not taken by the fast path", serialize, topic)
			}
			if _, isRoute := h.routeQuery(); !isRoute {
				t.Fatalf("%v %s: signed route query not taken as one", serialize, topic)
			}
			got, want := h.signedKey(nil, nil), cmd.AppendSignedKey(nil)
			if !bytes.Equal(got, want) {
				t.Fatalf("%v %s: fast key %q, command key %q", serialize, topic, got, want)
			}
			if digest, signed := h.signedDigest(nil); !signed || digest != cmd.SignedDigest() {
				t.Fatalf("%v %s: fast digest %x (signed %v), command digest %x", serialize, topic, digest, signed, cmd.SignedDigest())
			}
		}
	}
	plain := NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "TopicA"}, nil)
	h, ok := scanFastHeader(headerBytes(t, plain))
	if _, signed := h.signedDigest(nil); !ok || signed || h.signedKey(nil, nil) != nil {
		t.Fatalf("unsigned query: ok %v, signed %v, key %q", ok, signed, h.signedKey(nil, nil))
	}
}

// TestSignedKeyKeepsBoundariesAndCode: requests whose signatures cover the
// same content (values joined, no code) have different keys.
func TestSignedKeyKeepsBoundariesAndCode(t *testing.T) {
	key := func(code int32, ext map[string]string, body string) string {
		return string(NewRequest(code, ext, []byte(body)).AppendSignedKey(nil))
	}
	base := map[string]string{"namespace": "ns", "key": "k", "Signature": "s"}
	shifted := map[string]string{"namespace": "s", "key": "kn", "Signature": "s"}
	renamed := map[string]string{"namespace": "ns", "kez": "k", "Signature": "s"}
	keys := map[string]string{
		"base":     key(GET_KV_CONFIG, base, ""),
		"shifted":  key(GET_KV_CONFIG, shifted, ""),
		"renamed":  key(GET_KV_CONFIG, renamed, ""),
		"code":     key(DELETE_KV_CONFIG, base, ""),
		"body":     key(GET_KV_CONFIG, base, "x"),
		"bodyMove": key(GET_KV_CONFIG, map[string]string{"namespace": "ns", "key": "", "Signature": "s"}, "k"),
	}
	seen := map[string]string{}
	for name, k := range keys {
		if other, dup := seen[k]; dup {
			t.Fatalf("%s and %s have the same key", name, other)
		}
		seen[k] = name
	}
	if keys["base"] != key(GET_KV_CONFIG, map[string]string{"Signature": "s", "key": "k", "namespace": "ns"}, "") {
		t.Fatal("the same request built in another order has another key")
	}
}
