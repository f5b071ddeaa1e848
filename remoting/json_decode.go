package remoting

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode/utf8"

	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
)

// maxJSONDepth bounds nesting inside ignored values, so hostile input cannot
// drive the recursive skipper deep.
const maxJSONDepth = 64

// decodeJSONHeader fills cmd from a JSON header with the leniency the Java
// server shows (protocol.md 1.5): any key order, unknown keys ignored,
// missing flag/version = 0, language as name or number, non-string extFields
// values kept as their text, null values = absent. The literal null and
// anything but one object are rejected.
func decodeJSONHeader(data []byte, cmd *Command) error {
	scan := jsonScanner{data: data}
	if err := scan.decodeHeaderObject(cmd); err != nil {
		return fmt.Errorf("json header at byte %d: %w: %w", scan.pos, ErrBadHeader, err)
	}
	return nil
}

// jsonScanner walks a byte slice; every method checks bounds before reading.
type jsonScanner struct {
	data []byte
	pos  int
}

// jsonSyntaxError is the detail wrapped into ErrBadHeader for malformed text.
type jsonSyntaxError string

func (e jsonSyntaxError) Error() string { return string(e) }

func (s *jsonScanner) decodeHeaderObject(cmd *Command) error {
	cmd.Language = LanguageUnknown
	s.skipSpace()
	if !s.consume('{') {
		return jsonSyntaxError("header is not a JSON object")
	}
	err := s.eachMember(func(key []byte) error { return s.decodeHeaderField(key, cmd) })
	if err != nil {
		return err
	}
	s.skipSpace()
	if s.pos != len(s.data) {
		return jsonSyntaxError("trailing data after the header object")
	}
	return nil
}

// eachMember reads "key": value pairs after an opening brace up to and
// including the closing brace, calling onMember positioned at each value.
func (s *jsonScanner) eachMember(onMember func(key []byte) error) error {
	return s.eachItem('}', func() error {
		key, err := s.readStringBytes()
		if err != nil {
			return err
		}
		s.skipSpace()
		if !s.consume(':') {
			return jsonSyntaxError("missing ':' after object key")
		}
		s.skipSpace()
		return onMember(key)
	})
}

// eachItem reads comma-separated items after an opening bracket up to and
// including closer; item starts at non-space input.
func (s *jsonScanner) eachItem(closer byte, item func() error) error {
	s.skipSpace()
	if s.consume(closer) {
		return nil
	}
	for {
		s.skipSpace()
		if err := item(); err != nil {
			return err
		}
		s.skipSpace()
		if s.consume(',') {
			continue
		}
		if s.consume(closer) {
			return nil
		}
		return jsonSyntaxError("missing ',' or '" + string(closer) + "'")
	}
}

func (s *jsonScanner) decodeHeaderField(key []byte, cmd *Command) error {
	var err error
	switch string(key) {
	case "code":
		cmd.Code, err = s.readInt32()
	case "flag":
		cmd.Flag, err = s.readInt32()
	case "opaque":
		cmd.Opaque, err = s.readInt32()
	case "version":
		cmd.Version, err = s.readInt32()
	case "language":
		cmd.Language, err = s.readLanguage()
	case "remark":
		if s.consumeLiteral("null") {
			cmd.Remark = ""
			return nil
		}
		var remark []byte
		remark, err = s.readStringBytes()
		cmd.Remark = string(remark)
	case "extFields":
		cmd.ExtFields, err = s.readExtFields()
	default:
		_, err = s.skipValue(0)
	}
	if err != nil {
		return fmt.Errorf("field %q: %w", key, err)
	}
	return nil
}

// readLanguage accepts an enum name, an ordinal number or null.
func (s *jsonScanner) readLanguage() (LanguageCode, error) {
	if s.pos < len(s.data) && s.data[s.pos] == '"' {
		name, err := s.readStringBytes()
		if err != nil {
			return LanguageUnknown, err
		}
		return languageFromName(name), nil
	}
	if s.consumeLiteral("null") {
		return LanguageUnknown, nil
	}
	number, err := s.readNumberText()
	if err != nil {
		return LanguageUnknown, err
	}
	code, ok := parseDecimal(number, 1<<31-1)
	if !ok {
		return LanguageUnknown, nil
	}
	return languageFromCode(code), nil
}

// readExtFields reads the custom-header object; null means absent.
func (s *jsonScanner) readExtFields() (map[string]string, error) {
	if s.consumeLiteral("null") {
		return nil, nil
	}
	if !s.consume('{') {
		return nil, jsonSyntaxError("extFields is not an object")
	}
	ext := make(map[string]string, 8)
	err := s.eachMember(func(key []byte) error {
		value, present, err := s.readValueAsText()
		if err != nil {
			return err
		}
		if err := checkExtEntry(len(ext), len(key), len(value)); err != nil {
			return err
		}
		if present {
			ext[string(key)] = value
		}
		return nil
	})
	return ext, err
}

// readValueAsText returns a string value unquoted, and any other value as
// its JSON text (fastjson converts numbers and booleans to their text); a
// null value reports present = false.
func (s *jsonScanner) readValueAsText() (text string, present bool, err error) {
	if s.pos < len(s.data) && s.data[s.pos] == '"' {
		value, err := s.readStringBytes()
		return string(value), err == nil, err
	}
	if s.consumeLiteral("null") {
		return "", false, nil
	}
	raw, err := s.skipValue(0)
	return string(raw), err == nil, err
}

// readInt32 reads an integer that fits int32; fastjson also accepts it
// quoted, and null as 0.
func (s *jsonScanner) readInt32() (int32, error) {
	if v, ok := s.plainInt32(); ok {
		return v, nil
	}
	return s.readAnyInt32()
}

// readAnyInt32 is readInt32 for every form: null, a quoted or a bare
// number, with the errors of each.
func (s *jsonScanner) readAnyInt32() (int32, error) {
	if s.consumeLiteral("null") {
		return 0, nil
	}
	var digits []byte
	var err error
	if s.pos < len(s.data) && s.data[s.pos] == '"' {
		digits, err = s.readStringBytes()
	} else {
		digits, err = s.readNumberText()
	}
	if err != nil {
		return 0, err
	}
	value, ok := parseDecimal(digits, 1<<31-1)
	if !ok || value < -(1<<31) {
		return 0, jsonSyntaxError("not a 32-bit integer: " + string(digits))
	}
	return int32(value), nil
}

// plainInt32 reads a bare integer of at most 10 digits that fits 32 bits
// (code, flag, opaque, version) in one pass; anything else (null, a quoted
// number, a fraction or exponent, more digits, out of range) is left for
// readInt32's general path, with the position unchanged.
func (s *jsonScanner) plainInt32() (int32, bool) {
	i := s.pos
	negative := i < len(s.data) && s.data[i] == '-'
	if negative {
		i++
	}
	start := i
	var v int64
	for i < len(s.data) && i-start < 10 && s.data[i] >= '0' && s.data[i] <= '9' {
		v = v*10 + int64(s.data[i]-'0')
		i++
	}
	if i == start {
		return 0, false
	}
	if i < len(s.data) {
		if c := s.data[i]; c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	if negative {
		v = -v
	}
	if v > 1<<31-1 || v < -(1<<31) {
		return 0, false
	}
	s.pos = i
	return int32(v), true
}

// parseDecimal parses an optionally signed decimal integer whose magnitude
// is at most limit+1 (so both int32 bounds fit), without allocating.
func parseDecimal(digits []byte, limit int64) (int64, bool) {
	negative := false
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		negative = digits[0] == '-'
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return 0, false
	}
	var value int64
	for _, d := range digits {
		if d < '0' || d > '9' {
			return 0, false
		}
		value = value*10 + int64(d-'0')
		if value > limit+1 {
			return 0, false
		}
	}
	if negative {
		return -value, true
	}
	if value > limit {
		return 0, false
	}
	return value, true
}

// readNumberText returns the bytes of a JSON number (validated grammar).
func (s *jsonScanner) readNumberText() ([]byte, error) {
	start := s.pos
	if s.pos < len(s.data) && s.data[s.pos] == '-' {
		s.pos++
	}
	if s.skipDigits() == 0 {
		return nil, jsonSyntaxError("invalid number")
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if s.skipDigits() == 0 {
			return nil, jsonSyntaxError("invalid number fraction")
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if s.skipDigits() == 0 {
			return nil, jsonSyntaxError("invalid number exponent")
		}
	}
	return s.data[start:s.pos], nil
}

func (s *jsonScanner) skipDigits() int {
	start := s.pos
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
	}
	return s.pos - start
}

// skipValue validates and skips any JSON value, returning its raw bytes.
func (s *jsonScanner) skipValue(depth int) ([]byte, error) {
	if depth > maxJSONDepth {
		return nil, jsonSyntaxError("nesting too deep")
	}
	start := s.pos
	if s.pos >= len(s.data) {
		return nil, jsonSyntaxError("missing value")
	}
	var err error
	switch c := s.data[s.pos]; {
	case c == '"':
		_, err = s.readStringBytes()
	case c == '{':
		s.pos++
		err = s.eachMember(func([]byte) error {
			_, err := s.skipValue(depth + 1)
			return err
		})
	case c == '[':
		s.pos++
		err = s.skipArrayElements(depth)
	case c == 't':
		err = s.requireLiteral("true")
	case c == 'f':
		err = s.requireLiteral("false")
	case c == 'n':
		err = s.requireLiteral("null")
	default:
		_, err = s.readNumberText()
	}
	if err != nil {
		return nil, err
	}
	return s.data[start:s.pos], nil
}

func (s *jsonScanner) skipArrayElements(depth int) error {
	return s.eachItem(']', func() error {
		_, err := s.skipValue(depth + 1)
		return err
	})
}

func (s *jsonScanner) requireLiteral(literal string) error {
	if !s.consumeLiteral(literal) {
		return jsonSyntaxError("invalid literal")
	}
	return nil
}

func (s *jsonScanner) consumeLiteral(literal string) bool {
	if len(s.data)-s.pos >= len(literal) && string(s.data[s.pos:s.pos+len(literal)]) == literal {
		s.pos += len(literal)
		return true
	}
	return false
}

func (s *jsonScanner) consume(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

func (s *jsonScanner) skipSpace() {
	// Mostly there is none: one comparison finds that.
	for s.pos < len(s.data) && s.data[s.pos] <= ' ' {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// readStringBytes reads a quoted string and returns its unescaped bytes;
// without escapes the result aliases the input (callers copy via string()).
// Raw bytes, including invalid UTF-8, are kept as they are.
func (s *jsonScanner) readStringBytes() ([]byte, error) {
	if !s.consume('"') {
		return nil, jsonSyntaxError("expected a string")
	}
	start := s.pos
	s.pos += plainStringBytes(s.data[s.pos:])
	for s.pos < len(s.data) {
		switch c := s.data[s.pos]; {
		case c == '"':
			text := s.data[start:s.pos]
			s.pos++
			return text, nil
		case c == '\\':
			return s.readEscapedString(start)
		case c < 0x20:
			return nil, jsonSyntaxError("control character in string")
		default:
			s.pos++
		}
	}
	return nil, jsonSyntaxError("unterminated string")
}

// Masks for plainStringBytes: a byte's high bit in each of eight lanes, the
// low bit, and the bytes it looks for.
const (
	laneHigh  = 0x8080808080808080
	laneLow   = 0x0101010101010101
	laneQuote = '"' * laneLow
	laneSlash = '\\' * laneLow
	laneSpace = 0x20 * laneLow
)

// plainStringBytes is how many leading bytes of b need no attention inside
// a JSON string (no quote, backslash or control character), found eight at
// a time; in the last bytes, fewer than eight, it stops and the byte loop
// takes over. Header strings (names, addresses, topics) are 10-40 bytes, which a
// byte loop with three comparisons per byte took 8% of the NameServer's CPU
// per heartbeat to read.
func plainStringBytes(b []byte) int {
	n := 0
	for len(b)-n >= 8 {
		w := binary.LittleEndian.Uint64(b[n:])
		// A lane is flagged when it is zero after the XOR (the byte was a
		// quote or a backslash) or below 0x20: the classic "has a zero byte"
		// test. It may also flag lanes above a true one (the borrow runs
		// upward), never below, so the lowest flag is the first byte that
		// needs attention.
		q, bs := w^laneQuote, w^laneSlash
		if flags := ((q-laneLow)&^q | (bs-laneLow)&^bs | (w-laneSpace)&^w) & laneHigh; flags != 0 {
			return n + bits.TrailingZeros64(flags)/8
		}
		n += 8
	}
	return n
}

// readEscapedString continues readStringBytes once an escape was seen,
// building a fresh buffer.
func (s *jsonScanner) readEscapedString(start int) ([]byte, error) {
	text := make([]byte, 0, s.pos-start+16)
	text = append(text, s.data[start:s.pos]...)
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return text, nil
		case c < 0x20:
			return nil, jsonSyntaxError("control character in string")
		case c != '\\':
			text = append(text, c)
			s.pos++
			continue
		}
		s.pos++ // the backslash
		if s.pos >= len(s.data) {
			break
		}
		escaped := s.data[s.pos]
		s.pos++
		if b, ok := jsonesc.Simple(escaped); ok {
			text = append(text, b)
			continue
		}
		if escaped != 'u' {
			return nil, jsonSyntaxError("invalid escape in string")
		}
		r, n, ok := jsonesc.Unicode(s.data[s.pos:])
		if !ok {
			return nil, jsonSyntaxError("invalid \\u escape")
		}
		s.pos += n
		text = utf8.AppendRune(text, r)
	}
	return nil, jsonSyntaxError("unterminated string")
}
