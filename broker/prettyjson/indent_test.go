package prettyjson

import "testing"

func TestIndent(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"flat bean", `{"id":123,"name":"a"}`, "{\n\t\"id\":123,\n\t\"name\":\"a\"\n}"},
		{"empty containers stay inline", `{"a":{},"b":[]}`, "{\n\t\"a\":{},\n\t\"b\":[]\n}"},
		{"nested", `{"dataVersion":{"counter":1},"t":{"x":{"attributes":{},"perm":6}}}`,
			"{\n\t\"dataVersion\":{\n\t\t\"counter\":1\n\t},\n\t\"t\":{\n\t\t\"x\":{\n\t\t\t\"attributes\":{},\n\t\t\t\"perm\":6\n\t\t}\n\t}\n}"},
		{"numeric keys do not break lines", `{"brokerAddrs":{0:"a:1",1:"b:2"},"n":"x"}`,
			"{\n\t\"brokerAddrs\":{0:\"a:1\",1:\"b:2\"\n\t},\n\t\"n\":\"x\"\n}"},
		{"array of objects", `{"q":[{"a":1},{"a":2}]}`,
			"{\n\t\"q\":[\n\t\t{\n\t\t\t\"a\":1\n\t\t},\n\t\t{\n\t\t\t\"a\":2\n\t\t}\n\t]\n}"},
		{"array of numbers", `[1,2]`, "[\n\t1,\n\t2\n]"},
		{"strings with brackets and escapes are copied", `{"s":"{,}[\"]"}`, "{\n\t\"s\":\"{,}[\\\"]\"\n}"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Indent([]byte(tc.in))
			if err != nil {
				t.Fatalf("Indent(%s): %v", tc.in, err)
			}
			if string(got) != tc.want {
				t.Errorf("Indent(%s)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestIndentRejectsBrokenInput(t *testing.T) {
	for _, in := range []string{`{"a":1`, `{"a":1}}`, `{"a":"x`, `1,2`} {
		if _, err := Indent([]byte(in)); err == nil {
			t.Errorf("Indent(%s) succeeded, want an error", in)
		}
	}
}
