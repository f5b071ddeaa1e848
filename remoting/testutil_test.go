package remoting

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/javafixture"
)

// javaExchange is one recorded exchange of testdata/java-5.3.3 (a copy of
// shared/fixtures/java-5.3.3, see its README).
type javaExchange struct {
	*javafixture.Exchange
}

// loadExchange reads the recorded exchange with the full file name name
// (without ".json").
func loadExchange(t testing.TB, name string) javaExchange {
	t.Helper()
	number, _, _ := strings.Cut(name, "-")
	exchange, err := javafixture.Load(filepath.Join("testdata", "java-5.3.3"), number)
	if err != nil {
		t.Fatalf("load fixture %s: %v", name, err)
	}
	if exchange.Name != name {
		t.Fatalf("fixture %s: file holds %s", name, exchange.Name)
	}
	return javaExchange{exchange}
}

// requestFrame rebuilds the recorded request frame as the fixture README says.
func (e javaExchange) requestFrame(t testing.TB) []byte {
	t.Helper()
	frame, err := e.Request.Frame()
	if err != nil {
		t.Fatalf("fixture %s: %v", e.Name, err)
	}
	return frame
}

func (e javaExchange) responseFrame(t testing.TB) []byte {
	t.Helper()
	frame, err := e.Response.Frame()
	if err != nil {
		t.Fatalf("fixture %s: %v", e.Name, err)
	}
	return frame
}

func mustDecodeFrame(t testing.TB, frame []byte) *Command {
	t.Helper()
	cmd, err := DecodeFrame(frame[4:])
	if err != nil {
		t.Fatalf("decode frame: %v", err)
	}
	return cmd
}

func mustEncode(t testing.TB, cmd *Command) []byte {
	t.Helper()
	frame, err := Encode(cmd)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return frame
}

// sameCommand compares two commands field by field; ExtFields nil and empty
// differ (they encode differently), Body nil and empty do not.
func sameCommand(a, b *Command) bool {
	if a.Code != b.Code || a.Language != b.Language || a.Version != b.Version || a.Opaque != b.Opaque ||
		a.Flag != b.Flag || a.Remark != b.Remark || a.SerializeType != b.SerializeType ||
		!bytes.Equal(a.Body, b.Body) || (a.ExtFields == nil) != (b.ExtFields == nil) || len(a.ExtFields) != len(b.ExtFields) {
		return false
	}
	for key, value := range a.ExtFields {
		if other, ok := b.ExtFields[key]; !ok || other != value {
			return false
		}
	}
	return true
}
