package agent

import (
	"context"
	"errors"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestRegisterAllSendsJavaHeaderToEveryNameServer(t *testing.T) {
	ns := newFakeNameServers()
	topics := newStaticTopics("TopicA", "TopicB")
	a := New(testConfig("ns1:9876", "ns2:9876"), topics, ns.dial, nil, nil)
	results, err := a.RegisterAll(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("got %d answers, want 2", len(results))
	}
	for _, addr := range []string{"ns1:9876", "ns2:9876"} {
		reqs := ns.byCode(addr, remoting.REGISTER_BROKER)
		if len(reqs) != 1 {
			t.Fatalf("%s got %d registrations, want 1", addr, len(reqs))
		}
		req := reqs[0]
		wantExt := map[string]string{
			"brokerAddr": "127.0.0.1:10911", "brokerId": "0", "brokerName": "broker-a",
			"clusterName": "DefaultCluster", "haServerAddr": "127.0.0.1:10912",
			"enableActingMaster": "false", "compressed": "false",
			"bodyCrc32": strconv.FormatInt(int64(crc32.ChecksumIEEE(req.Body)&0x7FFFFFFF), 10),
		}
		for k, v := range wantExt {
			if got := req.ExtFields[k]; got != v {
				t.Errorf("%s: ext %s = %q, want %q", addr, k, got, v)
			}
		}
		if _, ok := req.ExtFields["heartbeatTimeoutMillis"]; ok {
			t.Errorf("%s: heartbeatTimeoutMillis sent without acting-master mode", addr)
		}
		if req.Language != remoting.JAVA {
			t.Errorf("%s: language %v, want JAVA", addr, req.Language)
		}
		body, err := route.DecodeRegisterBrokerBody(req.Body)
		if err != nil {
			t.Fatalf("%s: body does not decode: %v", addr, err)
		}
		w := body.TopicConfigSerializeWrapper
		if w.DataVersion != topics.DataVersion() || len(w.TopicConfigTable) != 2 {
			t.Errorf("%s: body = %+v, want the store's 2 topics and version", addr, w)
		}
	}
}

func TestRegisterAllKeepsGoingWhenANameServerIsDown(t *testing.T) {
	ns := newFakeNameServers()
	ns.setDown("down:9876", true)
	a := New(testConfig("up:9876", "down:9876"), newStaticTopics("T1", "T2"), ns.dial, nil, nil)
	results, err := a.RegisterAll(context.Background(), true)
	if err == nil || !strings.Contains(err.Error(), "down:9876") {
		t.Fatalf("error %v does not name the failed name server", err)
	}
	if len(results) != 1 || results[0].NameServer != "up:9876" {
		t.Fatalf("results = %+v, want the answer of up:9876", results)
	}
	ns.setDown("down:9876", false)
	if _, err := a.RegisterAll(context.Background(), true); err != nil {
		t.Fatalf("after the name server came back: %v", err)
	}
	if n := len(ns.byCode("down:9876", remoting.REGISTER_BROKER)); n != 1 {
		t.Fatalf("returned name server got %d registrations, want 1", n)
	}
}

func TestRegisterAllSkipsUnchangedWhenNotForced(t *testing.T) {
	ns := newFakeNameServers()
	cfg := testConfig("ns1:9876")
	cfg.ForceRegister = false
	topics := newStaticTopics("T1", "T2")
	a := New(cfg, topics, ns.dial, nil, nil)
	if _, err := a.RegisterAll(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if n := len(ns.byCode("ns1:9876", remoting.REGISTER_BROKER)); n != 1 {
		t.Fatalf("unknown broker: %d registrations, want 1", n)
	}
	if _, err := a.RegisterAll(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if n := len(ns.byCode("ns1:9876", remoting.REGISTER_BROKER)); n != 1 {
		t.Fatalf("unchanged version: %d registrations, want still 1", n)
	}
	if n := len(ns.byCode("ns1:9876", remoting.QUERY_DATA_VERSION)); n != 2 {
		t.Fatalf("%d QUERY_DATA_VERSION, want 2", n)
	}
	topics.mu.Lock()
	topics.wrapper.DataVersion.Counter++
	topics.mu.Unlock()
	if _, err := a.RegisterAll(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if n := len(ns.byCode("ns1:9876", remoting.REGISTER_BROKER)); n != 2 {
		t.Fatalf("changed version: %d registrations, want 2", n)
	}
}

func TestSplitRegistration(t *testing.T) {
	ns := newFakeNameServers()
	cfg := testConfig("ns1:9876")
	cfg.EnableSplitRegistration = true
	cfg.SplitRegistrationSize = 2
	a := New(cfg, newStaticTopics("A", "B", "C", "D", "E"), ns.dial, nil, nil)
	if _, err := a.RegisterAll(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	reqs := ns.byCode("ns1:9876", remoting.REGISTER_BROKER)
	var seen []string
	for _, req := range reqs {
		body, err := route.DecodeRegisterBrokerBody(req.Body)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(body.TopicConfigSerializeWrapper.TopicConfigTable); n > 2 {
			t.Errorf("chunk of %d topics, want at most 2", n)
		}
		for name := range body.TopicConfigSerializeWrapper.TopicConfigTable {
			seen = append(seen, name)
		}
	}
	slices.Sort(seen)
	if len(reqs) != 3 || !slices.Equal(seen, []string{"A", "B", "C", "D", "E"}) {
		t.Fatalf("%d requests carrying %v, want 3 carrying A..E once each", len(reqs), seen)
	}
}

func TestCompressedRegistration(t *testing.T) {
	ns := newFakeNameServers()
	cfg := testConfig("ns1:9876")
	cfg.CompressedRegister = true
	a := New(cfg, newStaticTopics("A", "B"), ns.dial, nil, nil)
	if _, err := a.RegisterAll(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	req := ns.byCode("ns1:9876", remoting.REGISTER_BROKER)[0]
	if req.ExtFields["compressed"] != "true" || !route.LooksLikeZlib(req.Body) {
		t.Fatalf("compressed=%q, zlib body=%v", req.ExtFields["compressed"], route.LooksLikeZlib(req.Body))
	}
	body, err := route.DecodeCompressedRegisterBrokerBody(req.Body, remoting.CurrentVersion)
	if err != nil || len(body.TopicConfigSerializeWrapper.TopicConfigTable) != 2 {
		t.Fatalf("decoded %+v, %v", body, err)
	}
}

func TestBrokerPermissionMasksTopicPerms(t *testing.T) {
	ns := newFakeNameServers()
	cfg := testConfig("ns1:9876")
	cfg.BrokerPermission = route.PermRead
	a := New(cfg, newStaticTopics("A"), ns.dial, nil, nil)
	if _, err := a.RegisterAll(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	body, _ := route.DecodeRegisterBrokerBody(ns.byCode("ns1:9876", remoting.REGISTER_BROKER)[0].Body)
	if p := body.TopicConfigSerializeWrapper.TopicConfigTable["A"].Perm; p != route.PermRead {
		t.Fatalf("perm = %d, want %d", p, route.PermRead)
	}
}

func TestRegisterReportsMasterAndOrderTopics(t *testing.T) {
	ns := newFakeNameServers()
	ns.answer = func(addr string, req *remoting.Command) *remoting.Command {
		resp := remoting.NewResponse(req, remoting.SUCCESS, "")
		resp.SetExt("masterAddr", "10.0.0.1:10911")
		resp.SetExt("haServerAddr", "10.0.0.1:10912")
		resp.Body = route.EncodeKVTable(nil, &route.KVTable{Table: map[string]string{"TopicO": "broker-a:8"}})
		return resp
	}
	var got []Result
	a := New(testConfig("ns1:9876"), newStaticTopics("A", "B"), ns.dial, func(r Result) { got = append(got, r) }, nil)
	if _, err := a.RegisterAll(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].MasterAddr != "10.0.0.1:10911" || got[0].HAServerAddr != "10.0.0.1:10912" || got[0].OrderTopics["TopicO"] != "broker-a:8" {
		t.Fatalf("onResult got %+v", got)
	}
}

func TestRegisterRefusalIsAnError(t *testing.T) {
	ns := newFakeNameServers()
	ns.answer = func(addr string, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, "register broker failed")
	}
	a := New(testConfig("ns1:9876"), newStaticTopics("A", "B"), ns.dial, nil, nil)
	_, err := a.RegisterAll(context.Background(), true)
	if !errors.Is(err, ErrAgentRefused) || !strings.Contains(err.Error(), "register broker failed") {
		t.Fatalf("err = %v, want ErrAgentRefused with the remark", err)
	}
}

func TestRegisterWithoutNameServers(t *testing.T) {
	a := New(testConfig(), newStaticTopics("A"), newFakeNameServers().dial, nil, nil)
	if _, err := a.RegisterAll(context.Background(), true); !errors.Is(err, ErrAgentNoNameServer) {
		t.Fatalf("err = %v, want ErrAgentNoNameServer", err)
	}
}
