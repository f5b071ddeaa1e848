package route

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
)

// jsonReader is a tolerant, allocation-frugal JSON tokenizer for bodies sent
// by Java peers. It accepts what fastjson writes and reads: bare (unquoted)
// object keys such as {0:"a"}, single-quoted strings, numbers given as
// strings, and null for any value (read as the field's zero value). Values the
// decoders do not know are skipped without allocating.
//
// Strings and keys without escapes are returned as sub-slices of the input;
// escaped ones are decoded into a scratch buffer that the next read reuses,
// so callers copy (string(b)) what they keep.
type jsonReader struct {
	data    []byte
	pos     int
	depth   int
	scratch []byte
}

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack.
// The deepest legitimate body (a mapping detail inside a register body) uses 6.
const maxJSONDepth = 64

func (r *jsonReader) syntaxError(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrRouteJSONSyntax, what, r.pos)
}

func (r *jsonReader) typeError(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrRouteJSONType, what, r.pos)
}

func (r *jsonReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte without consuming it, 0 at the end.
func (r *jsonReader) peek() byte {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// consumeNull consumes a null literal if one comes next.
func (r *jsonReader) consumeNull() bool {
	if r.peek() == 'n' && len(r.data)-r.pos >= 4 && string(r.data[r.pos:r.pos+4]) == "null" {
		r.pos += 4
		return true
	}
	return false
}

// finish checks that only whitespace follows the top-level value.
func (r *jsonReader) finish() error {
	if r.peek() != 0 {
		return r.syntaxError("trailing data")
	}
	return nil
}

func (r *jsonReader) enter(open byte) error {
	if r.peek() != open {
		return r.syntaxError(fmt.Sprintf("expected %q", open))
	}
	if r.depth >= maxJSONDepth {
		return fmt.Errorf("%w: at offset %d", ErrRouteJSONTooDeep, r.pos)
	}
	r.depth++
	r.pos++
	return nil
}

// enterObject consumes '{'. Iterate its members with nextMember.
func (r *jsonReader) enterObject() error { return r.enter('{') }

// enterArray consumes '['. Iterate its elements with nextElement.
func (r *jsonReader) enterArray() error { return r.enter('[') }

// nextMember reads the separator and key of the next member of the current
// object and the colon after it; more is false at the closing brace.
func (r *jsonReader) nextMember(first bool) (key []byte, more bool, err error) {
	c := r.peek()
	if c == '}' {
		r.pos++
		r.depth--
		return nil, false, nil
	}
	if !first {
		if c != ',' {
			return nil, false, r.syntaxError("expected ',' or '}'")
		}
		r.pos++
		r.skipSpace()
	}
	key, err = r.readKey()
	if err != nil {
		return nil, false, err
	}
	if r.peek() != ':' {
		return nil, false, r.syntaxError("expected ':'")
	}
	r.pos++
	return key, true, nil
}

// nextElement reads the separator before the next element of the current
// array; more is false at the closing bracket.
func (r *jsonReader) nextElement(first bool) (more bool, err error) {
	c := r.peek()
	if c == ']' {
		r.pos++
		r.depth--
		return false, nil
	}
	if !first {
		if c != ',' {
			return false, r.syntaxError("expected ',' or ']'")
		}
		r.pos++
	}
	return true, nil
}

// isBareChar reports the bytes fastjson allows in an unquoted key or literal.
func isBareChar(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
		c == '-' || c == '+' || c == '.' || c == '_' || c == '$'
}

// readBare returns the run of bare characters at the current position.
func (r *jsonReader) readBare() []byte {
	start := r.pos
	for r.pos < len(r.data) && isBareChar(r.data[r.pos]) {
		r.pos++
	}
	return r.data[start:r.pos]
}

// readKey reads a quoted or bare object key.
func (r *jsonReader) readKey() ([]byte, error) {
	if c := r.peek(); c == '"' || c == '\'' {
		return r.readStringBytes()
	}
	key := r.readBare()
	if len(key) == 0 {
		return nil, r.syntaxError("expected an object key")
	}
	return key, nil
}

// readStringBytes reads a quoted string (the quote is the next byte).
func (r *jsonReader) readStringBytes() ([]byte, error) {
	quote := r.data[r.pos]
	r.pos++
	start := r.pos
	// Most strings have no escapes: find the closing quote with the
	// vectorised IndexByte and return the bytes in place.
	end := bytes.IndexByte(r.data[start:], quote)
	if end < 0 {
		end = len(r.data) - start // no closing quote: only escapes can save it
	}
	if backslash := bytes.IndexByte(r.data[start:start+end], '\\'); backslash >= 0 {
		r.pos = start + backslash
		return r.readEscapedString(start, quote)
	}
	if start+end == len(r.data) {
		r.pos = len(r.data)
		return nil, r.syntaxError("unterminated string")
	}
	r.pos = start + end + 1
	return r.data[start : start+end], nil
}

// readEscapedString continues readStringBytes at the first backslash,
// decoding into the scratch buffer.
func (r *jsonReader) readEscapedString(start int, quote byte) ([]byte, error) {
	buf := append(r.scratch[:0], r.data[start:r.pos]...)
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if c == quote {
			r.pos++
			r.scratch = buf
			return buf, nil
		}
		if c != '\\' {
			buf = append(buf, c)
			r.pos++
			continue
		}
		if r.pos+1 >= len(r.data) {
			break
		}
		esc := r.data[r.pos+1]
		r.pos += 2
		if b, ok := jsonesc.Simple(esc); ok {
			buf = append(buf, b)
			continue
		}
		switch esc {
		case '\'': // fastjson also writes single-quoted strings
			buf = append(buf, esc)
		case 'u':
			ch, n, ok := jsonesc.Unicode(r.data[r.pos:])
			if !ok {
				return nil, r.syntaxError("bad \\u escape")
			}
			r.pos += n
			buf = utf8.AppendRune(buf, ch)
		default:
			return nil, r.syntaxError("bad escape")
		}
	}
	return nil, r.syntaxError("unterminated string")
}

// readString reads a string value; null reads as "".
func (r *jsonReader) readString() (string, error) {
	if r.consumeNull() {
		return "", nil
	}
	if c := r.peek(); c != '"' && c != '\'' {
		return "", r.typeError("expected a string")
	}
	b, err := r.readStringBytes()
	return string(b), err
}

// readInt64 reads an integer value, also when written as a string (standard
// JSON writes large longs that way); null reads as 0.
func (r *jsonReader) readInt64() (int64, error) {
	if r.consumeNull() {
		return 0, nil
	}
	var digits []byte
	if c := r.peek(); c == '"' || c == '\'' {
		b, err := r.readStringBytes()
		if err != nil {
			return 0, err
		}
		digits = b
	} else {
		digits = r.readBare()
	}
	v, ok := parseInt64(digits)
	if !ok {
		return 0, r.typeError(fmt.Sprintf("expected an integer, got %q", truncateForError(digits)))
	}
	return v, nil
}

// readInt32 reads an integer that must fit a Java int.
func (r *jsonReader) readInt32() (int32, error) {
	v, err := r.readInt64()
	if err != nil {
		return 0, err
	}
	if v != int64(int32(v)) {
		return 0, r.typeError(fmt.Sprintf("integer %d out of int range", v))
	}
	return int32(v), nil
}

// readBool reads true/false, also quoted or as a number (fastjson casts
// both); null reads as false.
func (r *jsonReader) readBool() (bool, error) {
	if r.consumeNull() {
		return false, nil
	}
	var word []byte
	if c := r.peek(); c == '"' || c == '\'' {
		b, err := r.readStringBytes()
		if err != nil {
			return false, err
		}
		word = b
	} else {
		word = r.readBare()
	}
	switch string(word) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if v, ok := parseInt64(word); ok {
		return v != 0, nil
	}
	return false, r.typeError(fmt.Sprintf("expected a boolean, got %q", truncateForError(word)))
}

// parseInt64 parses an optionally signed decimal integer, refusing overflow.
func parseInt64(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0')
	}
	if neg {
		if u > 1<<63 {
			return 0, false
		}
		return -int64(u), true
	}
	if u > 1<<63-1 {
		return 0, false
	}
	return int64(u), true
}

// truncateForError keeps error messages short whatever the input.
func truncateForError(b []byte) string {
	const limit = 32
	if len(b) > limit {
		return string(b[:limit]) + "..."
	}
	return string(b)
}

// skipValue consumes one value of any type without keeping it.
func (r *jsonReader) skipValue() error {
	switch c := r.peek(); c {
	case '{':
		if err := r.enterObject(); err != nil {
			return err
		}
		for first := true; ; first = false {
			_, more, err := r.nextMember(first)
			if err != nil || !more {
				return err
			}
			if err := r.skipValue(); err != nil {
				return err
			}
		}
	case '[':
		if err := r.enterArray(); err != nil {
			return err
		}
		for first := true; ; first = false {
			more, err := r.nextElement(first)
			if err != nil || !more {
				return err
			}
			if err := r.skipValue(); err != nil {
				return err
			}
		}
	case '"', '\'':
		_, err := r.skipString()
		return err
	default:
		if len(r.readBare()) == 0 {
			return r.syntaxError("expected a value")
		}
		return nil
	}
}

// skipString passes over a quoted string without decoding it.
func (r *jsonReader) skipString() (int, error) {
	quote := r.data[r.pos]
	r.pos++
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case quote:
			r.pos++
			return r.pos, nil
		case '\\':
			r.pos++
		}
		r.pos++
	}
	return 0, r.syntaxError("unterminated string")
}

// readStringArray reads an array of strings; null reads as nil.
func (r *jsonReader) readStringArray() ([]string, error) {
	values := []string{}
	isNull, err := r.readArray(func() error {
		v, err := r.readString()
		values = append(values, v)
		return err
	})
	if err != nil || isNull {
		return nil, err
	}
	return values, nil
}

// readStringMap reads a string -> string object; null reads as nil.
func (r *jsonReader) readStringMap() (map[string]string, error) {
	if r.consumeNull() {
		return nil, nil
	}
	m := map[string]string{}
	err := r.readObject(func(key []byte) error {
		k := string(key) // before the value reuses the scratch buffer
		v, err := r.readString()
		m[k] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// decodeJSONBody runs decode on a reader over b and checks nothing follows.
func decodeJSONBody(b []byte, what string, decode func(r *jsonReader) error) error {
	r := jsonReader{data: b}
	if err := decode(&r); err != nil {
		return fmt.Errorf("decode %s: %w", what, err)
	}
	if err := r.finish(); err != nil {
		return fmt.Errorf("decode %s: %w", what, err)
	}
	return nil
}

// readObject calls member for each member of the object that comes next,
// with the reader positioned at the member's value, which member must
// consume. null reads as an object without members.
func (r *jsonReader) readObject(member func(key []byte) error) error {
	if r.consumeNull() {
		return nil
	}
	if err := r.enterObject(); err != nil {
		return err
	}
	for first := true; ; first = false {
		key, more, err := r.nextMember(first)
		if err != nil || !more {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
	}
}

// readArray calls element for each element of the array that comes next.
// null reads as an empty array; isNull tells the two apart.
func (r *jsonReader) readArray(element func() error) (isNull bool, err error) {
	if r.consumeNull() {
		return true, nil
	}
	if err := r.enterArray(); err != nil {
		return false, err
	}
	for first := true; ; first = false {
		more, err := r.nextElement(first)
		if err != nil || !more {
			return false, err
		}
		if err := element(); err != nil {
			return false, err
		}
	}
}

// readNamedTable reads an object of name -> value, reading each value with
// readValue; null reads as nil.
func readNamedTable[V any](r *jsonReader, readValue func(name string) (V, error)) (map[string]V, error) {
	if r.consumeNull() {
		return nil, nil
	}
	table := map[string]V{}
	err := r.readObject(func(key []byte) error {
		name := string(key) // before the value reuses the scratch buffer
		value, err := readValue(name)
		table[name] = value
		return err
	})
	if err != nil {
		return nil, err
	}
	return table, nil
}
