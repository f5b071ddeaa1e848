package jsonesc

import (
	"testing"
	"unicode/utf8"
)

func TestSimple(t *testing.T) {
	want := map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
	for c := 0; c < 256; c++ {
		got, ok := Simple(byte(c))
		w, known := want[byte(c)]
		if ok != known || got != w {
			t.Errorf("Simple(%q) = %q, %v; want %q, %v", byte(c), got, ok, w, known)
		}
	}
}

func TestUnicode(t *testing.T) {
	cases := []struct {
		in   string
		r    rune
		n    int
		ok   bool
		name string
	}{
		{"00e9", 'é', 4, true, "BMP, lower case"},
		{"534E rest", '华', 4, true, "BMP, upper case, followed by text"},
		{`d83d\ude00`, '😀', 10, true, "surrogate pair"},
		{`d83dx`, utf8.RuneError, 4, true, "lone high surrogate"},
		{`d83d\u0041`, utf8.RuneError, 4, true, "high surrogate then a non-surrogate escape"},
		{"de00", utf8.RuneError, 4, true, "lone low surrogate"},
		{"12g4", 0, 0, false, "not hex"},
		{"12", 0, 0, false, "too short"},
	}
	for _, tc := range cases {
		r, n, ok := Unicode([]byte(tc.in))
		if r != tc.r || n != tc.n || ok != tc.ok {
			t.Errorf("%s: Unicode(%q) = %q, %d, %v; want %q, %d, %v", tc.name, tc.in, r, n, ok, tc.r, tc.n, tc.ok)
		}
	}
}
