package javaprops

import (
	"fmt"
	"os"
	"reflect"
	"strings"
)

// Strict loading of a -c file (cmd/namesrv, cmd/controller, cmd/broker).
// Java ignores a value that does not convert (listenPort=abc starts on the
// default port) and every key it does not know. Here a value that does not
// parse for its key stops the start with an error naming the file, the line,
// the key and the value; a key no setting has is kept and reported (a
// warning at start and a comment block in -p), with the closest known key,
// since Java configs carry the keys of other components.

// ValueError is a value of a -c file or a flag that does not parse for its
// key. File and Line are empty for a flag.
type ValueError struct {
	File  string
	Line  int
	Key   string
	Value string
	Err   error
}

func (e *ValueError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("-%s %q: %v", e.Key, e.Value, e.Err)
	}
	return fmt.Sprintf("%s:%d: %s=%q: %v", e.File, e.Line, e.Key, e.Value, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

// UnknownKey is an entry of a -c file that no setting has.
type UnknownKey struct {
	Line       int
	Key, Value string
	// Closest is the known key nearest by edit distance, "" when none is
	// near enough to be a likely typo (Closest).
	Closest string
}

// String is the key and its suggestion, for logs and -p.
func (u UnknownKey) String() string {
	s := fmt.Sprintf("line %d: %s=%s", u.Line, u.Key, u.Value)
	if u.Closest != "" {
		s += " (closest known key: " + u.Closest + ")"
	}
	return s
}

// FileLoader applies a -c file strictly: Set stores one value of a key Known
// reports, Keys are the known keys the suggestions are chosen from.
type FileLoader struct {
	Known func(key string) bool
	Set   func(key, value string) error
	Keys  []string
}

// Load reads path and sets every known key in file order (a repeated key:
// the last wins). The first value Set refuses is a *ValueError naming the
// file, the line, the key and the value. It returns every entry (the last
// value of each key) and the unknown entries in file order.
func (l FileLoader) Load(path string) (props map[string]string, unknown []UnknownKey, err error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("load config file: %w", err)
	}
	entries, err := ParseEntries(text)
	if err != nil {
		return nil, nil, fmt.Errorf("load config file %s: %w", path, err)
	}
	props = make(map[string]string, len(entries))
	for _, e := range entries {
		props[e.Key] = e.Value
		if !l.Known(e.Key) {
			unknown = append(unknown, UnknownKey{Line: e.Line, Key: e.Key, Value: e.Value, Closest: Closest(e.Key, l.Keys)})
			continue
		}
		if err := l.Set(e.Key, e.Value); err != nil {
			return nil, nil, &ValueError{File: path, Line: e.Line, Key: e.Key, Value: e.Value, Err: err}
		}
	}
	return props, unknown, nil
}

// FileLoader returns the loader that sets c's fields with SetStrict.
func (f *Fields[T]) FileLoader(c *T) FileLoader {
	return FileLoader{
		Known: func(key string) bool { _, ok := f.byKey[key]; return ok },
		Set:   func(key, value string) error { return f.SetStrict(c, key, value) },
		Keys:  f.Keys(),
	}
}

// SetStrict is Set for a -c file, a flag or the wire: a boolean must be
// true or false (any case), where Java reads every other word as false.
func (f *Fields[T]) SetStrict(c *T, key, value string) error {
	if field, ok := f.byKey[key]; ok && field.Kind == reflect.Bool {
		if err := ParseBool(value); err != nil {
			return err
		}
	}
	return f.Set(c, key, value)
}

// ParseBool accepts what Java's Boolean.parseBoolean reads as a choice:
// true or false in any case, trimmed.
func ParseBool(value string) error {
	v := TrimJava(value)
	if strings.EqualFold(v, "true") || strings.EqualFold(v, "false") {
		return nil
	}
	return fmt.Errorf("%q is not true or false", v)
}

// UnknownComment is the comment block -p prints after the settings for the
// unknown keys of file: '#' lines, which a properties reader skips.
func UnknownComment(file string, unknown []UnknownKey) []byte {
	if len(unknown) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("# unknown keys in " + file + " (not used; a typo, or a key of another component):\n")
	for _, u := range unknown {
		b.WriteString("#   " + u.String() + "\n")
	}
	return []byte(b.String())
}

// Closest returns the key of candidates nearest to key by edit distance
// (ignoring case), when it is within a third of key's length (at least 2
// edits): farther, the key is most likely another component's, not a typo.
func Closest(key string, candidates []string) string {
	best, bestDist := "", -1
	lower := strings.ToLower(key)
	for _, c := range candidates {
		d := editDistance(lower, strings.ToLower(c))
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist < 0 || bestDist > max(2, len(key)/3) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// LogFields are an unknown key's log fields (file, line, key, closest).
func (u UnknownKey) LogFields(file string) map[string]any {
	return map[string]any{"file": file, "line": u.Line, "key": u.Key, "closestKnownKey": u.Closest}
}
