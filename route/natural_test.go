package route

import (
	"slices"
	"testing"
)

// TestNaturalCompareOrdersNumbersAsNumbers: digits compare as numbers
// (T-2 before T-10), text elsewhere, ties by text so the order is total.
func TestNaturalCompareOrdersNumbersAsNumbers(t *testing.T) {
	names := []string{"T-10", "T-2", "T-0", "T-1", "broker-b", "T-007", "T-7", "T", "T-", "broker-a-10", "broker-a-9",
		"T-99999999999999999999999", "T-100000000000000000000000", "Ta"}
	slices.SortFunc(names, NaturalCompare)
	want := []string{"T", "T-", "T-0", "T-1", "T-2", "T-007", "T-7", "T-10", "T-99999999999999999999999",
		"T-100000000000000000000000", "Ta", "broker-a-9", "broker-a-10", "broker-b"}
	if !slices.Equal(names, want) {
		t.Fatalf("natural order:\n got %q\nwant %q", names, want)
	}
	for _, a := range want {
		for _, b := range want {
			if NaturalCompare(a, b) != -NaturalCompare(b, a) || (NaturalCompare(a, b) == 0) != (a == b) {
				t.Fatalf("not a total order at %q, %q", a, b)
			}
		}
	}
}
