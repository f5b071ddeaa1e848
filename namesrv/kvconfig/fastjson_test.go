package kvconfig

import "testing"

func TestAppendJSONStringFastjsonRules(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"plain", "broker-a:4", `"broker-a:4"`},
		{"empty", "", `""`},
		{"quote and backslash", `a"b\c`, `"a\"b\\c"`},
		{"short escapes", "\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"other controls uppercase hex", "\x00\x1f\x0b", `"\u0000\u001F\u000B"`},
		{"DEL", "\x7f", `"\u007F"`},
		{"slash raw", "a/b", `"a/b"`},
		{"html raw", "<a&b>", `"<a&b>"`},
		{"non-ASCII raw", "größe=√2 名前", `"größe=√2 名前"`},
		{"supplementary raw", "😀", `"😀"`},
		{"line separators", "\u2028\u2029", `"\u2028\u2029"`},
		{"invalid UTF-8", "a\xffb", "\"a\uFFFDb\""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(appendJSONString(nil, tc.in)); got != tc.want {
				t.Fatalf("appendJSONString(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestEncodeKVTableSortsKeys(t *testing.T) {
	got := string(encodeKVTable(map[string]string{"b": "2", "a": "1", "B": "3"}))
	want := `{"table":{"B":"3","a":"1","b":"2"}}`
	if got != want {
		t.Fatalf("encodeKVTable = %s, want %s", got, want)
	}
	if got := string(encodeKVTable(map[string]string{})); got != `{"table":{}}` {
		t.Fatalf("empty table = %s", got)
	}
}

func TestEncodeConfigFileJavaShape(t *testing.T) {
	table := configTable{
		"ns2":                     {},
		OrderTopicConfigNamespace: {"TopicOrder": "broker-a:4"},
	}
	got := string(encodeConfigFile(table))
	want := `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicOrder":"broker-a:4"},"ns2":{}}}`
	if got != want {
		t.Fatalf("encodeConfigFile = %s, want %s", got, want)
	}
	if got := string(encodeConfigFile(configTable{})); got != `{"configTable":{}}` {
		t.Fatalf("empty store = %s", got)
	}
}
