package route

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// The append helpers below write the fastjson 1.2.83 forms of protocol.md
// 3.1. "standard" selects the three extra features the Java server turns on
// for route answers to new clients (BrowserCompatible, MapSortField): quoted
// numeric keys, \uXXXX for every non-ASCII UTF-16 unit, "\/" and longs beyond
// ±(2^53-1) as strings. Map order is sorted in both modes (see doc.go).

// maxSafeJSONLong is the largest magnitude BrowserCompatible writes as a JSON
// number; larger longs become strings so a JavaScript reader keeps them exact.
const maxSafeJSONLong = 1<<53 - 1

const upperHex = "0123456789ABCDEF"

// appendUnicodeEscape writes one UTF-16 unit as \uXXXX with uppercase hex,
// the only case fastjson uses.
func appendUnicodeEscape(dst []byte, unit uint16) []byte {
	return append(dst, '\\', 'u',
		upperHex[unit>>12&0xF], upperHex[unit>>8&0xF], upperHex[unit>>4&0xF], upperHex[unit&0xF])
}

// appendJSONString writes s as a quoted JSON string with fastjson's escaping.
// Invalid UTF-8 is written as U+FFFD, what a Java peer would have decoded it to.
func appendJSONString(dst []byte, s string, standard bool) []byte {
	dst = append(dst, '"')
	start := 0 // s[start:i] is pending raw output
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			esc := asciiEscape(c, standard)
			if esc == 0 {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			if esc == 'u' {
				dst = appendUnicodeEscape(dst, uint16(c))
			} else {
				dst = append(dst, '\\', esc)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		invalid := r == utf8.RuneError && size == 1
		if !standard && !invalid && !plainEscapesRune(r) {
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch {
		case standard && r > 0xFFFF:
			hi, lo := utf16Pair(r)
			dst = appendUnicodeEscape(appendUnicodeEscape(dst, hi), lo)
		case standard || plainEscapesRune(r):
			dst = appendUnicodeEscape(dst, uint16(r))
		default: // invalid byte in plain mode
			dst = utf8.AppendRune(dst, utf8.RuneError)
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// asciiEscape says how fastjson writes an ASCII byte: 0 = raw, 'u' = \u00XX,
// any other letter = backslash followed by it.
func asciiEscape(c byte, standard bool) byte {
	switch c {
	case '"', '\\':
		return c
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	case '/':
		if standard {
			return '/'
		}
		return 0
	}
	if c < 0x20 || c == 0x7F {
		return 'u'
	}
	return 0
}

// plainEscapesRune reports the non-ASCII characters fastjson escapes even in
// its default mode: the C1 controls and the two JavaScript line separators.
func plainEscapesRune(r rune) bool {
	return (r >= 0x80 && r < 0xA0) || r == 0x2028 || r == 0x2029
}

// utf16Pair splits a supplementary character into its surrogate pair, the
// form Java holds it in and BrowserCompatible escapes it as.
func utf16Pair(r rune) (hi, lo uint16) {
	r -= 0x10000
	return uint16(0xD800 + (r>>10)&0x3FF), uint16(0xDC00 + r&0x3FF)
}

// appendLong writes a Java long value; BrowserCompatible quotes those a
// JavaScript double cannot hold exactly.
func appendLong(dst []byte, v int64, standard bool) []byte {
	if standard && (v > maxSafeJSONLong || v < -maxSafeJSONLong) {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, v, 10)
		return append(dst, '"')
	}
	return strconv.AppendInt(dst, v, 10)
}

// appendInt writes a Java int value (always a bare number).
func appendInt(dst []byte, v int32) []byte {
	return strconv.AppendInt(dst, int64(v), 10)
}

// appendBool writes a Java boolean.
func appendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, "true"...)
	}
	return append(dst, "false"...)
}

// appendField writes the separator (when not first) and a quoted bean field
// name with its colon. Field names are ASCII identifiers: no escaping needed.
func appendField(dst []byte, name string, first bool) []byte {
	if !first {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// appendNumericKey writes an integer map key: bare in plain mode (fastjson's
// non-standard output), quoted in standard mode.
func appendNumericKey(dst []byte, key int64, standard bool) []byte {
	if standard {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, key, 10)
		return append(dst, '"', ':')
	}
	dst = strconv.AppendInt(dst, key, 10)
	return append(dst, ':')
}

// appendBrokerAddrs writes a broker id -> address map in ascending id order.
func appendBrokerAddrs(dst []byte, addrs map[int64]string, standard bool) []byte {
	return appendNumericKeyMap(dst, addrs, standard, func(dst []byte, addr string) []byte {
		return appendJSONString(dst, addr, standard)
	})
}

// appendNumericKeyMap writes a map with integer keys in ascending key order,
// each key as fastjson writes it (bare, or quoted in the standard form) and
// each value with appendValue.
func appendNumericKeyMap[K int32 | int64, V any](dst []byte, m map[K]V, standard bool, appendValue func([]byte, V) []byte) []byte {
	var stackKeys [16]K // most maps have a few entries: no allocation
	keys := stackKeys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendValue(appendNumericKey(dst, int64(k), standard), m[k])
	}
	return append(dst, '}')
}

// appendStringArray writes a list of strings in its own order.
func appendStringArray(dst []byte, values []string, standard bool) []byte {
	dst = append(dst, '[')
	for i, v := range values {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, v, standard)
	}
	return append(dst, ']')
}

// sortedKeys returns the keys of a string-keyed map in Java String order
// (UTF-16 code units), the order MapSortField writes them in.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareJavaStrings)
	return keys
}

// appendStringMap writes a string -> string map with sorted keys.
func appendStringMap(dst []byte, m map[string]string, standard bool) []byte {
	dst = append(dst, '{')
	for i, k := range sortedKeys(m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, k, standard)
		dst = append(dst, ':')
		dst = appendJSONString(dst, m[k], standard)
	}
	return append(dst, '}')
}
