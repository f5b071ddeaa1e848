package admin

import (
	"strconv"
	"strings"
	"testing"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestSubscriptionGroupCreateListDelete(t *testing.T) {
	h, groups := newTestGroupHandlers()
	c := subgroup.NewConfig("G1")
	c.RetryMaxTimes = 5
	body, _ := c.Encode()
	if resp := h.UpdateAndCreateSubscriptionGroup(remoting.NewRequest(remoting.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, nil, body)); resp.Code != remoting.SUCCESS {
		t.Fatalf("create: %d %s", resp.Code, resp.Remark)
	}
	resp := h.GetAllSubscriptionGroup(remoting.NewRequest(remoting.GET_ALL_SUBSCRIPTIONGROUP_CONFIG, nil, nil))
	w, err := subgroup.DecodeWrapper(resp.Body)
	if err != nil || resp.Code != remoting.SUCCESS {
		t.Fatalf("get all: %d %v", resp.Code, err)
	}
	if w.Groups["G1"].RetryMaxTimes != 5 || w.DataVersion.Counter != 1 || len(w.Groups) != 9 {
		t.Fatalf("table %+v", w)
	}
	del := remoting.NewRequest(remoting.DELETE_SUBSCRIPTIONGROUP, remoting.EncodeHeader(DeleteSubscriptionGroupRequestHeader{GroupName: "G1"}), nil)
	if resp := h.DeleteSubscriptionGroup(del); resp.Code != remoting.SUCCESS {
		t.Fatalf("delete: %d %s", resp.Code, resp.Remark)
	}
	if _, ok := groups.Get("G1"); ok {
		t.Fatal("G1 still there")
	}
	if resp := h.DeleteSubscriptionGroup(del); resp.Code != remoting.SUCCESS {
		t.Fatalf("deleting a missing group: %d (Java answers success)", resp.Code)
	}
	if resp := h.DeleteSubscriptionGroup(remoting.NewRequest(remoting.DELETE_SUBSCRIPTIONGROUP, nil, nil)); resp.Code == remoting.SUCCESS {
		t.Fatal("delete without groupName succeeded")
	}
}

func TestSubscriptionGroupRefusesUnboundedOrBadInput(t *testing.T) {
	h, _ := newTestGroupHandlers()
	for name, body := range map[string][]byte{
		"too long":     []byte(`{"groupName":"G","x":"` + strings.Repeat("x", subgroup.MaxConfigBytes) + `"}`),
		"not JSON":     []byte(`{"groupName":`),
		"illegal name": []byte(`{"groupName":"a b"}`),
		"attribute":    []byte(`{"groupName":"G","attributes":{"+a":"b"}}`),
	} {
		resp := h.UpdateAndCreateSubscriptionGroup(remoting.NewRequest(remoting.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, nil, body))
		if resp.Code == remoting.SUCCESS {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestSubscriptionGroupLogsAreRateLimited(t *testing.T) {
	logger, hook := logtest.NewNullLogger()
	h, _ := newTestGroupHandlers()
	h.log = logrus.NewEntry(logger)
	for i := range 50 {
		body, _ := subgroup.NewConfig("G" + strconv.Itoa(i)).Encode()
		if resp := h.UpdateAndCreateSubscriptionGroup(remoting.NewRequest(remoting.UPDATE_AND_CREATE_SUBSCRIPTIONGROUP, nil, body)); resp.Code != remoting.SUCCESS {
			t.Fatalf("create %d: %d", i, resp.Code)
		}
	}
	if n := len(hook.AllEntries()); n == 0 || n > 2 {
		t.Fatalf("%d log lines for 50 quick creates, want 1 (the others counted in the next)", n)
	}
}
