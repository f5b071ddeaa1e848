package route

import (
	"errors"
	"strings"
	"testing"
)

func TestJSONReaderStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"abc"`, "abc"},
		{`'single'`, "single"},
		{`"\u534E\u4E1C\/az-b"`, "华东/az-b"},
		{`"\uD83D\uDE00"`, "\U0001F600"},
		{`"\uD83Dx"`, "\uFFFDx"},
		{`"\"\\\b\f\n\r\t\'"`, "\"\\\b\f\n\r\t'"},
		{`null`, ""},
	}
	for _, tt := range tests {
		r := jsonReader{data: []byte(tt.in)}
		got, err := r.readString()
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{`"abc`, `"\x"`, `"\u12"`, `12`, `"\`} {
		r := jsonReader{data: []byte(bad)}
		if _, err := r.readString(); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestJSONReaderNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{`0`, 0, true}, {`-12`, -12, true}, {`"123"`, 123, true}, {`null`, 0, true},
		{`9223372036854775807`, 1<<63 - 1, true}, {`-9223372036854775808`, -1 << 63, true},
		{`9223372036854775808`, 0, false}, {`1.5`, 0, false}, {`"x"`, 0, false}, {`true`, 0, false}, {``, 0, false},
	}
	for _, tt := range tests {
		r := jsonReader{data: []byte(tt.in)}
		got, err := r.readInt64()
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("%s: got %d, %v", tt.in, got, err)
		}
		if err != nil && !errors.Is(err, ErrRouteJSONType) {
			t.Errorf("%s: error %v is not ErrRouteJSONType", tt.in, err)
		}
	}
	r := jsonReader{data: []byte(`2147483648`)}
	if _, err := r.readInt32(); err == nil {
		t.Error("int32 overflow accepted")
	}
}

func TestJSONReaderBooleans(t *testing.T) {
	for in, want := range map[string]bool{`true`: true, `false`: false, `"true"`: true, `1`: true, `0`: false, `null`: false} {
		r := jsonReader{data: []byte(in)}
		if got, err := r.readBool(); err != nil || got != want {
			t.Errorf("%s: got %v, %v", in, got, err)
		}
	}
	r := jsonReader{data: []byte(`yes`)}
	if _, err := r.readBool(); err == nil {
		t.Error("yes accepted as a boolean")
	}
}

func TestJSONReaderBareKeysAndSkipping(t *testing.T) {
	in := `{0:"a", -1 : {x:[1,"]",{"}":2}]}, "k\"q":null,'s':1}`
	r := jsonReader{data: []byte(in)}
	if err := r.enterObject(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for first := true; ; first = false {
		key, more, err := r.nextMember(first)
		if err != nil {
			t.Fatal(err)
		}
		if !more {
			break
		}
		keys = append(keys, string(key))
		if err := r.skipValue(); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(keys, "|"); got != `0|-1|k"q|s` {
		t.Fatalf("keys %s", got)
	}
	if err := r.finish(); err != nil {
		t.Fatal(err)
	}
}

func TestJSONReaderDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1)
	r := jsonReader{data: []byte(deep)}
	if err := r.skipValue(); !errors.Is(err, ErrRouteJSONTooDeep) {
		t.Fatalf("got %v, want ErrRouteJSONTooDeep", err)
	}
	ok := strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth)
	r = jsonReader{data: []byte(ok)}
	if err := r.skipValue(); err != nil {
		t.Fatalf("depth %d refused: %v", maxJSONDepth, err)
	}
}

func TestJSONReaderSyntaxErrors(t *testing.T) {
	for _, in := range []string{`{`, `{"a"}`, `{"a":1 "b":2}`, `[1 2]`, `{:1}`, `{"a":}`, `}`, `"`, `[`} {
		r := jsonReader{data: []byte(in)}
		err := r.skipValue()
		if err == nil {
			err = r.finish()
		}
		if !errors.Is(err, ErrRouteJSONSyntax) {
			t.Errorf("%s: got %v, want ErrRouteJSONSyntax", in, err)
		}
	}
}
