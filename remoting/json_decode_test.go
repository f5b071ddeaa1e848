package remoting

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func decodeJSON(t testing.TB, text string) (*Command, error) {
	t.Helper()
	cmd := &Command{}
	err := decodeJSONHeader([]byte(text), cmd)
	return cmd, err
}

func TestJSONDecodeLeniency(t *testing.T) {
	cases := []struct {
		name string
		text string
		want Command
	}{
		{"any order and whitespace", ` { "version" : 317 , "opaque":5, "code":105 , "flag":0, "language":"CPP" } `,
			Command{Code: 105, Version: 317, Opaque: 5, Language: CPP}},
		{"missing flag and version", `{"code":1,"opaque":2,"language":"JAVA"}`,
			Command{Code: 1, Opaque: 2, Language: JAVA}},
		{"unknown keys ignored", `{"code":3,"x":{"y":[1,2,{"z":null}],"w":"\u0041"},"serializeTypeCurrentRPC":"ROCKETMQ","language":"GO"}`,
			Command{Code: 3, Language: GO}},
		{"language as number", `{"code":1,"language":9}`, Command{Code: 1, Language: GO}},
		{"unknown language name", `{"code":1,"language":"COBOL"}`, Command{Code: 1, Language: LanguageUnknown}},
		{"missing language", `{"code":1}`, Command{Code: 1, Language: LanguageUnknown}},
		{"ext values converted to text", `{"code":1,"language":"JAVA","extFields":{"n":12,"b":true,"f":-1.5e3,"s":"x","nul":null,"o":{"a":1}}}`,
			Command{Code: 1, ExtFields: map[string]string{"n": "12", "b": "true", "f": "-1.5e3", "s": "x", "o": `{"a":1}`}}},
		{"empty extFields kept", `{"code":1,"language":"JAVA","extFields":{}}`, Command{Code: 1, ExtFields: map[string]string{}}},
		{"null extFields and remark", `{"code":1,"language":"JAVA","extFields":null,"remark":null}`, Command{Code: 1}},
		{"escapes", `{"code":1,"language":"JAVA","remark":"a\"\\\/\n\u00e9\ud83d\ude00\u2028"}`,
			Command{Code: 1, Remark: "a\"\\/\né😀\u2028"}},
		{"lone surrogate", `{"code":1,"language":"JAVA","remark":"\ud800x"}`, Command{Code: 1, Remark: "\uFFFDx"}},
		{"quoted number and null", `{"code":"99999","opaque":null,"language":"JAVA"}`, Command{Code: 99999}},
		{"int32 bounds", `{"code":-2147483648,"opaque":2147483647,"language":"JAVA"}`, Command{Code: -2147483648, Opaque: 2147483647}},
		{"raw utf8", `{"code":0,"language":"JAVA","extFields":{"value":"größe=√2 名前"}}`,
			Command{ExtFields: map[string]string{"value": "größe=√2 名前"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decodeJSON(t, tc.text)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !sameCommand(got, &tc.want) {
				t.Fatalf("got  %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}

func TestJSONDecodeRejects(t *testing.T) {
	for _, text := range []string{
		``, `null`, `[]`, `"x"`, `{`, `{"code":1`, `{"code":1,}`, `{"code":}`, `{code:1}`,
		`{"code":1}x`, `{"code":1.5}`, `{"code":2147483648}`, `{"code":-2147483649}`, `{"code":true}`,
		`{"remark":"unterminated}`, `{"remark":"bad \q escape"}`, `{"remark":"\u12"}`, "{\"remark\":\"raw\ncontrol\"}",
		`{"extFields":[]}`, `{"extFields":{"a":}}`, `{"x":[1,2}`, `{"x":tru}`, `{"x":-}`,
		`{"x":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
	} {
		if cmd, err := decodeJSON(t, text); err == nil {
			t.Errorf("decode %q succeeded: %+v", text, *cmd)
		} else if !errors.Is(err, ErrBadHeader) {
			t.Errorf("decode %q: error %v does not wrap ErrBadHeader", text, err)
		}
	}
}

// Strings decode the same as encoding/json does for valid input.
func TestJSONStringsAgreeWithEncodingJSON(t *testing.T) {
	for _, text := range []string{`"plain"`, `"\u00e9\u4e2d"`, `"\ud83d\ude00"`, `"\udc00\ud800"`, `"a\/b\\c\"d"`, `"\b\f\n\r\t"`} {
		var want string
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatalf("encoding/json %s: %v", text, err)
		}
		scanner := jsonScanner{data: []byte(text)}
		got, err := scanner.readStringBytes()
		if err != nil || string(got) != want {
			t.Errorf("readStringBytes(%s) = %q, %v; want %q", text, got, err, want)
		}
	}
}

func FuzzDecodeJSONHeader(f *testing.F) {
	for _, seed := range []string{
		`{"code":105,"extFields":{"topic":"TopicTest"},"flag":0,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":479}`,
		`{"code":17,"flag":1,"language":"JAVA","opaque":10,"remark":"No topic\nSee","serializeTypeCurrentRPC":"JSON","version":479}`,
		`{"code":0,"extFields":{},"flag":1,"language":9,"opaque":8}`,
		`{"extFields":{"n":1,"b":false,"o":[{"x":"\u2028"}]},"remark":"\ud83d\ude00"}`,
		`null`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		first := &Command{}
		if err := decodeJSONHeader(data, first); err != nil {
			return
		}
		second := &Command{}
		encoded := appendJSONHeader(nil, first)
		if err := decodeJSONHeader(encoded, second); err != nil {
			t.Fatalf("re-decode of %s: %v", encoded, err)
		}
		if !sameCommand(first, second) {
			t.Fatalf("round trip changed the command\nfirst  %+v\nsecond %+v", *first, *second)
		}
	})
}

func TestPlainStringBytesStopsAtTheFirstSpecialByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("abcXYZ09:._-\x7f\xc3\xa9\xff\x80 ~")
	specials := []byte{'"', '\\', 0x00, 0x1f, '\n'}
	for range 20000 {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		first := len(b)
		if len(b) > 0 && rng.IntN(2) == 0 {
			first = rng.IntN(len(b))
			b[first] = specials[rng.IntN(len(specials))]
		}
		if got, want := plainStringBytes(b), min(first, len(b)&^7); got != want {
			t.Fatalf("%q: %d, want %d", b, got, want)
		}
	}
}

func TestPlainInt32ReadsWhatTheGeneralPathReads(t *testing.T) {
	for _, text := range []string{"0", "7,", "-42}", "2147483647", "-2147483648", "2147483648", "-2147483649",
		"12345678901", "1.5", "1e3", "007", "-", "", "x", "null", `"12"`, "99999999999999999999"} {
		fast := &jsonScanner{data: []byte(text)}
		v, ok := fast.plainInt32()
		general := &jsonScanner{data: []byte(text)}
		want, err := general.readAnyInt32()
		switch {
		case ok && (err != nil || v != want || fast.pos != general.pos):
			t.Errorf("%q: plain %d at %d, general %d at %d (%v)", text, v, fast.pos, want, general.pos, err)
		case !ok && fast.pos != 0:
			t.Errorf("%q: a refusal must leave the position", text)
		}
	}
}
