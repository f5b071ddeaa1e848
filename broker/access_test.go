package broker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/broker/replicas"
	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/internal/testlog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// testAccounts: an admin and a plain account, no white-listed address.
const testAccounts = "accounts:\n  - accessKey: adminKey01\n    secretKey: adminSecret01\n    admin: true\n" +
	"  - accessKey: userKey01\n    secretKey: userSecret01\n"

// aclConfig is a broker config with aclEnable and testAccounts.
func aclConfig(t *testing.T) Config {
	t.Helper()
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(testAccounts), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := testBrokerConfig(t, "", 0)
	if err := cfg.Apply(map[string]string{"aclEnable": "true", "aclFile": file}); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// signedClient is a client to b signing with ak/sk (unsigned when empty).
func signedClient(t *testing.T, b *Broker, ak, sk string) *remoting.Client {
	t.Helper()
	c := remoting.NewClient(b.Addr(), remoting.ClientConfig{Logger: testlog.Discard(),
		Sign: aclsign.Signer(aclsign.Credentials{AccessKey: ak, SecretKey: sk})})
	t.Cleanup(func() { c.Close() })
	return c
}

// codesRecorder records the codes registered on it.
type codesRecorder map[int32]bool

func (r codesRecorder) Handle(code int32, _ remoting.Handler, _ ...remoting.HandleOption) {
	r[code] = true
}

// TestEveryCodeHasAClass: every code the broker's port serves, the
// controller mode's included, has its access class in accessClasses, and
// the table names no code the port does not serve.
func TestEveryCodeHasAClass(t *testing.T) {
	cfg := testBrokerConfig(t, "", 0)
	cfg.EnableControllerMode = true
	cfg.Controller.ControllerAddr = "127.0.0.1:1"
	b, err := New(cfg, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Shutdown(context.Background())
	codes := codesRecorder{}
	b.register(codes, subgroup.NewTable(subgroup.NewFile(subgroup.FilePath(t.TempDir())), nil))
	rc := replicas.DefaultConfig(t.TempDir())
	rc.ControllerAddr = "127.0.0.1:1"
	m, err := replicas.New(rc, replicas.Identity{ClusterName: "c", BrokerName: "b", BrokerAddr: "127.0.0.1:10911"}, nil, testlog.Discard())
	if err != nil {
		t.Fatal(err)
	}
	m.Register(codes)
	for code := range codes {
		if _, ok := accessClasses[code]; !ok {
			t.Errorf("code %d (%s) has no access class", code, remoting.RequestCodeName(code))
		}
	}
	for code := range accessClasses {
		if !codes[code] {
			t.Errorf("code %d (%s) has a class but is not served", code, remoting.RequestCodeName(code))
		}
	}
}

// TestACLGuardsTheBrokerPort: with aclEnable a stranger's unsigned
// UPDATE_BROKER_CONFIG and a plain account's are refused 16 naming why and
// change nothing; an admin's is applied; reads need a valid signature of
// any account. With aclEnable=false (Java's default) the unsigned update is
// applied, as before.
func TestACLGuardsTheBrokerPort(t *testing.T) {
	b, _ := startTestBroker(t, aclConfig(t))
	stranger, user, admin := signedClient(t, b, "", ""), signedClient(t, b, "userKey01", "userSecret01"),
		signedClient(t, b, "adminKey01", "adminSecret01")
	forger := signedClient(t, b, "adminKey01", "wrongSecret")
	for _, c := range []struct {
		who    string
		client *remoting.Client
		remark string
	}{{"stranger", stranger, "sign"}, {"forger", forger, "signature"}, {"user", user, "not an admin"}} {
		resp := invoke(t, c.client, remoting.UPDATE_BROKER_CONFIG, "brokerPermission=4\nnamesrvAddr=10.0.0.9:9876\n")
		if resp.Code != remoting.NO_PERMISSION || !strings.Contains(strings.ToLower(resp.Remark), c.remark) {
			t.Errorf("%s's update: %d %q, want 16 naming %q", c.who, resp.Code, resp.Remark, c.remark)
		}
		topic := invoke(t, c.client, remoting.UPDATE_AND_CREATE_TOPIC, "")
		if topic.Code != remoting.NO_PERMISSION {
			t.Errorf("%s's topic write: %d %q", c.who, topic.Code, topic.Remark)
		}
	}
	if resp := invoke(t, stranger, remoting.GET_BROKER_CONFIG, ""); resp.Code != remoting.NO_PERMISSION {
		t.Fatalf("unsigned GET_BROKER_CONFIG: %d %q", resp.Code, resp.Remark)
	}
	props, _ := brokerConfigOf(t, user)
	if props["brokerPermission"] != "6" || props["namesrvAddr"] != "" {
		t.Fatalf("refused updates changed the settings: brokerPermission=%s namesrvAddr=%s", props["brokerPermission"], props["namesrvAddr"])
	}
	if resp := invoke(t, admin, remoting.UPDATE_BROKER_CONFIG, "brokerPermission=4\n"); resp.Code != remoting.SUCCESS {
		t.Fatalf("admin's update: %d %q", resp.Code, resp.Remark)
	}
	if props, _ := brokerConfigOf(t, admin); props["brokerPermission"] != "4" {
		t.Fatalf("admin's update not applied: brokerPermission=%s", props["brokerPermission"])
	}

	_, plain := startTestBroker(t, testBrokerConfig(t, "", 0))
	if resp := invoke(t, plain, remoting.UPDATE_BROKER_CONFIG, "brokerPermission=4\n"); resp.Code != remoting.SUCCESS {
		t.Fatalf("aclEnable=false: unsigned update %d %q", resp.Code, resp.Remark)
	}
	if props, _ := brokerConfigOf(t, plain); props["brokerPermission"] != "4" {
		t.Fatalf("aclEnable=false: update not applied (%s)", props["brokerPermission"])
	}
}

// TestTLSEnforcingBrokerPort: with tls.server.mode=enforcing a plain client
// gets no answer and a TLS client is served.
func TestTLSEnforcingBrokerPort(t *testing.T) {
	certs, err := testcerts.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cfg := testBrokerConfig(t, "", 0)
	if err := cfg.Apply(map[string]string{"tls.server.mode": "enforcing", "tls.server.certPath": certs.ServerCert,
		"tls.server.keyPath": certs.ServerKey}); err != nil {
		t.Fatal(err)
	}
	b, plain := startTestBroker(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if resp, err := plain.Invoke(ctx, remoting.NewRequest(remoting.GET_BROKER_CONFIG, nil, nil)); err == nil {
		t.Fatalf("a plain client was served by an enforcing port: %d", resp.Code)
	}
	tlsCfg, err := remoting.ClientTLS("", "", certs.CACert)
	if err != nil {
		t.Fatal(err)
	}
	secure := remoting.NewClient(b.Addr(), remoting.ClientConfig{TLS: tlsCfg, Logger: testlog.Discard()})
	defer secure.Close()
	if props, _ := brokerConfigOf(t, secure); props["tls.server.mode"] != "enforcing" {
		t.Fatalf("tls.server.mode shown as %q", props["tls.server.mode"])
	}
}

func TestAccessKeysValidated(t *testing.T) {
	for _, props := range []map[string]string{
		{"tls.server.mode": "strict"},
		{"tls.server.need.client.auth": "always"},
		{"tls.server.mode": "enforcing"}, // no certificate
	} {
		cfg := testBrokerConfig(t, "", 0)
		if err := cfg.Apply(props); err != nil {
			t.Fatal(err)
		}
		if err := cfg.Validate(); err == nil {
			t.Errorf("%v accepted", props)
		}
	}
	cfg := testBrokerConfig(t, "", 0)
	cfg.AclEnable, cfg.AclFile = true, filepath.Join(t.TempDir(), "missing.yml")
	if _, err := New(cfg, testlog.Discard()); err == nil || !strings.Contains(err.Error(), "missing.yml") {
		t.Fatalf("aclEnable with a missing aclFile: %v", err)
	}
	cfg = testBrokerConfig(t, "", 0)
	t.Setenv("ROCKETMQ_HOME", "/opt/rmq")
	if got := cfg.ACLFile(); got != "/opt/rmq/conf/plain_acl.yml" {
		t.Fatalf("default aclFile %q, want Java's under ROCKETMQ_HOME", got)
	}
	t.Setenv("ROCKETMQ_HOME", "")
	if got := cfg.ACLFile(); got != filepath.Join(cfg.StorePathRootDir, "config", "plain_acl.yml") {
		t.Fatalf("default aclFile without ROCKETMQ_HOME %q", got)
	}
}

// TestSlaveSignsItsCopyFromAnACLMaster: a slave with accessKey and
// secretKey copies the topics of a master with aclEnable (its
// GET_ALL_TOPIC_CONFIG is a signed read).
func TestSlaveSignsItsCopyFromAnACLMaster(t *testing.T) {
	ns := startFakeNameServer(t)
	masterCfg := aclConfig(t)
	masterCfg.NamesrvAddr = ns.srv.Addr().String()
	master, _ := startTestBroker(t, masterCfg)
	slaveCfg := testBrokerConfig(t, masterCfg.NamesrvAddr, 1)
	slaveCfg.AccessKey, slaveCfg.SecretKey = "userKey01", "userSecret01"
	slave, _ := startTestBroker(t, slaveCfg)
	waitFor(t, "slave learns its master", func() bool { return slave.MasterAddr() == master.Addr() })
	attrs := ""
	header := admin.CreateTopicRequestHeader{Topic: "orders", DefaultTopic: "TBW102", ReadQueueNums: 3, WriteQueueNums: 3, Perm: 6,
		TopicFilterType: "SINGLE_TAG", Attributes: &attrs}
	resp, err := signedClient(t, master, "adminKey01", "adminSecret01").Invoke(context.Background(),
		remoting.NewRequest(remoting.UPDATE_AND_CREATE_TOPIC, remoting.EncodeHeader(header), nil))
	if err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("admin's topic: %v %+v", err, resp)
	}
	waitFor(t, "slave copies the topic", func() bool {
		tc, ok := slave.Store().Get("orders")
		return ok && tc.WriteQueueNums == 3
	})
}
