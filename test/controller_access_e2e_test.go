package test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// controllerAccounts are the ACL tests' accounts (a user, and an admin
// from 127.0.0.1) without their white-listed address: with them nothing
// unsigned may write to a controller.
var controllerAccounts = strings.Replace(aclTestFile, "globalWhiteRemoteAddresses:\n  - 127.0.0.1\n", "", 1)

// writeControllerAccounts writes controllerAccounts and returns its path.
func writeControllerAccounts(t *testing.T) string {
	t.Helper()
	if strings.Contains(controllerAccounts, "globalWhiteRemoteAddresses") {
		t.Fatal("the accounts still white-list an address")
	}
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(controllerAccounts), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

// controllerWrites are the writes of the finding (a fake set's fields,
// enough for every header), each of which moved a route or the config
// unsigned.
var controllerWrites = []int32{wire.CodeApplyBrokerID, wire.CodeGetNextBrokerID, wire.CodeBrokerHeartbeat,
	wire.CodeUpdateControllerConfig, wire.CodeRegisterBroker, wire.CodeElectMaster, wire.CodeCleanBrokerData,
	wire.CodeAlterSyncStateSet}

var strangerSet = map[string]string{"clusterName": "cluster-a", "brokerName": "stranger", "brokerId": "1",
	"brokerAddress": "6.6.6.6:10911", "brokerAddr": "6.6.6.6:10911", "appliedBrokerId": "1",
	"registerCheckCode": "6.6.6.6:10911;1", "masterBrokerId": "1", "masterEpoch": "1", "designateElect": "true"}

// controllerCall sends one request on a fresh connection with cfg.
func controllerCall(addr string, cfg remoting.ClientConfig, code int32, ext map[string]string, body []byte) (*remoting.Command, error) {
	cfg.RequestTimeout = 10 * time.Second
	c := remoting.NewClient(addr, cfg)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.Invoke(ctx, remoting.NewRequest(code, ext, body))
}

// mustRefuseWrites checks that every write of the finding, unsigned, is
// answered 16 with a remark, and that the stranger's set was not made.
func mustRefuseWrites(t *testing.T, addr string) {
	t.Helper()
	for _, code := range controllerWrites {
		resp, err := controllerCall(addr, remoting.ClientConfig{}, code, strangerSet, []byte("controllerStorePath=/tmp/moved"))
		if err != nil || resp.Code != remoting.NO_PERMISSION || !strings.HasPrefix(resp.Remark, "no permission") {
			t.Errorf("unsigned %d: %v %v, want 16 naming the reason", code, resp, err)
		}
	}
	resp, err := controllerCall(addr, remoting.ClientConfig{}, wire.CodeGetReplicaInfo, map[string]string{"brokerName": "stranger"}, nil)
	if err != nil || resp.Code == remoting.SUCCESS {
		t.Fatalf("the stranger's set exists after the refusals: %v %v", resp, err)
	}
}

// adminBrokerElected registers an admin-signed fake broker, heartbeats it
// and has it elected.
func adminBrokerElected(t *testing.T, ctlAddr, set string, cfg remoting.ClientConfig) {
	t.Helper()
	cfg.Sign = aclsign.Signer(aclAdmin)
	b := ctltest.NewBrokerWith(t, "cluster-a", set, []string{ctlAddr}, cfg)
	b.Register(t)
	b.Heartbeat(t, 0, 0, 60000)
	ctltest.WaitAlive(t, b)
	ctltest.MustCode(t, b.Elect(t), 0)
}

// mustNotAcceptOn checks that nothing listens on port of 127.0.0.2 (Linux
// routes 127/8 to lo: a port bound on every address answers there).
func mustNotAcceptOn(t *testing.T, port string) {
	t.Helper()
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.2", port), 2*time.Second); err == nil {
		c.Close()
		t.Fatalf("port %s accepts on 127.0.0.2 although bindAddress=127.0.0.1", port)
	}
}

// waitControllerLeads waits until the node at addr answers 1005 leading
// (over cfg's connection).
func waitControllerLeads(t *testing.T, addr string, cfg remoting.ClientConfig) {
	t.Helper()
	eventually(t, 30*time.Second, "the controller leads", func() error {
		resp, err := controllerCall(addr, cfg, wire.CodeGetMetadataInfo, nil, nil)
		if err != nil {
			return err
		}
		var md wire.GetMetaDataResponse
		if err := remoting.DecodeHeader(resp, &md); err != nil || !md.IsLeader {
			return fmt.Errorf("1005: %d %+v %v", resp.Code, md, err)
		}
		return nil
	})
}

// Issue 35 item 3, embedded: with the NameServer's aclEnable=true and no
// white-listed address, unsigned writes to the controller's port are
// refused 16 and move nothing; an admin-signed broker registers and is
// elected; an admin's 1009 is served; unsigned reads follow
// aclAnonymousRouteRead (true). The port binds the NameServer's
// bindAddress (127.0.0.1): nothing answers on 127.0.0.2.
func TestControllerEmbeddedUnderTheNameServersACL(t *testing.T) {
	file, ctlAddr := embeddedControllerFile(t)
	startNamesrv(t, "-c", file, "-aclEnable", "-aclFile", writeControllerAccounts(t))
	waitControllerLeads(t, ctlAddr, remoting.ClientConfig{})
	mustRefuseWrites(t, ctlAddr)
	adminBrokerElected(t, ctlAddr, "broker-set-acl", remoting.ClientConfig{})
	resp, err := controllerCall(ctlAddr, remoting.ClientConfig{Sign: aclsign.Signer(aclAdmin)}, wire.CodeUpdateControllerConfig, nil,
		[]byte("notifyBrokerRoleChanged=true"))
	if err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("admin 1009: %v %v", resp, err)
	}
	_, port, _ := net.SplitHostPort(ctlAddr)
	mustNotAcceptOn(t, port)
}

// Issue 35 item 3, embedded: with the NameServer's tls.server.mode=
// enforcing the controller's port closes a plain connection and serves a
// TLS one.
func TestControllerEmbeddedUnderTheNameServersTLS(t *testing.T) {
	file, ctlAddr := embeddedControllerFile(t)
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := os.ReadFile(file)
	conf = append(conf, "tls.server.mode=enforcing\ntls.server.certPath="+certs.ServerCert+"\ntls.server.keyPath="+certs.ServerKey+"\n"...)
	if err := os.WriteFile(file, conf, 0o644); err != nil {
		t.Fatal(err)
	}
	startNamesrv(t, "-c", file)
	tlsCfg := remoting.ClientConfig{TLS: certs.ClientTLS(false)}
	waitControllerLeads(t, ctlAddr, tlsCfg)
	if resp, err := controllerCall(ctlAddr, remoting.ClientConfig{}, wire.CodeGetMetadataInfo, nil, nil); err == nil {
		t.Fatalf("a plain connection to the controller port was answered: %d %q", resp.Code, resp.Remark)
	}
	adminBrokerElected(t, ctlAddr, "broker-set-tls", tlsCfg)
}

// Issue 35 item 3, standalone: cmd/controller takes the same keys. With
// aclEnable and the accounts, unsigned writes are refused 16 and an
// admin-signed broker is elected; with bindAddress=127.0.0.1 neither its
// port nor its side port answers on 127.0.0.2; with tls.server.mode=
// enforcing a plain connection is closed; mqadmin reaches it over TLS and
// signs its operator writes.
func TestControllerStandaloneACLTLSAndBind(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	side := strconv.Itoa(freePort(t))
	g := startControllerGroup(t, 1, "-aclEnable", "-aclFile", writeControllerAccounts(t), "-bindAddress", "127.0.0.1",
		"-httpListenPort", side, "-tls.server.mode", "enforcing", "-tls.server.certPath", certs.ServerCert,
		"-tls.server.keyPath", certs.ServerKey)
	addr := g.addrs[0]
	tlsCfg := remoting.ClientConfig{TLS: certs.ClientTLS(false)}
	waitControllerLeads(t, addr, tlsCfg)
	if resp, err := controllerCall(addr, remoting.ClientConfig{}, wire.CodeGetMetadataInfo, nil, nil); err == nil {
		t.Fatalf("a plain connection to the controller port was answered: %d %q", resp.Code, resp.Remark)
	}
	for _, code := range controllerWrites {
		resp, err := controllerCall(addr, tlsCfg, code, strangerSet, []byte("controllerStorePath=/tmp/moved"))
		if err != nil || resp.Code != remoting.NO_PERMISSION {
			t.Errorf("unsigned %d over TLS: %v %v, want 16", code, resp, err)
		}
	}
	adminBrokerElected(t, addr, "broker-set-standalone", tlsCfg)
	// mqadmin's controller commands take -tls and sign with -ak/-sk.
	if out := mustMqadmin(t, "getControllerMetaData", "-a", addr, "-tls"); !strings.Contains(out, "#ControllerLeaderAddress\t"+addr) {
		t.Fatalf("getControllerMetaData over TLS: %q", out)
	}
	update := []string{"updateControllerConfig", "-a", addr, "-k", "notifyBrokerRoleChanged", "-v", "false", "-tls"}
	if r := mqadmin(t, update...); r.code == 0 || !strings.Contains(r.stderr, "CODE: 16") {
		t.Fatalf("unsigned updateControllerConfig: %d %q %q", r.code, r.stdout, r.stderr)
	}
	mustMqadmin(t, append(update, "-ak", aclAdmin.AccessKey, "-sk", aclAdmin.SecretKey)...)
	if c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", side), 5*time.Second); err != nil {
		t.Fatalf("side port on 127.0.0.1: %v", err)
	} else {
		c.Close()
	}
	_, port, _ := net.SplitHostPort(addr)
	mustNotAcceptOn(t, port)
	mustNotAcceptOn(t, side)
}

// Our cmd/broker in controller mode signs its controller requests with its
// accessKey and secretKey (the 4.x keys of broker.conf), as Java brokers
// sign theirs: under a controller with aclEnable and no white-listed
// address, a broker with the admin's keys gets its id and the master role,
// and the NameServer routes it at id 0.
func TestControllerACLAdmitsOurBrokerSigningWithAdminKeys(t *testing.T) {
	ns := startNamesrv(t)
	ctl := startControllerGroup(t, 1, "-aclEnable", "-aclFile", writeControllerAccounts(t))
	const set = "broker-set-signed"
	conf := append(electionBrokerConf(ctl.addrs, time.Second), "accessKey="+aclAdmin.AccessKey, "secretKey="+aclAdmin.SecretKey)
	a := startBroker(t, brokerSpec{cluster: "cluster-a", name: set, nameServers: []*process{ns}, extra: conf})
	eventually(t, 30*time.Second, "the signed broker routed as master", wantRoute(ns.Addr, set, map[int64]string{0: a.Addr}))
}
