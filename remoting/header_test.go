package remoting

import (
	"errors"
	"testing"
)

type registerHeader struct {
	BrokerName  string  `rmq:"brokerName,required"`
	BrokerID    int64   `rmq:"brokerId,required"`
	Compressed  bool    `rmq:"compressed"`
	QueueNums   int32   `rmq:"queueNums"`
	Count       int     `rmq:"count"`
	ZoneName    *string `rmq:"zoneName"`
	Timeout     *int64  `rmq:"timeoutMillis"`
	Enable      *bool   `rmq:"enable"`
	Small       *int32  `rmq:"small"`
	Big         *int    `rmq:"big"`
	Master      string  `rmq:"masterAddr,omitempty"`
	Ignored     string
	Skipped     string `rmq:"-"`
	notExported string `rmq:"hidden"`
}

func TestDecodeHeaderAllKinds(t *testing.T) {
	cmd := &Command{ExtFields: map[string]string{
		"brokerName": "broker-a", "brokerId": "+7", "compressed": "TRUE", "queueNums": "-3", "count": "12",
		"zoneName": "", "timeoutMillis": "3000", "enable": "yes", "small": "5", "big": "9",
		"Ignored": "x", "Skipped": "y", "hidden": "z",
	}}
	var header registerHeader
	if err := DecodeHeader(cmd, &header); err != nil {
		t.Fatalf("decode: %v", err)
	}
	if header.BrokerName != "broker-a" || header.BrokerID != 7 || !header.Compressed || header.QueueNums != -3 || header.Count != 12 {
		t.Fatalf("scalars: %+v", header)
	}
	if header.ZoneName == nil || *header.ZoneName != "" || header.Timeout == nil || *header.Timeout != 3000 {
		t.Fatalf("pointers: %+v", header)
	}
	if header.Enable == nil || *header.Enable || *header.Small != 5 || *header.Big != 9 {
		t.Fatal("Boolean.parseBoolean: anything but case-insensitive true is false")
	}
	if header.Ignored != "" || header.Skipped != "" || header.notExported != "" {
		t.Fatalf("untagged fields were set: %+v", header)
	}
}

func TestDecodeHeaderOptionalAbsent(t *testing.T) {
	header := registerHeader{Count: 99}
	if err := DecodeHeader(&Command{ExtFields: map[string]string{"brokerName": "b", "brokerId": "0"}}, &header); err != nil {
		t.Fatal(err)
	}
	if header.ZoneName != nil || header.Timeout != nil || header.Count != 99 {
		t.Fatalf("absent optional fields changed: %+v", header)
	}
}

func TestDecodeHeaderErrors(t *testing.T) {
	cases := []struct {
		ext     map[string]string
		wantMsg string
	}{
		{nil, "the custom field <brokerName> is null"},
		{map[string]string{"brokerName": "b"}, "the custom field <brokerId> is null"},
		{map[string]string{"brokerName": "b", "brokerId": "x1"}, `the custom field <brokerId> has an invalid value: "x1"`},
		{map[string]string{"brokerName": "b", "brokerId": "1", "queueNums": "2147483648"}, `the custom field <queueNums> has an invalid value: "2147483648"`},
		{map[string]string{"brokerName": "b", "brokerId": "1", "timeoutMillis": ""}, `the custom field <timeoutMillis> has an invalid value: ""`},
	}
	for _, tc := range cases {
		var header registerHeader
		err := DecodeHeader(&Command{ExtFields: tc.ext}, &header)
		var headerErr *HeaderError
		if !errors.As(err, &headerErr) || err.Error() != tc.wantMsg {
			t.Errorf("ext %v: err = %v, want %q", tc.ext, err, tc.wantMsg)
		}
	}
}

func TestDecodeHeaderBadTargets(t *testing.T) {
	type badField struct {
		Ratio float64 `rmq:"ratio"`
	}
	cmd := &Command{}
	for _, dst := range []any{nil, registerHeader{}, new(int), (*registerHeader)(nil), &badField{}} {
		if err := DecodeHeader(cmd, dst); !errors.Is(err, ErrUnsupportedHeaderType) {
			t.Errorf("DecodeHeader(%T) = %v", dst, err)
		}
	}
}

func TestEncodeHeader(t *testing.T) {
	zone := "az-1"
	timeout := int64(-4)
	ext := EncodeHeader(&registerHeader{BrokerName: "b", BrokerID: 3, Compressed: true, ZoneName: &zone, Timeout: &timeout})
	want := map[string]string{"brokerName": "b", "brokerId": "3", "compressed": "true", "queueNums": "0",
		"count": "0", "zoneName": "az-1", "timeoutMillis": "-4"}
	if len(ext) != len(want) {
		t.Fatalf("got %v, want %v", ext, want)
	}
	for key, value := range want {
		if ext[key] != value {
			t.Errorf("%s = %q, want %q", key, ext[key], value)
		}
	}
	type emptyResponse struct {
		Value *string `rmq:"value"`
	}
	if ext := EncodeHeader(emptyResponse{}); ext == nil || len(ext) != 0 {
		t.Fatalf("empty header = %#v, want non-nil empty map", ext)
	}
	if ext := EncodeHeader((*emptyResponse)(nil)); ext == nil || len(ext) != 0 {
		t.Fatalf("nil header = %#v", ext)
	}
}

func TestHeaderRoundTrip(t *testing.T) {
	zone := "z"
	src := registerHeader{BrokerName: "n", BrokerID: 1 << 40, QueueNums: 8, ZoneName: &zone, Master: "m:1"}
	var dst registerHeader
	if err := DecodeHeader(&Command{ExtFields: EncodeHeader(src)}, &dst); err != nil {
		t.Fatal(err)
	}
	if dst.BrokerName != src.BrokerName || dst.BrokerID != src.BrokerID || dst.QueueNums != 8 || *dst.ZoneName != "z" || dst.Master != "m:1" {
		t.Fatalf("round trip: %+v", dst)
	}
}
