package remoting

import (
	"strconv"
	"testing"
)

func TestLanguageNamesAndCodes(t *testing.T) {
	want := []string{"JAVA", "CPP", "DOTNET", "PYTHON", "DELPHI", "ERLANG", "RUBY",
		"OTHER", "HTTP", "GO", "PHP", "OMS", "RUST", "NODE_JS"}
	for code, name := range want {
		lang := LanguageCode(code)
		if lang.String() != name {
			t.Errorf("LanguageCode(%d).String() = %q, want %q", code, lang.String(), name)
		}
		for _, text := range []string{name, strconv.Itoa(code)} {
			parsed, err := ParseLanguageCode(text)
			if err != nil || parsed != lang {
				t.Errorf("ParseLanguageCode(%q) = %v, %v; want %d", text, parsed, err, code)
			}
		}
	}
	if GO != 9 || NODE_JS != 13 {
		t.Fatalf("GO=%d NODE_JS=%d", GO, NODE_JS)
	}
}

func TestLanguageUnknown(t *testing.T) {
	for _, text := range []string{"java", "COBOL", "14", "-1", ""} {
		if lang, err := ParseLanguageCode(text); err == nil {
			t.Errorf("ParseLanguageCode(%q) = %v, want error", text, lang)
		}
	}
	if LanguageUnknown.Known() || LanguageUnknown.String() != "" || LanguageCode(14).Known() {
		t.Fatal("unknown languages must not be Known")
	}
}

func TestSerializeTypeString(t *testing.T) {
	if JSON.String() != "JSON" || ROCKETMQ.String() != "ROCKETMQ" || SerializeType(7).String() != "SerializeType(7)" {
		t.Fatalf("names: %s %s %s", JSON, ROCKETMQ, SerializeType(7))
	}
}
