package admin

import (
	"strconv"
	"sync"
	"testing"

	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

type recordingNotifier struct {
	mu      sync.Mutex
	changed []route.TopicConfig
}

func (n *recordingNotifier) TopicsChanged(configs ...route.TopicConfig) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.changed = append(n.changed, configs...)
}

func newTestHandlers() (*Handlers, *topicconfig.Store, *recordingNotifier) {
	store := topicconfig.NewStore(nil, topicconfig.SystemTopics(topicconfig.DefaultSystemTopicOptions("DefaultCluster", "broker-a")), nil)
	notifier := &recordingNotifier{}
	return New(store, notifier, func() map[string]string { return map[string]string{"brokerVersionDesc": "V5_3_3"} }, nil), store, notifier
}

func createTopicRequest(topic string, queues int32, attributes string) *remoting.Command {
	header := CreateTopicRequestHeader{
		Topic: topic, DefaultTopic: "TBW102", ReadQueueNums: queues, WriteQueueNums: queues,
		Perm: 6, TopicFilterType: "SINGLE_TAG", Attributes: &attributes,
	}
	return remoting.NewRequest(remoting.UPDATE_AND_CREATE_TOPIC, remoting.EncodeHeader(header), nil)
}

func TestUpdateAndCreateTopic(t *testing.T) {
	h, store, notifier := newTestHandlers()
	resp := h.UpdateAndCreateTopic(createTopicRequest("orders", 4, "+message.type=FIFO"))
	if resp.Code != remoting.SUCCESS {
		t.Fatalf("create: code %d remark %q", resp.Code, resp.Remark)
	}
	tc, ok := store.Get("orders")
	if !ok || tc.ReadQueueNums != 4 || tc.WriteQueueNums != 4 || tc.Perm != 6 || tc.Attributes["message.type"] != "FIFO" {
		t.Fatalf("stored %+v, %v", tc, ok)
	}
	if len(notifier.changed) != 1 || notifier.changed[0].TopicName != "orders" {
		t.Fatalf("notified %+v, want orders once", notifier.changed)
	}
	version := store.DataVersion()
	resp = h.UpdateAndCreateTopic(createTopicRequest("orders", 4, ""))
	if resp.Code != remoting.SUCCESS || store.DataVersion() != version || len(notifier.changed) != 1 {
		t.Fatalf("identical update: code %d, version %+v -> %+v, notified %d times", resp.Code, version, store.DataVersion(), len(notifier.changed))
	}
	resp = h.UpdateAndCreateTopic(createTopicRequest("orders", 8, ""))
	if resp.Code != remoting.SUCCESS || len(notifier.changed) != 2 {
		t.Fatalf("queue change: code %d, notified %d times", resp.Code, len(notifier.changed))
	}
}

func TestUpdateAndCreateTopicRefusals(t *testing.T) {
	h, _, notifier := newTestHandlers()
	cases := []struct {
		name   string
		req    *remoting.Command
		code   int32
		remark string
	}{
		{"illegal name", createTopicRequest("a b", 4, ""), remoting.INVALID_PARAMETER,
			"The specified topic: a b, contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$"},
		{"system topic", createTopicRequest("TBW102", 4, ""), remoting.INVALID_PARAMETER, "The topic[TBW102] is conflict with system topic."},
		{"mixed type", createTopicRequest("m", 4, "+message.type=MIXED"), remoting.INVALID_PARAMETER, "MIXED message type is not supported."},
		{"unknown attribute", createTopicRequest("u", 4, "+nope=1"), remoting.SYSTEM_ERROR, "unsupported key: nope"},
		{"missing header", remoting.NewRequest(remoting.UPDATE_AND_CREATE_TOPIC, map[string]string{"topic": "x"}, nil),
			remoting.SYSTEM_ERROR, "the custom field <defaultTopic> is null"},
	}
	for _, tc := range cases {
		resp := h.UpdateAndCreateTopic(tc.req)
		if resp.Code != tc.code || resp.Remark != tc.remark {
			t.Errorf("%s: code %d remark %q, want %d %q", tc.name, resp.Code, resp.Remark, tc.code, tc.remark)
		}
	}
	if len(notifier.changed) != 0 {
		t.Errorf("refused requests notified %+v", notifier.changed)
	}
}

func TestDeleteTopicInBroker(t *testing.T) {
	h, store, _ := newTestHandlers()
	h.UpdateAndCreateTopic(createTopicRequest("gone", 2, ""))
	del := func(topic string) *remoting.Command {
		return h.DeleteTopicInBroker(remoting.NewRequest(remoting.DELETE_TOPIC_IN_BROKER, map[string]string{"topic": topic}, nil))
	}
	if resp := del("gone"); resp.Code != remoting.SUCCESS {
		t.Fatalf("delete: %d %q", resp.Code, resp.Remark)
	}
	if _, ok := store.Get("gone"); ok {
		t.Fatal("topic still stored")
	}
	if resp := del("SCHEDULE_TOPIC_XXXX"); resp.Code != remoting.INVALID_PARAMETER {
		t.Fatalf("delete system topic: code %d", resp.Code)
	}
	if resp := del(""); resp.Code != remoting.INVALID_PARAMETER || resp.Remark != "The specified topic is blank." {
		t.Fatalf("delete blank: %d %q", resp.Code, resp.Remark)
	}
}

func TestGetAllTopicConfig(t *testing.T) {
	h, store, _ := newTestHandlers()
	h.UpdateAndCreateTopic(createTopicRequest("T1", 3, ""))
	resp := h.GetAllTopicConfig(remoting.NewRequest(remoting.GET_ALL_TOPIC_CONFIG, nil, nil))
	if resp.Code != remoting.SUCCESS {
		t.Fatalf("code %d", resp.Code)
	}
	if resp.ExtFields["totalTopicNum"] != strconv.Itoa(store.Len()) {
		t.Errorf("totalTopicNum = %q, want %d", resp.ExtFields["totalTopicNum"], store.Len())
	}
	got, err := route.DecodeTopicConfigSerializeWrapper(resp.Body)
	if err != nil {
		t.Fatalf("body %s does not decode: %v", resp.Body, err)
	}
	if got.DataVersion != store.DataVersion() || len(got.TopicConfigTable) != store.Len() || got.TopicConfigTable["T1"].ReadQueueNums != 3 {
		t.Fatalf("decoded %+v", got)
	}
}

func TestGetBrokerRuntimeInfo(t *testing.T) {
	h, _, _ := newTestHandlers()
	resp := h.GetBrokerRuntimeInfo(remoting.NewRequest(remoting.GET_BROKER_RUNTIME_INFO, nil, nil))
	table, err := route.DecodeKVTable(resp.Body)
	if err != nil || table.Table["brokerVersionDesc"] != "V5_3_3" {
		t.Fatalf("runtime info %s: %+v, %v", resp.Body, table, err)
	}
}
