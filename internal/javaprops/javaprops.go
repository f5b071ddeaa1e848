// Package javaprops reads and writes Java .properties text, the format of the
// NameServer's and the broker's config files and of UPDATE_NAMESRV_CONFIG and
// GET_NAMESRV_CONFIG bodies. Both the daemon and the broker use it.
package javaprops

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gonamesrv/gonamesrv/internal/jsonesc"
)

// ErrMalformed is returned by Parse for text Java's Properties.load rejects
// (a malformed \uXXXX escape); the NameServer answers "string2Properties
// error" for it, as Java does.
var ErrMalformed = errors.New("javaprops: malformed properties text")

// Parse reads Java .properties text (java.util.Properties.load
// rules): `key=value`, `key:value` and `key value` lines, `#` and `!` comment
// lines, backslash line continuations, escapes \t \n \r \f \uXXXX and \x for any
// other x. The text is UTF-8 (Java's load(InputStream) would read ISO-8859-1,
// which garbles the UTF-8 bodies Java tools send). A malformed \uXXXX escape is
// an error wrapping ErrMalformed. A repeated key keeps its last value.
func Parse(text []byte) (map[string]string, error) {
	entries, err := ParseEntries(text)
	if err != nil {
		return nil, err
	}
	props := make(map[string]string, len(entries))
	for _, e := range entries {
		props[e.Key] = e.Value
	}
	return props, nil
}

// Entry is one key=value of a properties text with the line (1-based) its
// logical line starts on, so that an error can point at it.
type Entry struct {
	Key, Value string
	Line       int
}

// ParseEntries reads properties text as Parse does and returns every entry
// in text order, a repeated key once per occurrence.
func ParseEntries(text []byte) ([]Entry, error) {
	var entries []Entry
	lines := naturalLines(strings.ToValidUTF8(string(text), "\uFFFD"))
	for i := 0; i < len(lines); {
		line := trimLeadingBlanks(lines[i])
		i++
		start := i
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		for endsWithContinuation(line) {
			line = line[:len(line)-1]
			if i == len(lines) {
				break
			}
			line += trimLeadingBlanks(lines[i])
			i++
		}
		rawKey, rawValue := splitKeyValue(line)
		key, err := unescape(rawKey)
		if err != nil {
			return nil, fmt.Errorf("line %d: key %q: %w", start, rawKey, err)
		}
		value, err := unescape(rawValue)
		if err != nil {
			return nil, fmt.Errorf("line %d: value of %q: %w", start, key, err)
		}
		entries = append(entries, Entry{Key: key, Value: value, Line: start})
	}
	return entries, nil
}

// naturalLines splits text at \n, \r and \r\n.
func naturalLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// isBlank reports the characters Java treats as white space inside a line.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

// trimLeadingBlanks drops the white space a natural line starts with.
func trimLeadingBlanks(s string) string {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	return s[i:]
}

// endsWithContinuation reports an odd number of trailing backslashes: the
// last one escapes the line break.
func endsWithContinuation(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitKeyValue cuts a logical line at the first unescaped '=', ':' or white
// space; white space around the separator, and one '=' or ':' after white
// space, belong to neither part.
func splitKeyValue(line string) (key, value string) {
	keyEnd, valueStart := len(line), len(line)
	hasSeparator, escaped := false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !escaped && (c == '=' || c == ':') {
			keyEnd, valueStart, hasSeparator = i, i+1, true
			break
		}
		if !escaped && isBlank(c) {
			keyEnd, valueStart = i, i+1
			break
		}
		escaped = c == '\\' && !escaped
	}
	for valueStart < len(line) {
		c := line[valueStart]
		if !isBlank(c) {
			if hasSeparator || (c != '=' && c != ':') {
				break
			}
			hasSeparator = true
		}
		valueStart++
	}
	return line[:keyEnd], line[valueStart:]
}

// unescape resolves the backslash escapes of one key or value.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	var pendingHigh rune = -1 // a \u high surrogate waiting for its low half
	flushHigh := func() {
		if pendingHigh >= 0 {
			b.WriteRune(utf8.RuneError)
			pendingHigh = -1
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			flushHigh()
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'u':
			if len(s)-(i+1) < 4 {
				return "", fmt.Errorf("%w: \\u needs four hex digits in %q", ErrMalformed, s)
			}
			unit, ok := jsonesc.Hex4([]byte(s[i+1 : i+5]))
			if !ok {
				return "", fmt.Errorf("%w: bad \\u%s escape", ErrMalformed, s[i+1:i+5])
			}
			i += 4
			r := rune(unit)
			switch {
			case utf16.IsSurrogate(r) && r < 0xDC00:
				flushHigh()
				pendingHigh = r
				continue
			case utf16.IsSurrogate(r) && pendingHigh >= 0:
				b.WriteRune(utf16.DecodeRune(pendingHigh, r))
				pendingHigh = -1
				continue
			}
			flushHigh()
			b.WriteRune(r)
		case 't':
			flushHigh()
			b.WriteByte('\t')
		case 'n':
			flushHigh()
			b.WriteByte('\n')
		case 'r':
			flushHigh()
			b.WriteByte('\r')
		case 'f':
			flushHigh()
			b.WriteByte('\f')
		default:
			flushHigh()
			b.WriteByte(c)
		}
	}
	flushHigh()
	return b.String(), nil
}

// Format writes m as the GET_NAMESRV_CONFIG body: one `key=value\n`
// line per entry, keys in Java string order, nothing escaped (protocol.md 6.6).
func Format(m map[string]string) []byte {
	return appendProperties(nil, m, func(s string, _ bool) string { return s })
}

// FormatFile writes m in the same layout as Format but
// escapes what would not read back unchanged (backslashes, line breaks,
// leading blanks, separators inside keys), so a persisted file reloads to the
// same settings. Ordinary values come out byte-identical to Format.
func FormatFile(m map[string]string) []byte {
	return appendProperties(nil, m, escapeProperty)
}

// appendProperties appends the sorted `key=value\n` lines, passing keys and
// values through escape (isKey tells which one it gets).
func appendProperties(dst []byte, m map[string]string, escape func(s string, isKey bool) string) []byte {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	slices.SortFunc(keys, compareJava)
	for _, key := range keys {
		dst = append(dst, escape(key, true)...)
		dst = append(dst, '=')
		dst = append(dst, escape(m[key], false)...)
		dst = append(dst, '\n')
	}
	return dst
}

// escapeProperty escapes s for a .properties file, the way Java's
// Properties.store does for the characters that matter, leaving non-ASCII raw
// (the file is UTF-8).
func escapeProperty(s string, isKey bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == ' ' && (isKey || i == 0):
			b.WriteString(`\ `)
		case isKey && (c == '=' || c == ':' || ((c == '#' || c == '!') && i == 0)):
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// compareJava orders strings as Java's String.compareTo does: by UTF-16 code
// units, which differs from Go's byte order only for characters above U+FFFF
// against U+E000..U+FFFF.
func compareJava(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}
