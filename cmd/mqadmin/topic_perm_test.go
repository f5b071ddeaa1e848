package main

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gonamesrv/gonamesrv/route"
)

func TestUpdateTopicPermOnBrokerChecksTheRoute(t *testing.T) {
	data := &route.TopicRouteData{
		BrokerDatas: []route.BrokerData{{BrokerName: "a", BrokerAddrs: map[int64]string{0: "m:1", 1: "s:1"}}},
		QueueDatas:  []route.QueueData{{BrokerName: "a", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
	}
	var out bytes.Buffer
	e := &env{out: &out}
	tc := route.NewTopicConfig("T")
	tc.Perm = 6
	if err := updateTopicPermOnBroker(e, data, tc, "s:1"); !errors.Is(err, errNotMasterOfTopic) {
		t.Errorf("a slave's address: %v", err)
	}
	if err := updateTopicPermOnBroker(e, data, tc, "m:1"); err != nil || out.String() != "new perm equals to the old one!\n" {
		t.Errorf("same perm: %v %q", err, out.String())
	}
}
