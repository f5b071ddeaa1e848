package route

import "testing"

func TestPermChangesLastUntilANewDataVersion(t *testing.T) {
	m := NewManager(Config{})
	b := defaultMaster()
	registerNormal(t, m, b, "T", "U")
	if n := m.WipeWritePerm(b.name); n != 3 {
		t.Fatalf("wiped %d topics, want 3", n)
	}
	registerNormal(t, m, b, "T", "U")
	if writable(mustRoute(t, m, "T").QueueDatas[0]) {
		t.Fatal("same version restored the write perm")
	}
	registerNormal(t, m, b.nextVersion(), "T", "U")
	if !writable(mustRoute(t, m, "T").QueueDatas[0]) {
		t.Fatal("new version did not restore the write perm")
	}
	if n := m.AddWritePerm("unknown"); n != 0 {
		t.Fatalf("unknown broker count = %d", n)
	}
}
