package remoting

import (
	"bytes"
	"testing"
)

// The verified examples of protocol.md 1.5.
func TestJSONHeaderVerifiedExamples(t *testing.T) {
	cases := []struct {
		cmd  *Command
		want string
	}{
		{&Command{Code: 105, ExtFields: map[string]string{"topic": "TopicTest"}, Opaque: 7, Version: 479},
			`{"code":105,"extFields":{"topic":"TopicTest"},"flag":0,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":479}`},
		{&Command{Code: 0, Flag: 1, Opaque: 7, Version: 479},
			`{"code":0,"flag":1,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":479}`},
		{&Command{Code: 0, Flag: 1, Opaque: 8, Version: 479, ExtFields: map[string]string{}},
			`{"code":0,"extFields":{},"flag":1,"language":"JAVA","opaque":8,"serializeTypeCurrentRPC":"JSON","version":479}`},
		{&Command{Code: 0, Flag: 1, Opaque: 9, Version: 479, ExtFields: map[string]string{"masterAddr": "127.0.0.1:10911", "haServerAddr": "127.0.0.1:10912"}},
			`{"code":0,"extFields":{"haServerAddr":"127.0.0.1:10912","masterAddr":"127.0.0.1:10911"},"flag":1,"language":"JAVA","opaque":9,"serializeTypeCurrentRPC":"JSON","version":479}`},
		{&Command{Code: 17, Flag: 1, Opaque: 10, Version: 479, Remark: "No topic route info in name server for the topic: X\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."},
			`{"code":17,"flag":1,"language":"JAVA","opaque":10,"remark":"No topic route info in name server for the topic: X\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.","serializeTypeCurrentRPC":"JSON","version":479}`},
		{&Command{Code: 1, Language: LanguageUnknown},
			`{"code":1,"flag":0,"opaque":0,"serializeTypeCurrentRPC":"JSON","version":0}`},
	}
	for _, tc := range cases {
		if got := string(appendJSONHeader(nil, tc.cmd)); got != tc.want {
			t.Errorf("header\n got %s\nwant %s", got, tc.want)
		}
	}
}

func TestJSONHeaderVerifiedFrameBytes(t *testing.T) {
	cmd := &Command{Code: 105, ExtFields: map[string]string{"topic": "TopicTest"}, Opaque: 7, Version: 479}
	frame := mustEncode(t, cmd)
	if !bytes.Equal(frame[:8], []byte{0, 0, 0, 0x87, 0, 0, 0, 0x83}) || len(frame) != 4+0x87 {
		t.Fatalf("frame prefix % x, len %d", frame[:8], len(frame))
	}
}

func TestJSONStringEscapes(t *testing.T) {
	cases := []struct{ in, want string }{
		{`a"b\c`, `"a\"b\\c"`},
		{"\n\t\r\b\f", `"\n\t\r\b\f"`},
		{"\x00\x01\x1f", `"\u0000\u0001\u001F"`},
		{"\x7f", `"\u007F"`},
		{"a/b", `"a/b"`},
		{"größe=√2 名前", `"größe=√2 名前"`},
		{"x\u2028y\u2029z", `"x\u2028y\u2029z"`},
		{"\u2027\u202a", "\"\u2027\u202a\""},
		{"", `""`},
	}
	for _, tc := range cases {
		if got := string(appendJSONString(nil, tc.in)); got != tc.want {
			t.Errorf("appendJSONString(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// Recorded Java answers re-encode to the same bytes.
func TestJSONFramesFromJavaFixtures(t *testing.T) {
	for _, name := range []string{
		"038-get-kv-k2-utf8", "039-get-kv-missing-key", "048-wipe-write-perm-broker-a",
		"085-unknown-request-code", "010-route-topictest-v479",
	} {
		exchange := loadExchange(t, name)
		for _, frame := range [][]byte{exchange.requestFrame(t), exchange.responseFrame(t)} {
			cmd := mustDecodeFrame(t, frame)
			if got := mustEncode(t, cmd); !bytes.Equal(got, frame) {
				t.Errorf("%s: re-encoded frame differs\n got %q\nwant %q", name, got, frame)
			}
		}
	}
}

func TestJSONEncodeSortsExtKeys(t *testing.T) {
	cmd := &Command{ExtFields: map[string]string{"b": "2", "a": "1", "c": "3"}}
	want := `{"code":0,"extFields":{"a":"1","b":"2","c":"3"},`
	if got := string(appendJSONHeader(nil, cmd)); got[:len(want)] != want {
		t.Fatalf("got %s", got)
	}
}
