package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestAgentLifecycle(t *testing.T) {
	ns := newFakeNameServers()
	cfg := testConfig("ns1:9876", "ns2:9876")
	cfg.FirstRegisterDelay = time.Hour // only the start-up and triggered rounds run
	a := New(cfg, newStaticTopics("A", "B"), ns.dial, nil, nil)
	a.Start()
	waitFor(t, "start-up registration on both name servers", func() bool {
		return len(ns.byCode("ns1:9876", remoting.REGISTER_BROKER)) == 1 && len(ns.byCode("ns2:9876", remoting.REGISTER_BROKER)) == 1
	})

	changed := route.NewTopicConfig("NewTopic")
	a.TopicsChanged(changed)
	waitFor(t, "incremental registration", func() bool {
		return len(ns.byCode("ns2:9876", remoting.REGISTER_BROKER)) == 2
	})
	body, err := route.DecodeRegisterBrokerBody(ns.byCode("ns2:9876", remoting.REGISTER_BROKER)[1].Body)
	if err != nil {
		t.Fatal(err)
	}
	if table := body.TopicConfigSerializeWrapper.TopicConfigTable; len(table) != 1 || table["NewTopic"].TopicName != "NewTopic" {
		t.Fatalf("incremental registration carried %v, want only NewTopic", table)
	}

	a.SetNameServers([]string{"ns3:9876"})
	waitFor(t, "registration with the new name server", func() bool {
		return len(ns.byCode("ns3:9876", remoting.REGISTER_BROKER)) == 1
	})
	if got := a.NameServers(); len(got) != 1 || got[0] != "ns3:9876" {
		t.Fatalf("NameServers() = %v", got)
	}

	if err := a.Stop(context.Background()); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	unreg := ns.byCode("ns3:9876", remoting.UNREGISTER_BROKER)
	if len(unreg) != 1 || unreg[0].ExtFields["brokerName"] != "broker-a" || unreg[0].ExtFields["brokerId"] != "0" {
		t.Fatalf("unregistration = %+v", unreg)
	}
	if n := len(ns.byCode("ns1:9876", remoting.UNREGISTER_BROKER)); n != 0 {
		t.Fatalf("removed name server got %d unregistrations", n)
	}
}

func TestAgentPeriodicRounds(t *testing.T) {
	ns := newFakeNameServers()
	cfg := testConfig("ns1:9876")
	cfg.FirstRegisterDelay = time.Millisecond
	cfg.RegisterPeriod = time.Millisecond
	a := New(cfg, newStaticTopics("A", "B"), ns.dial, nil, nil)
	a.Start()
	defer a.Stop(context.Background())
	waitFor(t, "several periodic registrations", func() bool {
		return len(ns.byCode("ns1:9876", remoting.REGISTER_BROKER)) >= 3
	})
}

func TestStopReportsUnreachableNameServers(t *testing.T) {
	ns := newFakeNameServers()
	ns.setDown("down:9876", true)
	a := New(testConfig("down:9876"), newStaticTopics("A"), ns.dial, nil, nil)
	err := a.Stop(context.Background())
	if err == nil || !strings.Contains(err.Error(), "down:9876") {
		t.Fatalf("Stop error %v does not name the unreachable name server", err)
	}
	if err := a.Stop(context.Background()); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
}

func TestHeartbeats(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		ns := newFakeNameServers()
		cfg := testConfig("ns1:9876")
		cfg.EnableActingMaster = true
		cfg.CompatibleWithOldNameSrv = compatible
		a := New(cfg, newStaticTopics("A"), ns.dial, nil, nil)
		a.SendHeartbeats(context.Background())
		want := int32(remoting.BROKER_HEARTBEAT)
		if compatible {
			want = remoting.QUERY_DATA_VERSION
		}
		reqs := ns.byCode("ns1:9876", want)
		if len(reqs) != 1 || !reqs[0].IsOneway() {
			t.Fatalf("compatible=%v: got %+v, want one one-way request of code %d", compatible, reqs, want)
		}
		if err := a.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

func TestActingMasterRegistrationAnnouncesTimeout(t *testing.T) {
	cfg := testConfig("ns1:9876")
	cfg.EnableActingMaster = true
	req := registerBrokerRequest(&cfg, []byte("{}"), false)
	if req.ExtFields["heartbeatTimeoutMillis"] != "10000" || req.ExtFields["enableActingMaster"] != "true" {
		t.Fatalf("ext = %v", req.ExtFields)
	}
}

func TestClampRegisterPeriod(t *testing.T) {
	cases := map[time.Duration]time.Duration{
		time.Second: 10 * time.Second, 30 * time.Second: 30 * time.Second, 5 * time.Minute: 60 * time.Second,
	}
	for in, want := range cases {
		if got := ClampRegisterPeriod(in); got != want {
			t.Errorf("ClampRegisterPeriod(%v) = %v, want %v", in, got, want)
		}
	}
}
