package kvconfig

import "testing"

func TestVersionOrder(t *testing.T) {
	ordered := []Version{{}, {Millis: 1}, {Millis: 1, Counter: 1}, {Millis: 1, Counter: 1, Writer: "a"},
		{Millis: 1, Counter: 1, Writer: "b"}, {Millis: 2}}
	for i := range ordered {
		for j := range ordered {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := ordered[i].Compare(ordered[j]); got != want {
				t.Fatalf("%+v vs %+v = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

// Two distinct entries are always ordered, one way only: every NameServer
// picks the same winner.
func TestMetaNewerIsATotalOrder(t *testing.T) {
	v := Version{Millis: 5, Writer: "w"}
	metas := []Meta{{Version: v, SHA256: "aa"}, {Version: v, SHA256: "bb"}, {Version: v, Deleted: true},
		{Version: Version{Millis: 6}, SHA256: "aa"}, {SHA256: "ff"}}
	for i, a := range metas {
		for j, b := range metas {
			if i == j {
				if a.Newer(b) {
					t.Fatalf("%+v newer than itself", a)
				}
				continue
			}
			if a.Newer(b) == b.Newer(a) {
				t.Fatalf("%+v and %+v: newer both ways or neither", a, b)
			}
		}
	}
	if !metas[2].Newer(metas[1]) || !metas[3].Newer(metas[2]) || metas[4].Newer(metas[0]) {
		t.Fatal("a delete loses to a put of its version, or a later version loses, or an unversioned value wins")
	}
}

// The clock's versions only grow, even when the wall clock steps back or
// a peer's clock is ahead.
func TestHLCNextOnlyGrows(t *testing.T) {
	c := hlc{writer: "me"}
	v1 := c.next(1000)
	v2 := c.next(1000)
	v3 := c.next(900) // stepped back
	if v1 != (Version{1000, 0, "me"}) || v2 != (Version{1000, 1, "me"}) || v3 != (Version{1000, 2, "me"}) {
		t.Fatalf("versions %+v %+v %+v", v1, v2, v3)
	}
	c.observe(Version{Millis: 5000, Counter: 7, Writer: "peer"})
	if v := c.next(1001); v != (Version{5000, 8, "me"}) {
		t.Fatalf("after a peer's version: %+v, want 5000.8", v)
	}
	c.observe(Version{Millis: 10}) // older: no change
	if v := c.next(6000); v != (Version{6000, 0, "me"}) {
		t.Fatalf("with the clock past: %+v", v)
	}
}
