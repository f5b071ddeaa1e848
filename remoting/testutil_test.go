package remoting

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/sirupsen/logrus"
)

// javaExchange is one recorded exchange of testdata/java-5.3.3 (a copy of
// shared/fixtures/java-5.3.3, see its README).
type javaExchange struct {
	Name    string `json:"name"`
	Request struct {
		Code          int32  `json:"code"`
		Header        string `json:"header"`
		SerializeType string `json:"serializeType"`
		BodyText      string `json:"bodyText"`
	} `json:"request"`
	Response *struct {
		FrameHex string `json:"frameHex"`
	} `json:"response"`
}

func loadExchange(t testing.TB, name string) javaExchange {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "java-5.3.3", name+".json"))
	if err != nil {
		t.Fatalf("read fixture %s: %v", name, err)
	}
	var exchange javaExchange
	if err := json.Unmarshal(raw, &exchange); err != nil {
		t.Fatalf("parse fixture %s: %v", name, err)
	}
	return exchange
}

// requestFrame rebuilds the recorded request frame as the fixture README says.
func (e javaExchange) requestFrame(t testing.TB) []byte {
	t.Helper()
	header := []byte(e.Request.Header)
	serializeType := byte(0)
	if e.Request.SerializeType == "ROCKETMQ" {
		serializeType = 1
		var err error
		if header, err = hex.DecodeString(e.Request.Header); err != nil {
			t.Fatalf("fixture %s header hex: %v", e.Name, err)
		}
	}
	body := []byte(e.Request.BodyText)
	length := 4 + len(header) + len(body)
	frame := []byte{byte(length >> 24), byte(length >> 16), byte(length >> 8), byte(length),
		serializeType, byte(len(header) >> 16), byte(len(header) >> 8), byte(len(header))}
	frame = append(frame, header...)
	return append(frame, body...)
}

func (e javaExchange) responseFrame(t testing.TB) []byte {
	t.Helper()
	if e.Response == nil {
		t.Fatalf("fixture %s has no response", e.Name)
	}
	frame, err := hex.DecodeString(e.Response.FrameHex)
	if err != nil {
		t.Fatalf("fixture %s frame hex: %v", e.Name, err)
	}
	return frame
}

// quietLogger keeps expected warnings out of test output.
func quietLogger() *logrus.Entry {
	logger := logrus.New()
	logger.SetOutput(io.Discard)
	return logrus.NewEntry(logger)
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
