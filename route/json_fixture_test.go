package route

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/javafixture"
)

// fixtureDir is this package's copy of the recorded Java exchanges.
var fixtureDir = filepath.Join("testdata", "java-5.3.3")

// loadExchange reads the recorded exchange whose number is prefix.
func loadExchange(t testing.TB, prefix string) *javafixture.Exchange {
	t.Helper()
	ex, err := javafixture.Load(fixtureDir, prefix)
	if err != nil {
		t.Fatalf("fixture %s: %v", prefix, err)
	}
	return ex
}

// responseBody returns the recorded answer body of fixture prefix.
func responseBody(t testing.TB, prefix string) []byte {
	t.Helper()
	ex := loadExchange(t, prefix)
	if ex.Response == nil {
		t.Fatalf("fixture %s has no response", prefix)
	}
	body, err := ex.Response.Body()
	if err != nil {
		t.Fatalf("fixture %s: %v", prefix, err)
	}
	return body
}

// requestBody returns the recorded request body of fixture prefix.
func requestBody(t testing.TB, prefix string) []byte {
	t.Helper()
	body, err := loadExchange(t, prefix).Request.Body()
	if err != nil {
		t.Fatalf("fixture %s: %v", prefix, err)
	}
	return body
}

// canonicalJSON rewrites a (fastjson-tolerant) JSON text with the members of
// every object sorted by key, keeping every key, string and number exactly as
// written (bare or quoted, escaped or raw). Two bodies that differ only in
// Java hash order of their maps have the same canonical form.
func canonicalJSON(t testing.TB, b []byte) string {
	t.Helper()
	r := &jsonReader{data: b}
	var sb strings.Builder
	if err := canonicalValue(r, &sb); err != nil {
		t.Fatalf("canonical %q: %v", b, err)
	}
	if err := r.finish(); err != nil {
		t.Fatalf("canonical %q: %v", b, err)
	}
	return sb.String()
}

func canonicalValue(r *jsonReader, sb *strings.Builder) error {
	switch c := r.peek(); c {
	case '{':
		r.pos++
		type member struct{ key, value string }
		var members []member
		for first := true; ; first = false {
			c := r.peek()
			if c == '}' {
				r.pos++
				break
			}
			if !first {
				if c != ',' {
					return r.syntaxError("expected ,")
				}
				r.pos++
				r.skipSpace()
			}
			start := r.pos
			if _, err := r.readKey(); err != nil {
				return err
			}
			key := string(r.data[start:r.pos])
			if r.peek() != ':' {
				return r.syntaxError("expected :")
			}
			r.pos++
			var value strings.Builder
			if err := canonicalValue(r, &value); err != nil {
				return err
			}
			members = append(members, member{key, value.String()})
		}
		slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
		sb.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(m.key + ":" + m.value)
		}
		sb.WriteByte('}')
		return nil
	case '[':
		r.pos++
		sb.WriteByte('[')
		for first := true; ; first = false {
			c := r.peek()
			if c == ']' {
				r.pos++
				break
			}
			if !first {
				if c != ',' {
					return r.syntaxError("expected ,")
				}
				r.pos++
				sb.WriteByte(',')
			}
			if err := canonicalValue(r, sb); err != nil {
				return err
			}
		}
		sb.WriteByte(']')
		return nil
	default:
		start := r.pos
		if err := r.skipValue(); err != nil {
			return err
		}
		sb.Write(r.data[start:r.pos])
		return nil
	}
}

func TestCanonicalJSONSortsOnlyObjectMembers(t *testing.T) {
	a := canonicalJSON(t, []byte(`{"b":[2,1],0:"x","a":{"y":"\/","x":1}}`))
	b := canonicalJSON(t, []byte(`{0:"x","a":{"x":1,"y":"\/"},"b":[2,1]}`))
	if a != b {
		t.Fatalf("same members in another order: %s != %s", a, b)
	}
	if c := canonicalJSON(t, []byte(`{"b":[1,2],0:"x","a":{"x":1,"y":"\/"}}`)); c == a {
		t.Fatal("array order must be kept")
	}
	if c := canonicalJSON(t, []byte(`{"b":[2,1],"0":"x","a":{"x":1,"y":"\/"}}`)); c == a {
		t.Fatal("a quoted key must differ from a bare one")
	}
}
