package namesrv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// TestListHandlersDoNotRebuildUnchangedAnswers reproduces the cost of issue
// 13's GET_ALL_TOPIC_LIST flood: with 20,000 topics every list query built
// and encoded every topic again on the event loop (a slice of 20,000 names
// sorted, then some 300 KB of JSON grown in 50 allocations, per query). Now
// the handlers answer the encoded bytes cached since the last change, so a
// query allocates a handful of objects whatever the topic count.
func TestListHandlersDoNotRebuildUnchangedAnswers(t *testing.T) {
	s := startServer(t, nil)
	broker := nstest.BrokerAMaster
	broker.Topics = map[string]int32{}
	for i := range 20000 {
		broker.Topics[fmt.Sprintf("topic-%05d", i)] = 4
	}
	nstest.Register(t, s.client, broker)

	all := s.call(t, remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)
	list, err := route.DecodeTopicList(all.Body)
	if err != nil || len(list.TopicList) != len(broker.Topics) {
		t.Fatalf("all topics: %d of %d, err %v", len(list.TopicList), len(broker.Topics), err)
	}
	handlers := map[string]func() *remoting.Command{
		"all topics": func() *remoting.Command {
			return s.ns.getAllTopicList(nil, remoting.NewRequest(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil))
		},
		"cluster info": func() *remoting.Command {
			return s.ns.getBrokerClusterInfo(nil, remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil))
		},
		"topics by cluster": func() *remoting.Command {
			return s.ns.getTopicsByCluster(nil, remoting.NewRequest(remoting.GET_TOPICS_BY_CLUSTER,
				map[string]string{"cluster": broker.Cluster}, nil))
		},
	}
	for name, handler := range handlers {
		if resp := handler(); resp.Code != remoting.SUCCESS || len(resp.Body) == 0 {
			t.Fatalf("%s answered %d %q", name, resp.Code, resp.Remark)
		}
		if allocs := testing.AllocsPerRun(10, func() { handler() }); allocs > 20 {
			t.Errorf("%s: %.0f allocations a query of unchanged tables, want a handful", name, allocs)
		}
	}
}

// TestTopicListPastTheFrameLimitIsRefusedClearly: with more topics than one
// frame holds, GET_ALL_TOPIC_LIST_FROM_NAMESERVER used to send the frame
// anyway, and every client refused it and dropped the connection (issue 13:
// a 251 MB frame). Now the request is answered code 1 with a remark naming
// the limit, and the connection goes on. A compressed registration brings
// the topics in below the limit.
func TestTopicListPastTheFrameLimitIsRefusedClearly(t *testing.T) {
	const limit = 64 << 10
	s := startServer(t, func(cfg *config.Config) { cfg.MaxFrameSize = limit })
	// Each registration inflates to less than the limit (registration bodies
	// are bounded by it too); their topics together make a list past it.
	for b := range 8 {
		broker := nstest.BrokerAMaster
		broker.Name, broker.Addr = fmt.Sprintf("broker-%d", b), fmt.Sprintf("127.0.0.1:%d", 20911+b)
		broker.Topics = map[string]int32{}
		for i := range 400 {
			broker.Topics[fmt.Sprintf("a-rather-long-topic-name-%d-%05d", b, i)] = 4
		}
		register := broker.RequestWith(mustCompressedBody(t, broker))
		register.SetExt("compressed", "true")
		nstest.MustCode(t, nstest.Invoke(t, s.client, register), remoting.SUCCESS)
	}

	resp := s.call(t, remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)
	nstest.MustCode(t, resp, remoting.SYSTEM_ERROR)
	if !strings.Contains(resp.Remark, "frame limit") || !strings.Contains(resp.Remark, "frameMaxLength") {
		t.Fatalf("remark %q does not name the limit", resp.Remark)
	}
	nstest.MustCode(t, s.call(t, remoting.GET_BROKER_CLUSTER_INFO, nil, nil), remoting.SUCCESS)
}
