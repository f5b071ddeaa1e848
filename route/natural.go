package route

import (
	"cmp"
	"strings"
)

// NaturalCompare orders names as a person reads them: runs of digits
// compare as numbers, so T-2 comes before T-10 (text order puts T-10 first).
// Equal numbers with different leading zeros (T-07, T-7) and otherwise
// equal names fall back to text order, so the order is total and stable.
func NaturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			ai, bj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			if c := compareDigits(a[ai:i], b[bj:j]); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			if a[i] < b[j] {
				return -1
			}
			return 1
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// compareDigits compares two runs of digits as numbers of any length.
func compareDigits(a, b string) int {
	for len(a) > 1 && a[0] == '0' {
		a = a[1:]
	}
	for len(b) > 1 && b[0] == '0' {
		b = b[1:]
	}
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
