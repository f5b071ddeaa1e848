// Package jsonesc decodes the escapes inside JSON string literals. The wire
// (remoting) and the route bodies (route) each have a hand-written JSON
// reader, built for speed and for fastjson's leniency; the escape rules are
// the same for both and live here once (the \uXXXX digits also serve Java
// .properties text, internal/javaprops).
package jsonesc

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Simple returns the byte a one-letter escape stands for: \" \\ \/ \b \f \n
// \r \t. ok is false for anything else, \u included.
func Simple(letter byte) (b byte, ok bool) {
	switch letter {
	case '"', '\\', '/':
		return letter, true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	}
	return 0, false
}

// Unicode decodes the XXXX of a \uXXXX escape at the start of b (the \u
// already consumed) and, when it is a high surrogate followed by a \uYYYY low
// surrogate, joins the pair, as fastjson's BrowserCompatible writes
// characters above U+FFFF. A lone surrogate decodes as U+FFFD, like
// encoding/json. n is the number of bytes of b used; ok is false when b does
// not start with four hex digits.
func Unicode(b []byte) (r rune, n int, ok bool) {
	unit, ok := Hex4(b)
	if !ok {
		return 0, 0, false
	}
	first := rune(unit)
	if !utf16.IsSurrogate(first) {
		return first, 4, true
	}
	if rest := b[4:]; len(rest) >= 6 && rest[0] == '\\' && rest[1] == 'u' {
		if low, ok := Hex4(rest[2:]); ok {
			if pair := utf16.DecodeRune(first, rune(low)); pair != utf8.RuneError {
				return pair, 10, true
			}
		}
	}
	return utf8.RuneError, 4, true
}

// Hex4 reads four hex digits (either case) at the start of b as one UTF-16
// code unit.
func Hex4(b []byte) (uint16, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var v uint16
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | uint16(c)
	}
	return v, true
}
