package load

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestRegisterStreamAlternatesVersionsOnlyWhenChanged(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 2, TopicsPerCluster: 3, QueueNums: 1})
	regs := NewRegistrations(l)
	clients := []Invoker{nil, nil} // sources never touch the clients
	versions := func(changed bool) []string {
		next := RegisterStream(regs, clients, changed, nil).NewSource(1, rand.New(rand.NewPCG(1, 1)))
		var crcs []string
		for range 3 {
			req, _ := next()
			if req.ExtFields["brokerName"] != l.Brokers()[1].Name {
				t.Fatalf("worker 1 must register broker 1, sent %s", req.ExtFields["brokerName"])
			}
			crcs = append(crcs, req.ExtFields["bodyCrc32"])
		}
		return crcs
	}
	first := regs.Request(l.Brokers()[1], FirstVersion).ExtFields["bodyCrc32"]
	if got := versions(false); got[0] != first || got[1] != first || got[2] != first {
		t.Fatalf("unchanged stream must repeat the seeded body: %v", got)
	}
	if got := versions(true); got[0] == first || got[1] != first || got[2] == first {
		t.Fatalf("changed stream must differ from the previous body every time: %v (seeded %s)", got, first)
	}
}

func TestRouteStreamQueriesSeededTopicsWithTheirCheck(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 3, BrokersPerCluster: 1, TopicsPerCluster: 2, QueueNums: 1})
	next := RouteStream(l, []Invoker{nil}, 1).NewSource(0, rand.New(rand.NewPCG(2, 2)))
	known := map[string]bool{}
	for i := range l.TopicCount() {
		topic, _ := l.Topic(i)
		known[topic] = true
	}
	for range 20 {
		req, check := next()
		if !known[req.ExtFields["topic"]] || check == nil {
			t.Fatalf("query for %q", req.ExtFields["topic"])
		}
	}
}

func TestUniformPauseStaysBelowItsLimit(t *testing.T) {
	pause := UniformPause(100 * time.Millisecond)
	rng := rand.New(rand.NewPCG(3, 3))
	for range 1000 {
		if d := pause(rng); d < 0 || d >= 100*time.Millisecond {
			t.Fatalf("pause %v out of [0, 100ms)", d)
		}
	}
}
