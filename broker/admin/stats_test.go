package admin

import (
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestTopicStatsAreZeroRowsPerQueue(t *testing.T) {
	h, _ := newTestGroupHandlers()
	resp := h.GetTopicStatsInfo(remoting.NewRequest(remoting.GET_TOPIC_STATS_INFO, map[string]string{"topic": "T"}, nil))
	if resp.Code != remoting.SUCCESS {
		t.Fatalf("stats: %d %s", resp.Code, resp.Remark)
	}
	table, err := DecodeTopicStatsTable(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(table.OffsetTable) != 6 {
		t.Fatalf("%d rows, want 6 (max of read 4 and write 6)", len(table.OffsetTable))
	}
	if off, ok := table.OffsetTable[MessageQueue{Topic: "T", BrokerName: "broker-a", QueueID: 5}]; !ok || off != (TopicOffset{}) {
		t.Fatalf("queue 5: %+v %v", off, ok)
	}
	resp = h.GetTopicStatsInfo(remoting.NewRequest(remoting.GET_TOPIC_STATS_INFO, map[string]string{"topic": "nope"}, nil))
	if resp.Code != remoting.TOPIC_NOT_EXIST || resp.Remark != "topic[nope] not exist" {
		t.Fatalf("unknown topic: %d %q", resp.Code, resp.Remark)
	}
}

func TestConsumeStatsRowsForNamedTopicsOnly(t *testing.T) {
	h, _ := newTestGroupHandlers()
	ask := func(ext map[string]string) ConsumeStats {
		t.Helper()
		resp := h.GetConsumeStats(remoting.NewRequest(remoting.GET_CONSUME_STATS, ext, nil))
		if resp.Code != remoting.SUCCESS {
			t.Fatalf("consume stats %v: %d %s", ext, resp.Code, resp.Remark)
		}
		stats, err := DecodeConsumeStats(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return stats
	}
	if got := ask(map[string]string{"consumerGroup": "G", "topic": "T"}); len(got.OffsetTable) != 4 {
		t.Fatalf("topic T: %d rows, want its 4 read queues", len(got.OffsetTable))
	}
	if got := ask(map[string]string{"consumerGroup": "G"}); len(got.OffsetTable) != 0 {
		t.Fatalf("no topic: %d rows", len(got.OffsetTable))
	}
	if got := ask(map[string]string{"consumerGroup": "G", "topic": "x", "topicList": "T;missing"}); len(got.OffsetTable) != 4 {
		t.Fatalf("topicList: %d rows", len(got.OffsetTable))
	}
}

func TestSystemTopicListFromBroker(t *testing.T) {
	h, _ := newTestGroupHandlers()
	resp := h.GetSystemTopicList(remoting.NewRequest(remoting.GET_SYSTEM_TOPIC_LIST_FROM_BROKER, nil, nil))
	list, err := route.DecodeTopicList(resp.Body)
	if err != nil || len(list.TopicList) == 0 {
		t.Fatalf("%v %v", list, err)
	}
}
