package portguard

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
)

func TestNewCheckerReadsTheKeys(t *testing.T) {
	if _, err := NewChecker(ACLKeys{AdminWhiteRemoteAddresses: "not an address"}, testlog.Discard()); err == nil {
		t.Fatal("a bad adminWhiteRemoteAddresses accepted")
	}
	if _, err := NewChecker(ACLKeys{AclEnable: true, AclFile: filepath.Join(t.TempDir(), "none.yml")}, testlog.Discard()); err == nil {
		t.Fatal("aclEnable without its file accepted")
	}
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte("globalWhiteRemoteAddresses:\n  - 10.0.0.1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := NewChecker(ACLKeys{AclEnable: true, AclFile: file, AdminWhiteRemoteAddresses: "10.0.0.2"}, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	white, other := netip.MustParseAddr("10.0.0.1"), netip.MustParseAddr("10.0.0.9")
	if c.Check(acl.BrokerCtl, nil, nil, white) != nil || c.Check(acl.BrokerCtl, nil, nil, other) == nil {
		t.Fatal("the accounts file's white list not applied")
	}
	if d := c.Check(acl.AdminWrite, nil, nil, white); d == nil || d.Reason != acl.AdminAddressNotAllowed {
		t.Fatalf("adminWhiteRemoteAddresses not applied: %v", d)
	}
	if c.Check(acl.RouteRead, nil, nil, other) == nil {
		t.Fatal("an unsigned route read admitted without aclAnonymousRouteRead")
	}
}
