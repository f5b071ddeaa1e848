package jsonesc

import "testing"

func TestMarshalKeepsHTMLCharacters(t *testing.T) {
	got, err := Marshal(map[string]string{"a<b": "x&y>"})
	if err != nil || string(got) != `{"a<b":"x&y>"}` {
		t.Fatalf("%s %v", got, err)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Fatal("a func marshalled")
	}
}
