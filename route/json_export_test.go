package route

import "testing"

func TestAppendFastjsonString(t *testing.T) {
	got := string(AppendFastjsonString([]byte("x"), "a\"b\\c\n"))
	if want := `x"a\"b\\c\n"`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}
