package node

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/ctltest"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/namesrv"
	nsconfig "github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	nsroute "github.com/gonamesrv/gonamesrv/route"
)

// startNamesrv runs our NameServer in process on a free loopback port,
// its config changed by tweak when given.
func startNamesrv(t *testing.T, tweak func(*nsconfig.Config)) string {
	t.Helper()
	cfg := nsconfig.Default()
	cfg.BindAddress, cfg.ListenPort, cfg.HTTPListenPort = "127.0.0.1", 0, -1
	cfg.KvConfigPath, cfg.ConfigStorePath = t.TempDir()+"/kv.json", t.TempDir()+"/namesrv.properties"
	cfg.ControllerAddr = "127.0.0.1:9878" // the notices come from this host
	if tweak != nil {
		tweak(cfg)
	}
	log := testlog.Warnings()
	ns, err := namesrv.New(nsconfig.NewSettings(cfg, log), log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ns.Shutdown(context.Background()) })
	return ns.Addr().String()
}

// electionMovesRoute registers a set of two brokers at g and, through c,
// at the NameServer; the master's connection to g closes, b2 is elected,
// and it waits until the NameServer's route (read through c) has b2 at id
// 0, which only the leader's notice puts there (no broker registers again).
func electionMovesRoute(t *testing.T, g *group, c *remoting.Client, set string) {
	t.Helper()
	g.leader(t)
	bs := registeredSet(t, g, set, []int32{0, 0}, []int64{100, 100})
	b1, b2 := bs[0], bs[1]
	alter := b1.Call(t, wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: b1.Name, MasterBrokerID: 1, MasterEpoch: 1},
		(&wire.SyncStateSet{SyncStateSet: []int64{1, 2}, SyncStateSetEpoch: 1}).Encode())
	ctltest.MustCode(t, alter, 0)

	// The set as the NameServer has it from the brokers' registrations.
	for _, b := range []nstest.Broker{
		{Cluster: "cluster-a", Name: set, Addr: b1.Addr, HAAddr: b1.Addr, ID: 0, Topics: map[string]int32{"T": 4, "U": 4},
			Version: nsroute.DataVersion{Counter: 1, StateVersion: 1}},
		{Cluster: "cluster-a", Name: set, Addr: b2.Addr, HAAddr: b2.Addr, ID: 2, Topics: map[string]int32{"T": 4, "U": 4},
			Version: nsroute.DataVersion{Counter: 1, StateVersion: 1}},
	} {
		nstest.Register(t, c, b)
	}
	b1.Close() // the master's connection closes: b2 is elected
	waitFor(t, "b2 at id 0 in the NameServer's route", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		resp, err := c.Invoke(ctx, remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T"}, nil))
		if err != nil || resp.Code != 0 {
			return false
		}
		data, err := nsroute.DecodeTopicRouteData(resp.Body)
		return err == nil && len(data.BrokerDatas) == 1 &&
			fmt.Sprint(data.BrokerDatas[0].BrokerAddrs) == fmt.Sprint(map[int64]string{0: b2.Addr})
	})
}

// The leader tells each NameServer of namesrvAddr of every election: ours
// moves the elected slave to id 0 at once; a server that does not know the
// code (a Java NameServer answers REQUEST_CODE_NOT_SUPPORTED, as this bare
// remoting server does) is counted unsupported, and nothing else happens.
func TestLeaderTellsTheNameServersOfEachElection(t *testing.T) {
	nsAddr := startNamesrv(t, nil)
	unknowing := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0", Logger: testlog.Discard()})
	if err := unknowing.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = unknowing.Shutdown(context.Background()) })
	g := startGroup(t, 1, func(c *config.Config) { c.NamesrvAddr = nsAddr + "; " + unknowing.Addr().String() + ";" })
	electionMovesRoute(t, g, nstest.NewClient(t, nsAddr), "broker-set-n")
	m := g.svcs[0].Node.Metrics().namesrvNotices
	// At least the first election and b2's reached both (a quick run of
	// elections of one set may coalesce into its newest).
	waitFor(t, "notices sent to ours and refused as unsupported by the other", func() bool {
		return testutil.ToFloat64(m.WithLabelValues(noticeSent)) >= 2 && testutil.ToFloat64(m.WithLabelValues(noticeUnsupported)) >= 2
	})
	if failed := testutil.ToFloat64(m.WithLabelValues(noticeFailed)); failed != 0 {
		t.Fatalf("%v notices failed", failed)
	}
}

// A NameServer with aclEnable=true (testAccounts: no white-listed address) and
// tls.server.mode=enforcing follows the leader's notices when the
// controller signs them with innerClientAuthenticationCredentials (Java
// 5.3's key) and sends them over TLS (useTLS): unsigned or plain, the
// NameServer refuses them and the route never moves.
func TestNoticesAreSignedAndSentOverTLS(t *testing.T) {
	dir := t.TempDir()
	certs, err := testcerts.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	accounts := filepath.Join(dir, "plain_acl.yml")
	if err := os.WriteFile(accounts, []byte(testAccounts), 0o600); err != nil {
		t.Fatal(err)
	}
	nsAddr := startNamesrv(t, func(c *nsconfig.Config) {
		c.AclEnable, c.AclFile = true, accounts
		c.TLSServerMode, c.TLSServerCertPath, c.TLSServerKeyPath = nsconfig.TLSModeEnforcing, certs.ServerCert, certs.ServerKey
	})
	g := startGroup(t, 1, func(c *config.Config) {
		c.NamesrvAddr = nsAddr
		c.InnerClientCredentials = `{"accessKey":"adminKey01","secretKey":"adminSecret01"}`
		c.UseTLS, c.TLSClientTrustCertPath = true, certs.CACert
	})
	ns := remoting.NewClient(nsAddr, remoting.ClientConfig{Sign: aclsign.Signer(testAdmin), TLS: certs.ClientTLS(false)})
	t.Cleanup(func() { _ = ns.Close() })
	electionMovesRoute(t, g, ns, "broker-set-s")
	if failed := testutil.ToFloat64(g.svcs[0].Node.Metrics().namesrvNotices.WithLabelValues(noticeFailed)); failed != 0 {
		t.Fatalf("%v notices failed", failed)
	}
}
