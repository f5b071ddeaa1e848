package test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The accounts of the ACL end-to-end tests: a user, and an admin that may
// only be used from 127.0.0.1. Unsigned brokers are admitted from 127.0.0.1.
const aclTestFile = `
globalWhiteRemoteAddresses:
  - 127.0.0.1
accounts:
  - accessKey: userKey01
    secretKey: userSecret01
    admin: false
  - accessKey: adminKey01
    secretKey: adminSecret01
    whiteRemoteAddress: 127.0.0.1
    admin: true
`

var (
	aclUser  = aclsign.Credentials{AccessKey: "userKey01", SecretKey: "userSecret01"}
	aclAdmin = aclsign.Credentials{AccessKey: "adminKey01", SecretKey: "adminSecret01"}
	// elsewhere is a loopback address no account's list allows (Linux routes
	// all of 127/8 to lo).
	elsewhere = &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}
)

// startACLNamesrv starts a NameServer with aclEnable and the test accounts
// and returns it with the accounts file's path.
func startACLNamesrv(t *testing.T, extra ...string) (*process, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "plain_acl.yml")
	if err := os.WriteFile(file, []byte(aclTestFile), 0o600); err != nil {
		t.Fatal(err)
	}
	ns := startNamesrv(t, append([]string{"-aclEnable", "-aclFile", file}, extra...)...)
	return ns, file
}

// aclClient is one of our clients with the given credentials and source.
func aclClient(t *testing.T, addr string, cred aclsign.Credentials, from net.Addr) *remoting.Client {
	t.Helper()
	c := remoting.NewClient(addr, remoting.ClientConfig{Sign: aclsign.Signer(cred), LocalAddr: from})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// badSigner signs, then spoils the signature.
func badSigner(req *remoting.Command) {
	aclsign.Signer(aclAdmin)(req)
	req.ExtFields[aclsign.Signature] = "AAAA" + req.ExtFields[aclsign.Signature][4:]
}

// nsState is what the admin writes of the test can change.
type nsState struct {
	kv, config string
	perm       int32
	topicFound bool
}

func readState(t *testing.T, addr string) nsState {
	t.Helper()
	c := aclClient(t, addr, aclUser, nil)
	var s nsState
	if resp := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_KV_CONFIG, map[string]string{"namespace": "ORDER_TOPIC_CONFIG", "key": "AclTopic"}, nil)); resp.Code == 0 {
		s.kv = resp.ExtFields["value"]
	}
	resp := nstest.Invoke(t, c, remoting.NewRequest(remoting.GET_NAMESRV_CONFIG, nil, nil))
	nstest.MustCode(t, resp, remoting.SUCCESS)
	props, _ := javaprops.Parse(resp.Body)
	s.config = props["orderMessageEnable"]
	if resp := nstest.RouteQuery(t, c, "AclTopic", remoting.CurrentVersion); resp.Code == 0 {
		s.topicFound = true
		for _, q := range nstest.DecodeRoute(t, resp).QueueDatas {
			s.perm = q.Perm
		}
	}
	return s
}

func TestACLAdminWrites(t *testing.T) {
	ns, _ := startACLNamesrv(t)
	broker := nstest.Broker{Cluster: "AclCluster", Name: "acl-broker", Addr: "127.0.0.1:10911", Topics: map[string]int32{"AclTopic": 4, "AclOther": 4}}
	nstest.Register(t, aclClient(t, ns.Addr, aclsign.Credentials{}, nil), broker) // unsigned, from a white-listed address

	writes := []struct {
		name string
		req  func() *remoting.Command
	}{
		{"PUT_KV_CONFIG", func() *remoting.Command {
			return remoting.NewRequest(remoting.PUT_KV_CONFIG, map[string]string{"namespace": "ORDER_TOPIC_CONFIG", "key": "AclTopic", "value": "acl-broker:4"}, nil)
		}},
		{"UPDATE_NAMESRV_CONFIG", func() *remoting.Command {
			return remoting.NewRequest(remoting.UPDATE_NAMESRV_CONFIG, nil, []byte("orderMessageEnable=true\n"))
		}},
		{"WIPE_WRITE_PERM_OF_BROKER", func() *remoting.Command {
			return remoting.NewRequest(remoting.WIPE_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "acl-broker"}, nil)
		}},
		{"ADD_WRITE_PERM_OF_BROKER", func() *remoting.Command {
			return remoting.NewRequest(remoting.ADD_WRITE_PERM_OF_BROKER, map[string]string{"brokerName": "acl-broker"}, nil)
		}},
		{"DELETE_KV_CONFIG", func() *remoting.Command {
			return remoting.NewRequest(remoting.DELETE_KV_CONFIG, map[string]string{"namespace": "ORDER_TOPIC_CONFIG", "key": "AclTopic"}, nil)
		}},
		{"DELETE_TOPIC_IN_NAMESRV", func() *remoting.Command {
			return remoting.NewRequest(remoting.DELETE_TOPIC_IN_NAMESRV, map[string]string{"topic": "AclTopic"}, nil)
		}},
	}
	refusers := []struct {
		name   string
		client *remoting.Client
		remark string
	}{
		{"unsigned", aclClient(t, ns.Addr, aclsign.Credentials{}, nil), "not signed"},
		{"non-admin", aclClient(t, ns.Addr, aclUser, nil), "not an admin"},
		{"bad signature", remoting.NewClient(ns.Addr, remoting.ClientConfig{Sign: badSigner}), "signature mismatch"},
		{"wrong secret", aclClient(t, ns.Addr, aclsign.Credentials{AccessKey: aclAdmin.AccessKey, SecretKey: "notTheSecret"}, nil), "signature mismatch"},
		{"unknown key", aclClient(t, ns.Addr, aclsign.Credentials{AccessKey: "nobody01", SecretKey: "adminSecret01"}, nil), "unknown AccessKey"},
		{"admin from 127.0.0.2", aclClient(t, ns.Addr, aclAdmin, elsewhere), "not allowed"},
	}
	adminClient := aclClient(t, ns.Addr, aclAdmin, nil)
	for _, w := range writes {
		before := readState(t, ns.Addr)
		for _, r := range refusers {
			resp := nstest.Invoke(t, r.client, w.req())
			if resp.Code != remoting.NO_PERMISSION || !strings.Contains(resp.Remark, r.remark) {
				t.Fatalf("%s by %s: code %d remark %q, want 16 saying %q", w.name, r.name, resp.Code, resp.Remark, r.remark)
			}
			if strings.Contains(resp.Remark, "Secret") {
				t.Fatalf("remark shows a secret: %q", resp.Remark)
			}
			if after := readState(t, ns.Addr); after != before {
				t.Fatalf("%s by %s changed the state: %+v -> %+v", w.name, r.name, before, after)
			}
		}
		nstest.MustCode(t, nstest.Invoke(t, adminClient, w.req()), remoting.SUCCESS)
		if after := readState(t, ns.Addr); after == before {
			t.Fatalf("%s by the admin changed nothing: %+v", w.name, after)
		}
	}
	final := readState(t, ns.Addr)
	if final.topicFound || final.kv != "" || final.config != "true" {
		t.Fatalf("final state %+v: topic deleted, kv deleted, orderMessageEnable=true expected", final)
	}
	if log, _ := os.ReadFile(ns.logPath); strings.Contains(string(log), "Secret01") {
		t.Fatal("the log shows a secret")
	} else if !strings.Contains(string(log), "request refused") || !strings.Contains(string(log), "127.0.0.2") {
		t.Fatal("the log has no denial with its peer address")
	}
}

func TestACLBrokerControl(t *testing.T) {
	ns, _ := startACLNamesrv(t)
	broker := nstest.Broker{Cluster: "AclCluster", Name: "far-broker", Addr: "127.0.0.2:10911", Topics: map[string]int32{"FarTopic": 2, "FarOther": 2}}
	unsignedFar := aclClient(t, ns.Addr, aclsign.Credentials{}, elsewhere)
	resp := nstest.Invoke(t, unsignedFar, broker.RegisterRequest())
	if resp.Code != remoting.NO_PERMISSION || !strings.Contains(resp.Remark, "globalWhiteRemoteAddresses") {
		t.Fatalf("unsigned broker from 127.0.0.2: code %d %q", resp.Code, resp.Remark)
	}
	for _, code := range []int32{remoting.QUERY_DATA_VERSION, remoting.BROKER_HEARTBEAT, remoting.UNREGISTER_BROKER} {
		nstest.MustCode(t, nstest.Invoke(t, unsignedFar, remoting.NewRequest(code, broker.Identity(), nil)), remoting.NO_PERMISSION)
	}
	if _, code, _ := routeOf(ns.Addr, "FarTopic"); code != 17 {
		t.Fatalf("refused registration left a route: code %d", code)
	}
	// A client's account moves no route: whatever it signs, broker control
	// needs an admin account or a white-listed address.
	userFar := aclClient(t, ns.Addr, aclUser, elsewhere)
	topicBody := []byte(`{"queueDatas":[{"brokerName":"far-broker","readQueueNums":1,"writeQueueNums":1,"perm":6,"topicSysFlag":0}]}`)
	for _, req := range []*remoting.Command{broker.RegisterRequest(),
		remoting.NewRequest(remoting.BROKER_HEARTBEAT, broker.Identity(), nil),
		remoting.NewRequest(remoting.UNREGISTER_BROKER, broker.Identity(), nil),
		remoting.NewRequest(remoting.REGISTER_TOPIC_IN_NAMESRV, map[string]string{"topic": "FarTopic"}, topicBody)} {
		resp := nstest.Invoke(t, userFar, req)
		if resp.Code != remoting.NO_PERMISSION || !strings.Contains(resp.Remark, "admin account") {
			t.Fatalf("%s signed by a user account: code %d %q", remoting.RequestCodeName(req.Code), resp.Code, resp.Remark)
		}
	}
	if _, code, _ := routeOf(ns.Addr, "FarTopic"); code != 17 {
		t.Fatalf("a user account's registration left a route: code %d", code)
	}
	admin := aclClient(t, ns.Addr, aclAdmin, nil)
	nstest.Register(t, admin, broker) // signed by the admin account
	if data, code, err := routeOf(ns.Addr, "FarTopic"); err != nil || code != 0 || len(data.QueueDatas) != 1 {
		t.Fatalf("admin-signed registration: code %d err %v", code, err)
	}
	// Nor can the user account take the route over, or remove the broker.
	hijack := broker
	hijack.Addr = "127.0.0.3:10911"
	nstest.MustCode(t, nstest.Invoke(t, userFar, hijack.RegisterRequest()), remoting.NO_PERMISSION)
	nstest.MustCode(t, nstest.Invoke(t, userFar, remoting.NewRequest(remoting.UNREGISTER_BROKER, broker.Identity(), nil)), remoting.NO_PERMISSION)
	if data, code, err := routeOf(ns.Addr, "FarTopic"); err != nil || code != 0 || len(data.BrokerDatas) != 1 ||
		data.BrokerDatas[0].BrokerAddrs[0] != broker.Addr {
		t.Fatalf("after the user account's attempts: code %d err %v route %+v", code, err, data)
	}
	// The same body again, unchanged, is still checked: the event loop's
	// quick answer to unchanged registrations is off while ACL guards them.
	if resp := nstest.Invoke(t, unsignedFar, broker.RegisterRequest()); resp.Code != remoting.NO_PERMISSION {
		t.Fatalf("unsigned unchanged re-registration from 127.0.0.2: code %d %q", resp.Code, resp.Remark)
	}
	// A signed heartbeat in the ROCKETMQ binary header verifies the same.
	heartbeat := remoting.NewRequest(remoting.BROKER_HEARTBEAT, broker.Identity(), nil)
	heartbeat.SerializeType = remoting.ROCKETMQ
	nstest.MustCode(t, nstest.Invoke(t, admin, heartbeat), remoting.SUCCESS)
}

func TestACLReload(t *testing.T) {
	ns, file := startACLNamesrv(t)
	promoted := strings.Replace(aclTestFile, "admin: false", "admin: true", 1)
	put := remoting.NewRequest(remoting.PUT_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k", "value": "v"}, nil)
	user := aclClient(t, ns.Addr, aclUser, nil)
	nstest.MustCode(t, nstest.Invoke(t, user, put), remoting.NO_PERMISSION)
	if err := os.WriteFile(file, []byte(promoted), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the promoted user may write", func() error {
		return codeIs(nstest.Invoke(t, user, put), remoting.SUCCESS)
	})
	if err := os.WriteFile(file, []byte("accounts: [ {accessKey: "), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the broken file is logged", func() error {
		log, _ := os.ReadFile(ns.logPath)
		if !strings.Contains(string(log), "acl accounts file refused") {
			return errString("not logged yet")
		}
		return nil
	})
	nstest.MustCode(t, nstest.Invoke(t, user, put), remoting.SUCCESS) // the accounts in force stayed
}

// TestACLApacheGoClient: the Apache Go client's admin with WithCredentials.
// Its FetchAllTopicList goes out unsigned (the client registers its ACL hook
// for the NameServer client only; a bug of its own), so topic lists need
// aclAnonymousRouteRead, the default. The client caches one client per
// process, so each admin is closed before the next is made.
func TestACLApacheGoClient(t *testing.T) {
	ns, _ := startACLNamesrv(t)
	brokerProc := startBroker(t, brokerSpec{cluster: "DefaultCluster", name: "broker-a", id: 0, nameServers: []*process{ns}})
	rlog.SetLogLevel("error")
	goAdmin := func(cred aclsign.Credentials) admin.Admin {
		adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver([]string{ns.Addr})),
			admin.WithCredentials(primitive.Credentials{AccessKey: cred.AccessKey, SecretKey: cred.SecretKey}))
		if err != nil {
			t.Fatal(err)
		}
		return adm
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	user := goAdmin(aclUser)
	if err := user.CreateTopic(ctx, admin.WithTopicCreate("GoAclTopic"), admin.WithBrokerAddrCreate(brokerProc.Addr)); err != nil {
		t.Fatalf("CreateTopic: %v", err)
	}
	eventually(t, 10*time.Second, "the broker registered the topic", func() error {
		_, err := user.FetchPublishMessageQueues(ctx, "GoAclTopic")
		return err
	})
	list, err := user.FetchAllTopicList(ctx)
	if err != nil || !strings.Contains(strings.Join(list.TopicList, ","), "GoAclTopic") {
		t.Fatalf("FetchAllTopicList: %v %v", list, err)
	}
	// The Go admin deletes on the broker, then on the NameServer, where the
	// user is refused: the route stays.
	_ = user.DeleteTopic(ctx, admin.WithTopicDelete("GoAclTopic"), admin.WithBrokerAddrDelete(brokerProc.Addr),
		admin.WithNameSrvAddr([]string{ns.Addr}))
	_ = user.Close()
	resp := nstest.RouteQuery(t, aclClient(t, ns.Addr, aclUser, nil), "GoAclTopic", remoting.CurrentVersion)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	// (The admin's own requests go out unsigned, the same bug: refused as
	// not signed; signed, they would be refused as not an admin.)
	if log, _ := os.ReadFile(ns.logPath); !strings.Contains(string(log), "class=admin_write") {
		t.Fatalf("the refused DeleteTopic is not in the log")
	}

	wrong := goAdmin(aclsign.Credentials{AccessKey: aclUser.AccessKey, SecretKey: "notTheSecret"})
	defer wrong.Close()
	if _, err := wrong.FetchPublishMessageQueues(ctx, "GoAclTopic"); err == nil {
		t.Fatal("a wrong secret fetched the route")
	}
}

func codeIs(resp *remoting.Command, want int32) error {
	if resp.Code != want {
		return errString("code " + resp.Remark)
	}
	return nil
}

type errString string

func (e errString) Error() string { return string(e) }
