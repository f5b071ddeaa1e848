package test

import (
	"fmt"
	"sort"
	"strings"
)

// The golden test compares bodies as fastjson wrote them: keys may be bare
// numbers, field order and string escapes matter, and only the parts a fixture
// lists as "unordered" (Java hash order) may come in another order. This
// small parser keeps every token's text, so a canonical form differs exactly
// when the bytes differ outside the unordered parts.

type jsonValue struct {
	text    string      // scalar token text, verbatim
	object  []jsonEntry // non-nil for objects
	array   []jsonValue // non-nil for arrays
	isObj   bool
	isArray bool
}

type jsonEntry struct {
	key   string // key token text, verbatim: `"0"` or `0`
	value jsonValue
}

type jsonParser struct {
	s   string
	pos int
}

func parseOrderedJSON(s string) (jsonValue, error) {
	p := &jsonParser{s: s}
	v, err := p.value()
	if err != nil {
		return v, err
	}
	if p.pos != len(p.s) {
		return v, fmt.Errorf("trailing data at %d", p.pos)
	}
	return v, nil
}

func (p *jsonParser) value() (jsonValue, error) {
	if p.pos >= len(p.s) {
		return jsonValue{}, fmt.Errorf("unexpected end")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		p.pos++
		v := jsonValue{isObj: true, object: []jsonEntry{}}
		if p.peek('}') {
			return v, nil
		}
		for {
			key, err := p.scalar()
			if err != nil {
				return v, err
			}
			if !p.peek(':') {
				return v, fmt.Errorf("want ':' at %d", p.pos)
			}
			val, err := p.value()
			if err != nil {
				return v, err
			}
			v.object = append(v.object, jsonEntry{key: key, value: val})
			if p.peek(',') {
				continue
			}
			if p.peek('}') {
				return v, nil
			}
			return v, fmt.Errorf("want ',' or '}' at %d", p.pos)
		}
	case c == '[':
		p.pos++
		v := jsonValue{isArray: true, array: []jsonValue{}}
		if p.peek(']') {
			return v, nil
		}
		for {
			val, err := p.value()
			if err != nil {
				return v, err
			}
			v.array = append(v.array, val)
			if p.peek(',') {
				continue
			}
			if p.peek(']') {
				return v, nil
			}
			return v, fmt.Errorf("want ',' or ']' at %d", p.pos)
		}
	default:
		text, err := p.scalar()
		return jsonValue{text: text}, err
	}
}

func (p *jsonParser) peek(c byte) bool {
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

// scalar returns a string, number or literal token verbatim.
func (p *jsonParser) scalar() (string, error) {
	start := p.pos
	if p.pos < len(p.s) && p.s[p.pos] == '"' {
		p.pos++
		for p.pos < len(p.s) {
			switch p.s[p.pos] {
			case '\\':
				p.pos += 2
			case '"':
				p.pos++
				return p.s[start:p.pos], nil
			default:
				p.pos++
			}
		}
		return "", fmt.Errorf("unterminated string at %d", start)
	}
	for p.pos < len(p.s) && !strings.ContainsRune(",:]}", rune(p.s[p.pos])) {
		p.pos++
	}
	if p.pos == start {
		return "", fmt.Errorf("empty token at %d", start)
	}
	return p.s[start:p.pos], nil
}

// canonical writes v back, sorting the members or elements at every path that
// matches one of the unordered patterns (fixture syntax: .name, [*], .*).
func canonical(v jsonValue, path string, unordered []string) string {
	var b strings.Builder
	switch {
	case v.isObj:
		entries := make([]string, len(v.object))
		for i, e := range v.object {
			entries[i] = e.key + ":" + canonical(e.value, path+"."+unquote(e.key), unordered)
		}
		if matchesAny(path, unordered) {
			sort.Strings(entries)
		}
		b.WriteString("{" + strings.Join(entries, ",") + "}")
	case v.isArray:
		elems := make([]string, len(v.array))
		for i, e := range v.array {
			elems[i] = canonical(e, path+"[]", unordered)
		}
		if matchesAny(path, unordered) {
			sort.Strings(elems)
		}
		b.WriteString("[" + strings.Join(elems, ",") + "]")
	default:
		b.WriteString(v.text)
	}
	return b.String()
}

func unquote(key string) string { return strings.Trim(key, `"`) }

// matchesAny tells whether a concrete path (".a.b[].c") matches a pattern
// (".a.b[*].c", ".a.*.c").
func matchesAny(path string, patterns []string) bool {
	for _, pat := range patterns {
		if matchPath(splitPath(path), splitPath(pat)) {
			return true
		}
	}
	return false
}

func splitPath(p string) []string {
	p = strings.ReplaceAll(p, "[*]", ".[]")
	p = strings.ReplaceAll(p, "[]", ".[]")
	var parts []string
	for _, s := range strings.Split(p, ".") {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return parts
}

func matchPath(path, pat []string) bool {
	if len(path) != len(pat) {
		return false
	}
	for i := range pat {
		if pat[i] != "*" && pat[i] != path[i] {
			return false
		}
	}
	return true
}
