package agent

import (
	"context"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// A role from the controller changes the brokerId of every request and the
// stateVersion of the registered DataVersion, keeping the store's counter.
func TestSetRoleChangesBrokerIDAndStateVersion(t *testing.T) {
	ns := newFakeNameServers()
	topics := newStaticTopics("TopicA")
	a := New(testConfig("ns1:9876"), topics, ns.dial, nil, nil)
	a.role.Store(&Role{BrokerID: 3, StateVersion: 7})
	if _, err := a.RegisterAll(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	reqs := ns.byCode("ns1:9876", remoting.REGISTER_BROKER)
	if len(reqs) != 1 || reqs[0].ExtFields["brokerId"] != "3" {
		t.Fatalf("registrations %v, want one as brokerId 3", reqs)
	}
	body, err := route.DecodeRegisterBrokerBody(reqs[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	want := topics.DataVersion()
	want.StateVersion = 7
	if got := body.TopicConfigSerializeWrapper.DataVersion; got != want {
		t.Fatalf("data version %+v, want %+v", got, want)
	}
	a.role.Store(&Role{BrokerID: 0, StateVersion: 8})
	if got := a.identity().BrokerID; got != 0 {
		t.Fatalf("identity brokerId %d after becoming master", got)
	}
}
