package route

import (
	"slices"
	"testing"
)

func TestJavaStringHashMatchesJava(t *testing.T) {
	// Values of "...".hashCode() printed by OpenJDK 17 (a surrogate pair counts as two code units).
	cases := map[string]int32{"": 0, "a": 97, "broker-a": 372697965, "DefaultCluster": 1874216089, "华东": 681102, "😀x": 54959989}
	for s, want := range cases {
		if got := javaStringHash(s); got != want {
			t.Errorf("javaStringHash(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestSortJavaHashOrderMatchesRecordedClusterInfo(t *testing.T) {
	// A JVM's ConcurrentHashMap(128) iterates these as [broker-e, broker-b,
	// broker-c, broker-a]; fixtures 025 and 089 show the same order.
	names := []string{"broker-a", "broker-b", "broker-c", "broker-e"}
	sortJavaHashOrder(names, brokerAddrTableBins)
	if want := []string{"broker-e", "broker-b", "broker-c", "broker-a"}; !slices.Equal(names, want) {
		t.Fatalf("order %v, want %v", names, want)
	}
}

func TestJavaTableBinsGrows(t *testing.T) {
	if got := javaTableBins(256, 192); got != 256 {
		t.Fatalf("192 entries: %d bins, want 256", got)
	}
	if got := javaTableBins(256, 193); got != 512 {
		t.Fatalf("193 entries: %d bins, want 512", got)
	}
}
