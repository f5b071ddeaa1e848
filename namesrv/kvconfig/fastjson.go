package kvconfig

import (
	"sort"
	"unicode/utf8"
)

// hexDigits are the uppercase digits fastjson uses in \u00XX escapes.
const hexDigits = "0123456789ABCDEF"

// appendJSONString appends s as a JSON string the way fastjson 1.2.83 writes it
// with default features (protocol.md 3.1): `"` and `\` escaped, control
// characters as \b \f \n \r \t or \u00XX, DEL as \u007F, U+2028/U+2029
// escaped, `/` and other non-ASCII characters raw. Go's encoding/json differs
// (lowercase hex, HTML escaping, DEL raw), hence this small writer.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == '\u2028' || r == '\u2029':
				dst = append(dst, `\u202`...)
				dst = append(dst, hexDigits[r&0xF])
			case r == utf8.RuneError && size == 1:
				dst = append(dst, "\uFFFD"...)
			default:
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"':
			dst = append(dst, `\"`...)
		case '\\':
			dst = append(dst, `\\`...)
		case '\b':
			dst = append(dst, `\b`...)
		case '\f':
			dst = append(dst, `\f`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		default:
			if c < 0x20 || c == 0x7F {
				dst = append(dst, `\u00`...)
				dst = append(dst, hexDigits[c>>4], hexDigits[c&0xF])
			} else {
				dst = append(dst, c)
			}
		}
		i++
	}
	return append(dst, '"')
}

// appendObject appends m as a JSON object with keys sorted, so the same
// content always gives the same bytes (Java writes hash order, which no peer
// relies on); appendValue writes each value.
func appendObject[V any](dst []byte, m map[string]V, appendValue func([]byte, V) []byte) []byte {
	dst = append(dst, '{')
	for i, key := range sortedKeys(m) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, key)
		dst = append(dst, ':')
		dst = appendValue(dst, m[key])
	}
	return append(dst, '}')
}

// appendStringMap appends a string→string JSON object, keys sorted.
func appendStringMap(dst []byte, m map[string]string) []byte {
	return appendObject(dst, m, appendJSONString)
}

// sortedKeys returns the keys of m in byte order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}

// encodeKVTable is the KVTable body (protocol.md 3.6): {"table":{...}}.
func encodeKVTable(kv map[string]string) []byte {
	dst := append(make([]byte, 0, 16+32*len(kv)), `{"table":`...)
	dst = appendStringMap(dst, kv)
	return append(dst, '}')
}

// encodeConfigFile is the Java KVConfigSerializeWrapper file content:
// {"configTable":{"<namespace>":{...},...}} on one line.
func encodeConfigFile(table configTable) []byte {
	dst := append(make([]byte, 0, 64), `{"configTable":`...)
	dst = appendObject(dst, table, appendStringMap)
	return append(dst, '}')
}
