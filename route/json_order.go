package route

import (
	"strings"
	"unicode/utf8"
)

// compareJavaStrings orders two strings the way Java's String.compareTo does:
// by UTF-16 code unit. It differs from Go's byte order only when a character
// above U+FFFF (a surrogate pair, 0xD800..) meets one in U+E000..U+FFFF.
func compareJavaStrings(a, b string) int {
	for i := 0; i < len(a) && i < len(b); {
		if a[i] == b[i] {
			i++
			continue
		}
		// First difference: compare the characters that contain it. Both
		// strings agree up to i, so i is at the same offset in both; step
		// back to the start of the character.
		start := i
		for start > 0 && !utf8.RuneStart(a[start]) {
			start--
		}
		ra, _ := utf8.DecodeRuneInString(a[start:])
		rb, _ := utf8.DecodeRuneInString(b[start:])
		if ka, kb := javaSortKey(ra), javaSortKey(rb); ka != kb {
			if ka < kb {
				return -1
			}
			return 1
		}
		return strings.Compare(a[start:], b[start:]) // invalid UTF-8 on both sides
	}
	return strings.Compare(a, b) // one is a prefix of the other
}

// javaSortKey maps r to a number ordered like its UTF-16 units: the first
// unit in the high half, the second (if any) in the low half.
func javaSortKey(r rune) uint32 {
	if r > 0xFFFF {
		hi, lo := utf16Pair(r)
		return uint32(hi)<<16 | uint32(lo)
	}
	return uint32(r) << 16
}
