package route

import "testing"

// TestPermString spells permissions as Java's PermName.perm2String.
func TestPermString(t *testing.T) {
	for perm, want := range map[int32]string{6: "RW-", 4: "R--", 2: "-W-", 7: "RWX", 0: "---", PermPriority: "---"} {
		if got := PermString(perm); got != want {
			t.Errorf("PermString(%d) = %q, want %q", perm, got, want)
		}
	}
}
