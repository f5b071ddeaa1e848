package route

import (
	"slices"
	"testing"
)

func TestAppendJSONStringEscaping(t *testing.T) {
	tests := []struct {
		name, in        string
		plain, standard string
	}{
		{"ascii", "broker-a", `"broker-a"`, `"broker-a"`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`, `"a\"b\\c"`},
		{"slash", "华东/az-b", `"华东/az-b"`, `"\u534E\u4E1C\/az-b"`},
		{"named controls", "\b\f\n\r\t", `"\b\f\n\r\t"`, `"\b\f\n\r\t"`},
		{"other controls", "\x00\x0b\x1f", `"\u0000\u000B\u001F"`, `"\u0000\u000B\u001F"`},
		{"del", "\x7f", `"\u007F"`, `"\u007F"`},
		{"c1 control", "\u0085", `"\u0085"`, `"\u0085"`},
		{"latin", "é", `"é"`, `"\u00E9"`},
		{"line separators", "\u2028\u2029", `"\u2028\u2029"`, `"\u2028\u2029"`},
		{"surrogate pair", "\U0001F600", "\"\U0001F600\"", `"\uD83D\uDE00"`},
		{"invalid utf-8", "a\xffb", "\"a\uFFFDb\"", `"a\uFFFDb"`},
		{"empty", "", `""`, `""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(appendJSONString(nil, tt.in, false)); got != tt.plain {
				t.Errorf("plain: got %s, want %s", got, tt.plain)
			}
			if got := string(appendJSONString(nil, tt.in, true)); got != tt.standard {
				t.Errorf("standard: got %s, want %s", got, tt.standard)
			}
		})
	}
}

func TestAppendJSONStringReadsBack(t *testing.T) {
	for _, s := range []string{"华东/az-b", "\U0001F600x\u2028", "\x00\x7f\"\\/", "plain"} {
		for _, standard := range []bool{false, true} {
			r := jsonReader{data: appendJSONString(nil, s, standard)}
			got, err := r.readString()
			if err != nil || got != s {
				t.Errorf("standard=%v %q: read back %q, %v", standard, s, got, err)
			}
		}
	}
}

func TestAppendLongBrowserCompatible(t *testing.T) {
	tests := []struct {
		v               int64
		plain, standard string
	}{
		{0, "0", "0"},
		{maxSafeJSONLong, "9007199254740991", "9007199254740991"},
		{maxSafeJSONLong + 1, "9007199254740992", `"9007199254740992"`},
		{-maxSafeJSONLong, "-9007199254740991", "-9007199254740991"},
		{-maxSafeJSONLong - 1, "-9007199254740992", `"-9007199254740992"`},
	}
	for _, tt := range tests {
		if got := string(appendLong(nil, tt.v, false)); got != tt.plain {
			t.Errorf("plain %d: got %s", tt.v, got)
		}
		if got := string(appendLong(nil, tt.v, true)); got != tt.standard {
			t.Errorf("standard %d: got %s", tt.v, got)
		}
	}
}

func TestAppendBrokerAddrsSortsIDsNumerically(t *testing.T) {
	addrs := map[int64]string{100: "e", 2: "c", 16: "d", 0: "a", 1: "b", 1234: "f"}
	if got, want := string(appendBrokerAddrs(nil, addrs, false)), `{0:"a",1:"b",2:"c",16:"d",100:"e",1234:"f"}`; got != want {
		t.Fatalf("plain: got %s, want %s", got, want)
	}
	if got, want := string(appendBrokerAddrs(nil, addrs, true)), `{"0":"a","1":"b","2":"c","16":"d","100":"e","1234":"f"}`; got != want {
		t.Fatalf("standard: got %s, want %s", got, want)
	}
}

func TestCompareJavaStringsUsesUTF16Order(t *testing.T) {
	// U+FF21 sorts after U+1F600 in Go's byte order but before it in Java,
	// whose U+1F600 starts with the surrogate 0xD83D.
	keys := []string{"\U0001F600", "\uFF21", "b", "B", "ab", "a", "\U0001F601"}
	slices.SortFunc(keys, compareJavaStrings)
	want := []string{"B", "a", "ab", "b", "\U0001F600", "\U0001F601", "\uFF21"}
	if !slices.Equal(keys, want) {
		t.Fatalf("got %q, want %q", keys, want)
	}
	if compareJavaStrings("x", "x") != 0 || compareJavaStrings("a\xff", "a\xfe") <= 0 {
		t.Fatal("equal strings must compare 0 and invalid bytes must still order")
	}
}
