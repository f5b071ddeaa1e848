package acl

import "testing"

// TestBasicHelpers: NoCredentials counts under not_signed by class, IsAdmin
// tells the admin account from the user and an unknown key, Enabled is
// aclEnable.
func TestBasicHelpers(t *testing.T) {
	c, _ := newTestChecker(t, testFile, Options{Enabled: true})
	if !c.Enabled() {
		t.Fatal("Enabled false with aclEnable")
	}
	if d := c.NoCredentials(local, false); d == nil || d.Reason != NotSigned || d.Class != AdminRead {
		t.Fatalf("read without credentials: %+v", d)
	}
	if d := c.NoCredentials(local, true); d == nil || d.Class != AdminWrite {
		t.Fatalf("admin without credentials: %+v", d)
	}
	if c.Denied(AdminRead, NotSigned) != 1 || c.Denied(AdminWrite, NotSigned) != 1 {
		t.Fatalf("denials %+v", c.Denials())
	}
	if !c.IsAdmin(admin.AccessKey) || c.IsAdmin(user.AccessKey) || c.IsAdmin("nobody") {
		t.Fatal("IsAdmin does not follow the accounts' admin flags")
	}
	off, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if off.Enabled() {
		t.Fatal("Enabled true without aclEnable")
	}
}
