package load

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// answerFrame is a route answer with opaque and body, as a server writes it.
func answerFrame(t *testing.T, opaque int32, code int32, body string) []byte {
	t.Helper()
	resp := remoting.NewResponse(&remoting.Command{Opaque: opaque}, code, "")
	resp.Body = []byte(body)
	frame, err := remoting.Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

func TestAnswerCheckDecodesOnlyAnswersItHasNotSeen(t *testing.T) {
	decoded := 0
	check := NewAnswerCheck(func(resp *remoting.Command) string {
		decoded++
		if string(resp.Body) != "right" {
			return "wrong body"
		}
		return ExpectSuccess(resp)
	})
	verify := func(frame []byte) string {
		start, end, _, ok := answerOpaque(frame, 0)
		if !ok {
			t.Fatal("no opaque")
		}
		return check.Verify(frame, start, end)
	}
	if kind := verify(answerFrame(t, 1, remoting.SUCCESS, "right")); kind != "" || decoded != 1 {
		t.Fatalf("first right answer: %q after %d decodes", kind, decoded)
	}
	if kind := verify(answerFrame(t, 123456, remoting.SUCCESS, "right")); kind != "" || decoded != 1 {
		t.Fatalf("the same answer with another opaque must pass undecoded: %q after %d decodes", kind, decoded)
	}
	if kind := verify(answerFrame(t, 2, remoting.SUCCESS, "wrong")); kind != "wrong body" || decoded != 2 {
		t.Fatalf("a different body must be decoded and fail: %q after %d decodes", kind, decoded)
	}
	if kind := verify(answerFrame(t, 3, remoting.SYSTEM_ERROR, "right")); kind == "" {
		t.Fatal("an error code with the right body passed")
	}
	if kind := check.Verify([]byte{0, 0, 0, 4, 9, 0, 0, 0}, 0, 0); kind != "bad answer frame" {
		t.Fatalf("garbage: %q", kind)
	}
}
