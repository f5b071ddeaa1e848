package javaprops

import (
	"errors"
	"maps"
	"slices"
	"testing"
	"unicode/utf8"
)

func TestParseProperties(t *testing.T) {
	cases := []struct {
		name string
		text string
		want map[string]string
	}{
		{"equals", "a=1\nb=2\n", map[string]string{"a": "1", "b": "2"}},
		{"colon", "a:1", map[string]string{"a": "1"}},
		{"blank separator", "a 1", map[string]string{"a": "1"}},
		{"blanks around separator", "  a  =  1", map[string]string{"a": "1"}},
		{"tab and formfeed separators", "a\t\f= 1", map[string]string{"a": "1"}},
		{"blank then colon", "a : b", map[string]string{"a": "b"}},
		{"second separator is value", "a==b", map[string]string{"a": "=b"}},
		{"value keeps trailing blanks", "a=1  ", map[string]string{"a": "1  "}},
		{"key only", "lonely", map[string]string{"lonely": ""}},
		{"empty value", "a=", map[string]string{"a": ""}},
		{"comments", "# c\n! c\n  # indented\na=1", map[string]string{"a": "1"}},
		{"hash inside value", "a=1#2", map[string]string{"a": "1#2"}},
		{"blank lines", "\n\n  \t\na=1\n\n", map[string]string{"a": "1"}},
		{"CRLF and CR", "a=1\r\nb=2\rc=3", map[string]string{"a": "1", "b": "2", "c": "3"}},
		{"continuation", "a=one\\\n    two\\\n\tthree", map[string]string{"a": "onetwothree"}},
		{"continuation CRLF", "a=x\\\r\n  y", map[string]string{"a": "xy"}},
		{"continuation at EOF", "a=x\\", map[string]string{"a": "x"}},
		{"even backslashes do not continue", "a=x\\\\\nb=y", map[string]string{"a": `x\`, "b": "y"}},
		{"continued line is not a comment", "a=x\\\n#y", map[string]string{"a": "x#y"}},
		{"comment line does not continue", "#c\\\na=1", map[string]string{"a": "1"}},
		{"empty continuation ends value", "a=x\\\n\nb=y", map[string]string{"a": "x", "b": "y"}},
		{"escapes", `a=\t\n\r\f\\\"\z`, map[string]string{"a": "\t\n\r\f\\\"z"}},
		{"escaped separators in key", `k\=x\:y\ z=v`, map[string]string{"k=x:y z": "v"}},
		{"unicode escape", `a=\u00e9\u4E2D`, map[string]string{"a": "é中"}},
		{"surrogate pair escape", `a=\uD83D\uDE00`, map[string]string{"a": "😀"}},
		{"lone surrogate", `a=\uD83Dx`, map[string]string{"a": "\uFFFDx"}},
		{"raw UTF-8", "k2=größe=√2 名前", map[string]string{"k2": "größe=√2 名前"}},
		{"last duplicate wins", "a=1\na=2", map[string]string{"a": "2"}},
		{"java tool body", "orderMessageEnable=true\n", map[string]string{"orderMessageEnable": "true"}},
		{"empty", "", map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse([]byte(tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, tc.want) {
				t.Fatalf("Parse(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestParsePropertiesMalformedUnicode(t *testing.T) {
	for _, text := range []string{`a=\u12`, `a=\u12G4`, `\uZZZZ=1`, "a=\\u00\nb=1"} {
		if _, err := Parse([]byte(text)); !errors.Is(err, ErrMalformed) {
			t.Errorf("Parse(%q) err = %v, want ErrMalformed", text, err)
		}
	}
}

func TestFormatPropertiesSortedRaw(t *testing.T) {
	got := string(Format(map[string]string{"b": `C:\dir`, "a": "x=y", "B": " lead"}))
	want := "B= lead\na=x=y\nb=C:\\dir\n"
	if got != want {
		t.Fatalf("Format = %q, want %q", got, want)
	}
	if got := Format(nil); len(got) != 0 {
		t.Fatalf("empty map gave %q", got)
	}
}

func TestCompareJavaUsesUTF16Order(t *testing.T) {
	// U+FF21 sorts after U+1F600 in Java (surrogates 0xD83D < 0xFF21) but
	// before it in Go's byte order.
	keys := []string{"\uFF21", "\U0001F600", "a"}
	slices.SortFunc(keys, compareJava)
	want := []string{"a", "\U0001F600", "\uFF21"}
	if !slices.Equal(keys, want) {
		t.Fatalf("sorted %q, want %q", keys, want)
	}
}

func TestPropertiesFileRoundTrip(t *testing.T) {
	m := map[string]string{
		"plain":       "value",
		"path":        `C:\rocketmq\store`,
		"lines":       "one\ntwo\r\n",
		"lead blank":  "  x",
		"sep=:key":    "tab\there",
		"#hash":       "!bang",
		"utf8":        "größe=√2 名前 😀",
		"empty":       "",
		"trailing":    "x  ",
		"escapes\\u":  `\u0041`,
		"!first":      "#",
		"formfeed\fk": "\f",
	}
	got, err := Parse(FormatFile(m))
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, m) {
		t.Fatalf("round trip gave %q, want %q", got, m)
	}
	ordinary := map[string]string{"listenPort": "9876", "configBlackList": "a;b"}
	if string(FormatFile(ordinary)) != string(Format(ordinary)) {
		t.Fatal("ordinary values are escaped differently in the file than in GET_NAMESRV_CONFIG")
	}
}

func FuzzPropertiesFileRoundTrip(f *testing.F) {
	f.Add("key", "value")
	f.Add("a b", "\\u0041\n")
	f.Add("#x", "  y")
	f.Fuzz(func(t *testing.T, key, value string) {
		if key == "" || !isValidUTF8(key) || !isValidUTF8(value) {
			t.Skip()
		}
		m := map[string]string{key: value}
		got, err := Parse(FormatFile(m))
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(got, m) {
			t.Fatalf("round trip of %q gave %q", m, got)
		}
	})
}

func isValidUTF8(s string) bool { return utf8.ValidString(s) }
