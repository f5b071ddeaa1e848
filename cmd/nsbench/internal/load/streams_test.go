package load

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// bodyIdentity is what a registration body tells the server: its data
// version and the fingerprint of everything else.
type bodyIdentity struct {
	version route.DataVersion
	table   uint64
}

func TestRegisterStreamSendsWhatItsModeSays(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 2, TopicsPerCluster: 3, QueueNums: 1})
	regs := NewRegistrations(l)
	clients := []Invoker{nil, nil} // sources never touch the clients
	identityOf := func(body []byte) bodyIdentity {
		dv, table, err := route.RegisterBrokerTableFingerprint(body)
		if err != nil {
			t.Fatal(err)
		}
		return bodyIdentity{dv, table}
	}
	sent := func(mode RegisterMode) []bodyIdentity {
		next := RegisterStream(regs, clients, mode, nil).NewSource(1, rand.New(rand.NewPCG(1, 1)))
		var ids []bodyIdentity
		for range 3 {
			req, _ := next()
			if req.ExtFields["brokerName"] != l.Brokers()[1].Name {
				t.Fatalf("worker 1 must register broker 1, sent %s", req.ExtFields["brokerName"])
			}
			ids = append(ids, identityOf(req.Body))
		}
		return ids
	}
	seeded := identityOf(regs.Request(l.Brokers()[1], FirstVersion).Body)
	for _, id := range sent(RegisterUnchanged) {
		if id != seeded {
			t.Fatalf("unchanged stream must repeat the seeded body: %+v, seeded %+v", id, seeded)
		}
	}
	previous := seeded
	for i, id := range sent(RegisterNewVersion) {
		if id.version == previous.version || id.table != seeded.table {
			t.Fatalf("new-version registration %d: %+v after %+v, want a new version of the same table", i, id, previous)
		}
		previous = id
	}
	previous = seeded
	for i, id := range sent(RegisterChanged) {
		if id.version == previous.version || id.table == previous.table {
			t.Fatalf("changed registration %d: %+v after %+v, want a new version and a new table", i, id, previous)
		}
		previous = id
	}
	if RegisterChanged.Op() == RegisterNewVersion.Op() || RegisterNewVersion.Op() == RegisterUnchanged.Op() {
		t.Fatal("modes share an op name")
	}
}

func TestRouteStreamQueriesEverySeededTopicWithItsClustersCheck(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 3, BrokersPerCluster: 1, TopicsPerCluster: 2, QueueNums: 1})
	stream := RouteStream(l, []*Pipe{nil}, 1)
	set := stream.Requests
	if len(set.Templates) != l.TopicCount() || len(set.Checks) != l.TopicCount() {
		t.Fatalf("%d templates, %d checks for %d topics", len(set.Templates), len(set.Checks), l.TopicCount())
	}
	for i := range l.TopicCount() {
		topic, c := l.Topic(i)
		req, err := remoting.DecodeFrame(set.Templates[i].Append(nil, 7)[4:])
		if err != nil || req.ExtFields["topic"] != topic || req.Code != remoting.GET_ROUTEINFO_BY_TOPIC {
			t.Fatalf("template %d: %+v, %v; want the route query of %s", i, req, err, topic)
		}
		if set.Checks[i] != set.Checks[c*2] {
			t.Fatalf("topics of one cluster must share their answer check")
		}
	}
	if set.Checks[0] == set.Checks[2] {
		t.Fatal("clusters must not share an answer check")
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
