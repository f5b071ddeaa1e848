package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// attachRoutes attaches a source over a route manager holding brokers,
// and the peer statuses given.
func attachRoutes(t *testing.T, s *Server, statuses []peers.Status, brokers ...nstest.Broker) {
	t.Helper()
	m := route.NewManager(route.Config{})
	for i, b := range brokers {
		req := &route.RegisterBrokerRequest{ClusterName: b.Cluster, BrokerAddr: b.Addr, BrokerName: b.Name, BrokerID: b.ID,
			Body:               &route.RegisterBrokerBody{TopicConfigSerializeWrapper: b.Wrapper(), FilterServerList: []string{}},
			FilterServersGiven: true, Conn: route.ConnID(i + 1), Version: remoting.CurrentVersion}
		if _, _, err := m.RegisterBroker(req, time.Now()); err != nil {
			t.Fatalf("register %s: %v", b.Addr, err)
		}
	}
	s.Attach(&Source{Routes: m, Metrics: metrics.New(metrics.Sources{Counts: m.Counts}, nil, time.Now()),
		Ready: func() (bool, string) { return true, "" }, RemoteOf: func(route.ConnID) string { return "" },
		Peers: func() []peers.Status { return statuses }, Started: time.Now(), Addr: "127.0.0.1:9876"})
}

func getInto(t *testing.T, s *Server, path string, into any) {
	t.Helper()
	status, body := get(t, s, path)
	if status != http.StatusOK {
		t.Fatalf("%s: %d %s", path, status, body)
	}
	if err := json.Unmarshal([]byte(body), into); err != nil {
		t.Fatalf("%s: %v in %s", path, err, body)
	}
}

// TestTopicsAndBrokersSortOnTheServer: /v1/topics and /v1/brokers sort the
// whole list before paging, either way, leave out system topics with
// system=false, count broker names, name the version as mqadmin does,
// and refuse an unknown column or order.
func TestTopicsAndBrokersSortOnTheServer(t *testing.T) {
	s := startSidePort(t)
	var brokers []nstest.Broker
	for i := range 3 {
		b := nstest.Broker{Cluster: "C", Name: fmt.Sprintf("broker-%d", i), Addr: fmt.Sprintf("10.0.0.%d:10911", 3-i),
			Topics: map[string]int32{"Shared": 2, "TBW102": 8, "C": 1}}
		for j := range i + 1 {
			b.Topics[fmt.Sprintf("Own%d-%d", i, j)] = int32(4 * (j + 1))
		}
		brokers = append(brokers, b)
	}
	attachRoutes(t, s, nil, brokers...)

	var topics struct {
		Topics []TopicView `json:"topics"`
		Total  int         `json:"total"`
	}
	getInto(t, s, "/v1/topics?system=false&sort=brokers&order=desc&limit=2", &topics)
	if topics.Total != 7 || len(topics.Topics) != 2 || topics.Topics[0].Topic != "Shared" || topics.Topics[0].BrokerCount != 3 ||
		topics.Topics[1].Topic != "Own0-0" {
		t.Fatalf("topics by broker count: %+v", topics)
	}
	getInto(t, s, "/v1/topics?system=false&sort=write&order=desc&limit=1", &topics)
	if topics.Topics[0].Topic != "Own2-2" || topics.Topics[0].WriteQueueNums != 12 {
		t.Fatalf("topics by write queues: %+v", topics)
	}
	getInto(t, s, "/v1/topics", &topics)
	if topics.Total != 9 {
		t.Fatalf("%d topics with the system ones, want 9", topics.Total)
	}

	var list struct {
		Brokers []BrokerView `json:"brokers"`
	}
	getInto(t, s, "/v1/brokers?sort=topics&order=desc", &list)
	var names []string
	for _, b := range list.Brokers {
		names = append(names, b.BrokerName)
	}
	if !slices.Equal(names, []string{"broker-2", "broker-1", "broker-0"}) || list.Brokers[0].VersionName != "V5_3_3" || list.Brokers[0].Version != 479 {
		t.Fatalf("brokers by topic count: %v %+v", names, list.Brokers[0])
	}
	getInto(t, s, "/v1/brokers?sort=addr&limit=1&offset=2", &list)
	if len(list.Brokers) != 1 || list.Brokers[0].BrokerAddr != "10.0.0.3:10911" {
		t.Fatalf("third broker by address: %+v", list.Brokers)
	}
	for _, path := range []string{"/v1/topics?sort=size", "/v1/topics?order=up", "/v1/brokers?sort=zone", "/v1/topics?system=maybe"} {
		if status, body := get(t, s, path); status != http.StatusBadRequest || !strings.Contains(body, "error") {
			t.Errorf("%s: %d %s, want 400", path, status, body)
		}
	}
}

// TestPeersViewShowsTheLastCheck: /v1/peers lists the watcher's statuses
// beside this server's own counts.
func TestPeersViewShowsTheLastCheck(t *testing.T) {
	s := startSidePort(t)
	down := peers.Status{Addr: "10.0.0.9:9876", Error: "cluster info: connection refused", Topics: -1}
	attachRoutes(t, s, []peers.Status{down}, nstest.BrokerAMaster)
	var view struct {
		Peers []peers.Status `json:"peers"`
		Self  struct {
			Brokers, Topics int
		} `json:"self"`
	}
	getInto(t, s, "/v1/peers", &view)
	if len(view.Peers) != 1 || view.Peers[0].Up || view.Peers[0].Error != down.Error || view.Self.Brokers != 1 ||
		view.Self.Topics != len(nstest.BrokerAMaster.Topics) {
		t.Fatalf("peers view %+v", view)
	}
}
