package agent

import (
	"context"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestSetBrokerPermissionMasksTheNextRegistration(t *testing.T) {
	ns := newFakeNameServers()
	a := New(testConfig("ns1:9876"), newStaticTopics("A"), ns.dial, nil, nil)
	a.SetBrokerPermission(route.PermRead)
	if _, err := a.RegisterAll(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	body, _ := route.DecodeRegisterBrokerBody(ns.byCode("ns1:9876", remoting.REGISTER_BROKER)[0].Body)
	if p := body.TopicConfigSerializeWrapper.TopicConfigTable["A"].Perm; p != route.PermRead {
		t.Fatalf("perm = %d after SetBrokerPermission(%d)", p, route.PermRead)
	}
}
