package main

import (
	"strings"
	"testing"
)

// TestJavaHashOrderMatchesJava: the insertion order and the keySet order
// OpenJDK 17 printed for a new HashMap<String, Integer> filled with these
// keys. The first nine share one hashCode ("Aa" and "BB" hash alike): the
// ninth makes the 16-bin table double instead of turning the bin into a
// tree, and the later inserts double it again past the 0.75 load.
func TestJavaHashOrderMatchesJava(t *testing.T) {
	inserted := "AaAaAaAa,AaAaAaBB,AaAaBBAa,AaAaBBBB,AaBBAaAa,AaBBAaBB,AaBBBBAa,AaBBBBBB,BBAaAaAa,x,broker-a,10.0.0.1,k0,k1,k2,k3,k4,k5,k6,k7,k8,k9,k10,k11,k12,k13,k14,k15,k16,k17,k18,k19"
	want := "AaAaAaAa,AaAaAaBB,AaAaBBAa,AaAaBBBB,AaBBAaAa,AaBBAaBB,AaBBBBAa,AaBBBBBB,BBAaAaAa,k11,k10,k13,k12,k15,k14,k17,k16,k19,k18,broker-a,10.0.0.1,k0,k1,k2,k3,k4,k5,k6,k7,k8,k9,x"
	if got := strings.Join(javaHashOrderedKeys(strings.Split(inserted, ",")), ","); got != want {
		t.Fatalf("order\n got %s\nwant %s", got, want)
	}
}

func TestJavaHashMapBinsGrowth(t *testing.T) {
	for _, c := range []struct{ keys, bins int }{{0, 16}, {12, 16}, {13, 32}, {24, 32}, {25, 64}, {80, 128}} {
		hashes := make([]int32, c.keys)
		for i := range hashes {
			hashes[i] = int32(i)
		}
		if got := javaHashMapBins(hashes); got != c.bins {
			t.Errorf("%d distinct keys: %d bins, want %d", c.keys, got, c.bins)
		}
	}
}
