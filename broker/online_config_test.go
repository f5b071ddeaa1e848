package broker

import (
	"context"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// startTestBroker starts a broker of cfg and a client to its admin port.
func startTestBroker(t *testing.T, cfg Config) (*Broker, *remoting.Client) {
	t.Helper()
	b, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Shutdown(context.Background()) })
	client := remoting.NewClient(b.Addr(), remoting.ClientConfig{})
	t.Cleanup(func() { client.Close() })
	return b, client
}

func invoke(t *testing.T, c *remoting.Client, code int32, body string) *remoting.Command {
	t.Helper()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	resp, err := c.Invoke(context.Background(), remoting.NewRequest(code, nil, b))
	if err != nil {
		t.Fatalf("request %d: %v", code, err)
	}
	return resp
}

func brokerConfigOf(t *testing.T, c *remoting.Client) (map[string]string, route.DataVersion) {
	t.Helper()
	resp := invoke(t, c, remoting.GET_BROKER_CONFIG, "")
	if resp.Code != remoting.SUCCESS {
		t.Fatalf("GET_BROKER_CONFIG: %d %q", resp.Code, resp.Remark)
	}
	props, err := javaprops.Parse(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	version, err := route.DecodeDataVersion([]byte(resp.ExtFields["version"]))
	if err != nil {
		t.Fatalf("version header %q: %v", resp.ExtFields["version"], err)
	}
	return props, version
}

func TestGetBrokerConfigAnswersTheSettingsWithoutSecrets(t *testing.T) {
	ns := startFakeNameServer(t)
	cfg := testBrokerConfig(t, ns.srv.Addr().String(), 0)
	cfg.AccessKey, cfg.SecretKey = "ak", "never-shown"
	_, client := startTestBroker(t, cfg)
	props, _ := brokerConfigOf(t, client)
	if props["brokerName"] != "broker-a" || props["brokerClusterName"] != "DefaultCluster" || props["brokerPermission"] != "6" || props["accessKey"] != "ak" {
		t.Fatalf("config %v", props)
	}
	if _, ok := props["secretKey"]; ok {
		t.Fatal("secretKey answered")
	}
}

func TestUpdateBrokerConfigAppliesOnlineKeys(t *testing.T) {
	ns := startFakeNameServer(t)
	b, client := startTestBroker(t, testBrokerConfig(t, ns.srv.Addr().String(), 0))
	waitFor(t, "registration", func() bool { return ns.topicsOf(b.Addr())["TBW102"].TopicName == "TBW102" })
	_, before := brokerConfigOf(t, client)
	topicsVersion := b.Store().DataVersion()

	if resp := invoke(t, client, remoting.UPDATE_BROKER_CONFIG, "brokerPermission=4\n"); resp.Code != remoting.SUCCESS {
		t.Fatalf("update: %d %q", resp.Code, resp.Remark)
	}
	props, after := brokerConfigOf(t, client)
	if props["brokerPermission"] != "4" || after.Counter != before.Counter+1 {
		t.Fatalf("after update: brokerPermission=%s, version %+v -> %+v", props["brokerPermission"], before, after)
	}
	if b.Store().DataVersion().Counter != topicsVersion.Counter+1 {
		t.Fatalf("topic table version %+v, want it bumped from %+v so the NameServers take the perm", b.Store().DataVersion(), topicsVersion)
	}
	waitFor(t, "topics registered read-only", func() bool { return ns.topicsOf(b.Addr())["TBW102"].Perm == route.PermRead })

	// A second NameServer list takes effect without a restart.
	other := startFakeNameServer(t)
	list := ns.srv.Addr().String() + ";" + other.srv.Addr().String()
	if resp := invoke(t, client, remoting.UPDATE_BROKER_CONFIG, "namesrvAddr="+list+"\n"); resp.Code != remoting.SUCCESS {
		t.Fatalf("update namesrvAddr: %d %q", resp.Code, resp.Remark)
	}
	waitFor(t, "registration with the added NameServer", func() bool { return other.topicsOf(b.Addr())["TBW102"].TopicName == "TBW102" })
}

func TestUpdateBrokerConfigRefusesWholeRequests(t *testing.T) {
	ns := startFakeNameServer(t)
	_, client := startTestBroker(t, testBrokerConfig(t, ns.srv.Addr().String(), 0))
	cases := []struct {
		body   string
		code   int32
		remark string
	}{
		{"brokerPermision=4\n", remoting.SYSTEM_ERROR, "unknown key brokerPermision (closest known key: brokerPermission)"},
		{"brokerPermission=2\nlistenPort=1\n", remoting.SYSTEM_ERROR, "listenPort applies only at start"},
		{"brokerPermission=abc\n", remoting.SYSTEM_ERROR, `brokerPermission="abc"`},
		{"brokerPermission=5\n", remoting.SYSTEM_ERROR, "must be 2 (write), 4 (read) or 6"},
		{"namesrvAddr=nohostport\n", remoting.SYSTEM_ERROR, `"nohostport" is not host:port`},
		{"secretKey=x\n", remoting.SYSTEM_ERROR, "secretKey applies only at start"},
		{"configBlackList=\n", remoting.NO_PERMISSION, "Can not update config in black list."},
		{strings.Repeat("#", admin.MaxUpdateConfigBody+1), remoting.SYSTEM_ERROR, "over the 65536-byte limit"},
	}
	_, before := brokerConfigOf(t, client)
	for _, tc := range cases {
		resp := invoke(t, client, remoting.UPDATE_BROKER_CONFIG, tc.body)
		if resp.Code != tc.code || !strings.Contains(resp.Remark, tc.remark) {
			t.Errorf("%.40q: %d %q, want %d with %q", tc.body, resp.Code, resp.Remark, tc.code, tc.remark)
		}
	}
	props, after := brokerConfigOf(t, client)
	if props["brokerPermission"] != "6" || after != before {
		t.Fatalf("refused updates changed something: brokerPermission=%s, version %+v -> %+v", props["brokerPermission"], before, after)
	}
}
