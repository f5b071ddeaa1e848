package httpapi

import (
	"slices"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
)

// TestGroupOrderPutsAGroupTogetherMasterFirst: groupOrder sorts by
// cluster, broker name in natural order, master first, the slaves by id,
// an id not in the group last, then address.
func TestGroupOrderPutsAGroupTogetherMasterFirst(t *testing.T) {
	views := []BrokerView{
		{Cluster: "C", BrokerName: "broker-10", BrokerID: 0, BrokerAddr: "10.0.0.1:10911"},
		{Cluster: "C", BrokerName: "broker-2", BrokerID: -1, BrokerAddr: "10.0.0.0:10911"},
		{Cluster: "C", BrokerName: "broker-2", BrokerID: 2, BrokerAddr: "10.0.0.2:10911"},
		{Cluster: "C", BrokerName: "broker-2", BrokerID: 1, BrokerAddr: "10.0.0.3:10911"},
		{Cluster: "C", BrokerName: "broker-2", BrokerID: 0, BrokerAddr: "10.0.0.9:10911"},
		{Cluster: "B", BrokerName: "broker-3", BrokerID: 0, BrokerAddr: "10.0.1.9:10911"},
	}
	slices.SortStableFunc(views, groupOrder)
	var got []string
	for _, v := range views {
		got = append(got, v.BrokerAddr)
	}
	want := []string{"10.0.1.9:10911", "10.0.0.9:10911", "10.0.0.3:10911", "10.0.0.2:10911", "10.0.0.0:10911", "10.0.0.1:10911"}
	if !slices.Equal(got, want) {
		t.Fatalf("group order %v, want %v", got, want)
	}
}

// TestBrokersListAGroupTogetherMasterFirst: /v1/brokers' default order
// lists each group's members together, master first, even when a slave's
// address sorts before its master's and another group's address falls
// between them; broker names go in natural order (broker-2 before
// broker-10).
func TestBrokersListAGroupTogetherMasterFirst(t *testing.T) {
	s := startSidePort(t)
	topics := map[string]int32{"T": 4, "U": 4}
	attachRoutes(t, s, nil,
		nstest.Broker{Cluster: "C", Name: "broker-2", ID: 0, Addr: "10.0.0.5:10911", Topics: topics},
		nstest.Broker{Cluster: "C", Name: "broker-2", ID: 1, Addr: "10.0.0.1:10911", Topics: topics},
		nstest.Broker{Cluster: "C", Name: "broker-10", ID: 0, Addr: "10.0.0.3:10911", Topics: topics},
		nstest.Broker{Cluster: "C", Name: "broker-10", ID: 1, Addr: "10.0.0.7:10911", Topics: topics},
	)
	var list struct {
		Brokers []BrokerView `json:"brokers"`
	}
	getInto(t, s, "/v1/brokers", &list)
	var got []string
	for _, b := range list.Brokers {
		got = append(got, b.BrokerName+"/"+b.Role)
	}
	want := []string{"broker-2/master", "broker-2/slave", "broker-10/master", "broker-10/slave"}
	if !slices.Equal(got, want) {
		t.Fatalf("brokers in order %v, want %v", got, want)
	}
	// Sorted on a column, ties keep the group order.
	getInto(t, s, "/v1/brokers?sort=cluster&order=asc", &list)
	got = got[:0]
	for _, b := range list.Brokers {
		got = append(got, b.BrokerName+"/"+b.Role)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("brokers by cluster %v, want ties in group order %v", got, want)
	}
}

// TestTopicsInNaturalOrderAndPartlyWritable: /v1/topics lists names in
// natural order (T-2 before T-10) both ways, and counts the broker names
// a topic takes writes on, so one writable on some of them shows as such.
func TestTopicsInNaturalOrderAndPartlyWritable(t *testing.T) {
	s := startSidePort(t)
	topics := map[string]int32{"T-0": 1, "T-1": 1, "T-2": 1, "T-10": 1, "Only-a": 1}
	shared := map[string]int32{"T-0": 1, "T-1": 1, "T-2": 1, "T-10": 1}
	attachRoutes(t, s, nil,
		nstest.Broker{Cluster: "C", Name: "broker-a", Addr: "10.0.0.1:10911", Topics: topics},
		nstest.Broker{Cluster: "C", Name: "broker-b", Addr: "10.0.0.2:10911", Topics: shared},
		nstest.Broker{Cluster: "C", Name: "broker-c", Addr: "10.0.0.3:10911", Topics: shared},
	)
	if n := s.source.Load().Routes.WipeWritePerm("broker-b"); n == 0 {
		t.Fatal("wiping broker-b's write permission changed no topic")
	}
	var page struct {
		Topics []TopicView `json:"topics"`
	}
	names := func() []string {
		var out []string
		for _, tv := range page.Topics {
			if tv.Topic != "Only-a" {
				out = append(out, tv.Topic)
			}
		}
		return out
	}
	getInto(t, s, "/v1/topics?system=false", &page)
	if got, want := names(), []string{"T-0", "T-1", "T-2", "T-10"}; !slices.Equal(got, want) {
		t.Fatalf("topics %v, want %v", got, want)
	}
	getInto(t, s, "/v1/topics", &page)
	if got, want := names(), []string{"T-0", "T-1", "T-2", "T-10"}; !slices.Equal(got, want) {
		t.Fatalf("topics with system ones %v, want %v", got, want)
	}
	getInto(t, s, "/v1/topics?system=false&order=desc", &page)
	if got, want := names(), []string{"T-10", "T-2", "T-1", "T-0"}; !slices.Equal(got, want) {
		t.Fatalf("topics descending %v, want %v", got, want)
	}
	for _, tv := range page.Topics {
		wantWritable := 2
		if tv.Topic == "Only-a" {
			wantWritable = 1
		}
		if !tv.Writable || tv.WritableBrokers != wantWritable {
			t.Errorf("%s: writable %v on %d of %d broker names, want %d", tv.Topic, tv.Writable, tv.WritableBrokers, tv.BrokerCount, wantWritable)
		}
	}
}
