package route

import "testing"

func TestExportedJavaStringHash(t *testing.T) {
	// Values of "...".hashCode() printed by OpenJDK 17.
	for s, want := range map[string]int32{"": 0, "a": 97, "broker-a": 372697965, "DefaultCluster": 1874216089} {
		if got := JavaStringHash(s); got != want {
			t.Errorf("JavaStringHash(%q) = %d, want %d", s, got, want)
		}
	}
}
