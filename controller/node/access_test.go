package node

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Every code of the dispatch table has its access class, and the table
// has no code the dispatch table lacks.
func TestEveryRouteHasAClass(t *testing.T) {
	for _, r := range routes {
		if _, ok := accessClasses[r.code]; !ok {
			t.Errorf("code %d has no access class", r.code)
		}
	}
	if len(accessClasses) != len(routes) {
		t.Errorf("%d access classes for %d routes", len(accessClasses), len(routes))
	}
}

func TestElectMasterClassTellsABrokerFromAnOperator(t *testing.T) {
	for _, c := range []struct {
		ext  map[string]string
		want acl.Class
	}{
		{map[string]string{"brokerId": "2", "designateElect": "false"}, acl.BrokerCtl},
		{map[string]string{"brokerId": "2"}, acl.BrokerCtl},
		{map[string]string{"brokerId": "2", "designateElect": "TRUE"}, acl.AdminWrite},
		{map[string]string{"brokerId": "-1"}, acl.AdminWrite},
		{map[string]string{}, acl.AdminWrite},
		{map[string]string{"brokerId": "x"}, acl.AdminWrite},
	} {
		if got := classOf(remoting.NewRequest(wire.CodeElectMaster, c.ext, nil)); got != c.want {
			t.Errorf("1002 %v: class %v, want %v", c.ext, got, c.want)
		}
	}
	if got := classOf(remoting.NewRequest(wire.CodeCleanBrokerData, map[string]string{"designateElect": "false"}, nil)); got != acl.AdminWrite {
		t.Errorf("1011 class %v", got)
	}
}

// testAccounts has a user and an admin, and no globalWhiteRemoteAddresses.
const testAccounts = `
accounts:
  - accessKey: userKey01
    secretKey: userSecret01
    admin: false
  - accessKey: adminKey01
    secretKey: adminSecret01
    admin: true
`

var (
	testUser  = aclsign.Credentials{AccessKey: "userKey01", SecretKey: "userSecret01"}
	testAdmin = aclsign.Credentials{AccessKey: "adminKey01", SecretKey: "adminSecret01"}
)

// withACL turns aclEnable on with testAccounts (and adminWhite).
func withACL(t *testing.T, adminWhite string) func(*config.Config) {
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(testAccounts), 0o600); err != nil {
		t.Fatal(err)
	}
	return func(c *config.Config) {
		c.AclEnable, c.AclFile, c.AdminWhiteRemoteAddresses = true, file, adminWhite
	}
}

// call sends one request to addr on a client with cred (none when empty).
func call(t *testing.T, addr string, cred aclsign.Credentials, code int32, ext map[string]string, body []byte) *remoting.Command {
	t.Helper()
	c := remoting.NewClient(addr, remoting.ClientConfig{Sign: aclsign.Signer(cred)})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.Invoke(ctx, remoting.NewRequest(code, ext, body))
	if err != nil {
		t.Fatalf("code %d: %v", code, err)
	}
	return resp
}

// With aclEnable and no white-listed address, every write needs an
// account of the right kind: unsigned and user-signed broker control and
// operator writes are answered 16 naming the reason, and change nothing;
// an admin's succeed; unsigned reads are served (aclAnonymousRouteRead).
func TestACLGuardsEveryClass(t *testing.T) {
	g := startGroup(t, 1, withACL(t, ""))
	addr := g.addrs[g.leader(t)]
	set := map[string]string{"clusterName": "c", "brokerName": "evil", "brokerId": "1", "brokerAddress": "6.6.6.6:10911",
		"brokerAddr": "6.6.6.6:10911", "appliedBrokerId": "1", "registerCheckCode": "6.6.6.6:10911;1", "masterBrokerId": "1",
		"masterEpoch": "1", "cleanLivingBroker": "true", "brokerControllerIdsToClean": "1"}
	writes := []int32{wire.CodeApplyBrokerID, wire.CodeGetNextBrokerID, wire.CodeRegisterBroker, wire.CodeBrokerHeartbeat,
		wire.CodeAlterSyncStateSet, wire.CodeElectMaster, wire.CodeUpdateControllerConfig, wire.CodeCleanBrokerData}
	for _, cred := range []aclsign.Credentials{{}, testUser} {
		for _, code := range writes {
			resp := call(t, addr, cred, code, set, []byte("notifyBrokerRoleChanged=false"))
			if resp.Code != remoting.NO_PERMISSION || !strings.Contains(resp.Remark, "no permission") {
				t.Errorf("code %d signed by %q: %d %q, want 16", code, cred.AccessKey, resp.Code, resp.Remark)
			}
		}
	}
	if !g.svcs[0].Node.Config().NotifyBrokerRoleChanged {
		t.Fatal("a refused 1009 changed the config")
	}
	resp := call(t, addr, aclsign.Credentials{}, wire.CodeGetReplicaInfo, map[string]string{"brokerName": "evil"}, nil)
	if resp.Code != controller.CodeBrokerMetadataNotExist { // nothing was applied
		t.Fatalf("1004 of the refused set: %d %q", resp.Code, resp.Remark)
	}
	if resp := call(t, addr, aclsign.Credentials{}, wire.CodeGetMetadataInfo, nil, nil); resp.Code != 0 {
		t.Fatalf("unsigned 1005: %d %q", resp.Code, resp.Remark)
	}

	admin := ctltest.NewBrokerWith(t, "c", "good", g.addrs, remoting.ClientConfig{Sign: aclsign.Signer(testAdmin)})
	admin.Register(t)
	admin.Heartbeat(t, 0, 0, 60000)
	waitFor(t, "the admin broker's heartbeat", func() bool { return g.svcs[0].Node.live.size() == 1 })
	ctltest.MustCode(t, admin.Elect(t), 0)
	if resp := call(t, addr, testAdmin, wire.CodeUpdateControllerConfig, nil, []byte("notifyBrokerRoleChanged=false")); resp.Code != 0 {
		t.Fatalf("admin 1009: %d %q", resp.Code, resp.Remark)
	}
}

// adminWhiteRemoteAddresses refuses operator writes from other addresses,
// with or without ACL, and leaves broker control alone.
func TestAdminWhiteGuardsOperatorWritesWithoutACL(t *testing.T) {
	g := startGroup(t, 1, func(c *config.Config) { c.AdminWhiteRemoteAddresses = "10.1.2.3" })
	addr := g.addrs[g.leader(t)]
	for _, code := range []int32{wire.CodeUpdateControllerConfig, wire.CodeCleanBrokerData} {
		resp := call(t, addr, aclsign.Credentials{}, code, map[string]string{"clusterName": "c", "brokerName": "b"}, nil)
		if resp.Code != remoting.NO_PERMISSION || !strings.Contains(resp.Remark, "not allowed from the address") {
			t.Errorf("code %d: %d %q", code, resp.Code, resp.Remark)
		}
	}
	b := ctltest.NewBroker(t, "c", "b", g.addrs)
	b.Register(t)
}
