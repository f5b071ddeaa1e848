package javafixture

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// splitTestFrame checks a frame's length word and returns its serialize type,
// header and body.
func splitTestFrame(t *testing.T, name string, frame []byte) (byte, []byte, []byte) {
	t.Helper()
	if len(frame) < 8 {
		t.Fatalf("%s: frame of %d bytes", name, len(frame))
	}
	if length := binary.BigEndian.Uint32(frame); int(length) != len(frame)-4 {
		t.Fatalf("%s: length word %d for a frame of %d bytes", name, length, len(frame))
	}
	word := binary.BigEndian.Uint32(frame[4:])
	headerLength := int(word & 0xFFFFFF)
	if 8+headerLength > len(frame) {
		t.Fatalf("%s: header length %d beyond the frame", name, headerLength)
	}
	return byte(word >> 24), frame[8 : 8+headerLength], frame[8+headerLength:]
}

// bodyOrEmpty turns ErrNoBody into an empty body, as it is on the wire.
func bodyOrEmpty(t *testing.T, name string, body []byte, err error) []byte {
	t.Helper()
	if err != nil && !errors.Is(err, ErrNoBody) {
		t.Fatalf("%s: body: %v", name, err)
	}
	return body
}

func TestRequestFrameCarriesTheRecordedRequest(t *testing.T) {
	types := map[byte]int{}
	for _, exchange := range loadCorpus(t) {
		frame, err := exchange.Request.Frame()
		if err != nil {
			t.Fatalf("%s: %v", exchange.Name, err)
		}
		serializeType, header, body := splitTestFrame(t, exchange.Name, frame)
		types[serializeType]++
		wantBody, err := exchange.Request.Body()
		if !bytes.Equal(body, bodyOrEmpty(t, exchange.Name, wantBody, err)) {
			t.Errorf("%s: frame body %q, want %q", exchange.Name, body, wantBody)
		}
		if serializeType != serializeJSON {
			continue
		}
		if string(header) != exchange.Request.Header {
			t.Errorf("%s: frame header %q, want %q", exchange.Name, header, exchange.Request.Header)
		}
		// The recorder put the file number in every request's opaque.
		var fields struct {
			Code   int32 `json:"code"`
			Opaque int   `json:"opaque"`
		}
		if err := json.Unmarshal(header, &fields); err != nil {
			t.Fatalf("%s: header: %v", exchange.Name, err)
		}
		number, _, _ := strings.Cut(exchange.Name, "-")
		if strconv.Itoa(fields.Opaque) != strings.TrimLeft(number, "0") || fields.Code != exchange.Request.Code {
			t.Errorf("%s: header code %d opaque %d, want %d and the file number", exchange.Name, fields.Code, fields.Opaque, exchange.Request.Code)
		}
	}
	if types[serializeJSON] == 0 || types[serializeRocketMQ] == 0 {
		t.Fatalf("frames per serialize type %v: want both JSON and ROCKETMQ", types)
	}
}

func TestResponseFrameHoldsTheDecodedHeaderAndBody(t *testing.T) {
	withBody := 0
	for _, exchange := range loadCorpus(t) {
		if exchange.Response == nil {
			continue
		}
		frame, err := exchange.Response.Frame()
		if err != nil {
			t.Fatalf("%s: %v", exchange.Name, err)
		}
		serializeType, header, body := splitTestFrame(t, exchange.Name, frame)
		if serializeType != serializeJSON {
			t.Fatalf("%s: response serialize type %d", exchange.Name, serializeType)
		}
		var inFrame, decoded any
		if err := json.Unmarshal(header, &inFrame); err != nil {
			t.Fatalf("%s: frame header: %v", exchange.Name, err)
		}
		if err := json.Unmarshal(exchange.Response.Header, &decoded); err != nil {
			t.Fatalf("%s: recorded header: %v", exchange.Name, err)
		}
		if !reflect.DeepEqual(inFrame, decoded) {
			t.Errorf("%s: frame header %s, want %s", exchange.Name, header, exchange.Response.Header)
		}
		wantBody, err := exchange.Response.Body()
		if err == nil {
			withBody++
		}
		if !bytes.Equal(body, bodyOrEmpty(t, exchange.Name, wantBody, err)) {
			t.Errorf("%s: frame body %q, want %q", exchange.Name, body, wantBody)
		}
		if exchange.Response.BodyText != nil && string(wantBody) != *exchange.Response.BodyText {
			t.Errorf("%s: bodyText and bodyHex differ", exchange.Name)
		}
	}
	if withBody == 0 {
		t.Fatal("no response in the corpus has a body")
	}
}

func TestNilResponseIsReportedNotDereferenced(t *testing.T) {
	var none *Response
	if _, err := none.Frame(); !errors.Is(err, ErrNoResponse) {
		t.Errorf("Frame of nil: err = %v, want ErrNoResponse", err)
	}
	if _, err := none.Body(); !errors.Is(err, ErrNoResponse) {
		t.Errorf("Body of nil: err = %v, want ErrNoResponse", err)
	}
}

func TestBodyPrefersHexAndReportsNone(t *testing.T) {
	text, hexText, badHex := "text", "686578", "zz"
	if body, err := (Request{BodyText: &text, BodyHex: &hexText}).Body(); err != nil || string(body) != "hex" {
		t.Errorf("both forms: %q %v, want the hex one", body, err)
	}
	if body, err := (&Response{BodyText: &text}).Body(); err != nil || string(body) != text {
		t.Errorf("text only: %q %v", body, err)
	}
	if _, err := (Request{}).Body(); !errors.Is(err, ErrNoBody) {
		t.Errorf("no body: err = %v, want ErrNoBody", err)
	}
	if _, err := (Request{BodyHex: &badHex}).Body(); err == nil {
		t.Error("bad bodyHex accepted")
	}
}

func TestRequestFrameRefusesBadInput(t *testing.T) {
	badHex := "zz"
	tests := map[string]Request{
		"unknown serialize type": {SerializeType: "XML", Header: "{}"},
		"bad ROCKETMQ hex":       {SerializeType: "ROCKETMQ", Header: "0g"},
		"bad body hex":           {SerializeType: "JSON", Header: "{}", BodyHex: &badHex},
	}
	for name, request := range tests {
		if frame, err := request.Frame(); err == nil {
			t.Errorf("%s: frame %x accepted", name, frame)
		}
	}
	if _, err := (Request{SerializeType: "XML"}).Frame(); !errors.Is(err, ErrSerializeType) {
		t.Errorf("unknown serialize type: err = %v, want ErrSerializeType", err)
	}
	if _, err := (Request{SerializeType: "JSON", Header: strings.Repeat(" ", maxHeaderLength+1)}).Frame(); !errors.Is(err, ErrHeaderTooLong) {
		t.Errorf("oversized header: err = %v, want ErrHeaderTooLong", err)
	}
	if _, err := (&Response{FrameHex: "0g"}).Frame(); err == nil {
		t.Error("bad frameHex accepted")
	}
}
