package load

import (
	"bytes"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestTemplateFramesEqualTheCodecsForEveryOpaqueWidth(t *testing.T) {
	req := RouteRequest("SomeTopic")
	tmpl, err := NewTemplate(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := []byte("prefix")
	for _, opaque := range []int32{0, 7, 42, 123456, 1<<31 - 1, -5} {
		req.Opaque = opaque
		want, err := remoting.Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		buf = tmpl.Append(buf[:6], opaque)
		if !bytes.Equal(buf[6:], want) || string(buf[:6]) != "prefix" {
			t.Fatalf("opaque %d: template frame\n%q\nwant\n%q", opaque, buf[6:], want)
		}
		start, end, got, ok := answerOpaque(buf[6:], 0)
		if !ok || got != opaque || string(buf[6+start:6+end]) != string(want[start:end]) {
			t.Fatalf("opaque %d read back as %d (%v)", opaque, got, ok)
		}
	}
}

func TestBinaryTemplateFramesEqualTheCodecs(t *testing.T) {
	req := RouteRequest("SomeTopic")
	req.SerializeType = remoting.ROCKETMQ
	tmpl, err := NewTemplate(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, opaque := range []int32{0, 7, 1<<31 - 1, -5} {
		req.Opaque = opaque
		want, err := remoting.Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		got := tmpl.Append([]byte("x"), opaque)
		if !bytes.Equal(got[1:], want) {
			t.Fatalf("opaque %d: template frame\n%q\nwant\n%q", opaque, got[1:], want)
		}
		if start, end, read, ok := answerOpaque(got[1:], 0); !ok || read != opaque || end-start != 4 {
			t.Fatalf("opaque %d read back as %d at %d-%d (%v)", opaque, read, start, end, ok)
		}
	}
}

func TestAnswerOpaqueRejectsWhatItCannotRead(t *testing.T) {
	for name, frame := range map[string][]byte{
		"short": {0, 0, 0, 4}, "header past the frame": {0, 0, 0, 8, 0, 0, 0, 99},
		"binary header too short for an opaque": {0, 0, 0, 8, 1, 0, 0, 4, 0, 1, 0, 0},
		"unknown serialize type":                {0, 0, 0, 8, 7, 0, 0, 4, '{', '}', ' ', ' '},
	} {
		if _, _, _, ok := answerOpaque(frame, 0); ok {
			t.Errorf("%s: read an opaque", name)
		}
	}
}

func TestAnswerOpaqueHintIsCheckedBeforeUse(t *testing.T) {
	frame, err := remoting.Encode(&remoting.Command{Code: 0, Opaque: 31337, Language: remoting.JAVA, ExtFields: map[string]string{"k": "v"}})
	if err != nil {
		t.Fatal(err)
	}
	start, _, _, _ := answerOpaque(frame, 0)
	for _, hint := range []int{0, 3, start - 1, start, start + 1, len(frame) + 10} {
		if s, _, opaque, ok := answerOpaque(frame, hint); !ok || opaque != 31337 || s != start {
			t.Errorf("hint %d: opaque %d at %d (%v), want 31337 at %d", hint, opaque, s, ok, start)
		}
	}
}

// TestSignedTemplateVerifiesForEveryOpaque: with TemplateSigner set, a
// template carries AccessKey and Signature, the signature verifies with the
// secret whatever opaque the request is sent with (the opaque is not signed),
// and the request the template was made from is left unsigned.
func TestSignedTemplateVerifiesForEveryOpaque(t *testing.T) {
	TemplateSigner = aclsign.Signer(aclsign.Credentials{AccessKey: "ak", SecretKey: "secret-of-ak"})
	t.Cleanup(func() { TemplateSigner = nil })
	req := RouteRequest("TopicA")
	tmpl := MustTemplate(req)
	if _, signed := req.ExtFields["Signature"]; signed {
		t.Fatal("the template's source request was signed in place")
	}
	for _, opaque := range []int32{1, 987654321, 1 << 29} {
		cmd, err := remoting.DecodeFrame(tmpl.Append(nil, opaque)[4:])
		if err != nil {
			t.Fatal(err)
		}
		if cmd.Opaque != opaque || cmd.ExtFields["AccessKey"] != "ak" || cmd.ExtFields["topic"] != "TopicA" {
			t.Fatalf("opaque %d: decoded %+v", opaque, cmd)
		}
		if !aclsign.Verify(cmd.ExtFields, cmd.Body, "secret-of-ak") || aclsign.Verify(cmd.ExtFields, cmd.Body, "other") {
			t.Fatalf("opaque %d: the signature does not verify with the secret alone", opaque)
		}
	}
}
