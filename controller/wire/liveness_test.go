package wire

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gonamesrv/gonamesrv/route"
)

func TestLivenessBodiesRoundTripAndAreBounded(t *testing.T) {
	q := BrokerLivenessRequest{Brokers: []BrokerKeyJSON{{ClusterName: "c", BrokerName: "b", BrokerID: 2}}}
	got, err := DecodeBrokerLivenessRequest(q.Encode())
	if err != nil || len(got.Brokers) != 1 || got.Brokers[0] != q.Brokers[0] {
		t.Fatalf("question round trip: %+v %v", got, err)
	}
	a := BrokerLivenessResponse{Brokers: []BrokerLivenessEntry{{BrokerKeyJSON: q.Brokers[0], AgeMillis: 120,
		HeartbeatTimeoutMillis: 3000, BrokerAddr: "10.0.0.1:10911", Epoch: 3, MaxOffset: 9, ConfirmOffset: 8, ElectionPriority: 1}}}
	back, err := DecodeBrokerLivenessResponse(a.Encode())
	if err != nil || len(back.Brokers) != 1 || back.Brokers[0] != a.Brokers[0] {
		t.Fatalf("answer round trip: %+v %v", back, err)
	}

	var many BrokerLivenessRequest
	for i := range LivenessMaxKeys + 1 {
		many.Brokers = append(many.Brokers, BrokerKeyJSON{ClusterName: "c", BrokerName: fmt.Sprint("b", i)})
	}
	if _, err := DecodeBrokerLivenessRequest(many.Encode()); !errors.Is(err, route.ErrLimitExceeded) {
		t.Fatalf("%d keys: %v, want the limit", len(many.Brokers), err)
	}
	long := BrokerLivenessRequest{Brokers: []BrokerKeyJSON{{ClusterName: "c", BrokerName: strings.Repeat("x", route.MaxNameLength+1)}}}
	if _, err := DecodeBrokerLivenessRequest(long.Encode()); !errors.Is(err, route.ErrLimitExceeded) {
		t.Fatalf("a name past its bound: %v", err)
	}
	if _, err := DecodeBrokerLivenessRequest(make([]byte, LivenessMaxBody+1)); !errors.Is(err, route.ErrLimitExceeded) {
		t.Fatalf("a body past its bound: %v", err)
	}
	neg := BrokerLivenessResponse{Brokers: []BrokerLivenessEntry{{BrokerKeyJSON: q.Brokers[0], AgeMillis: -1}}}
	if _, err := DecodeBrokerLivenessResponse(neg.Encode()); err == nil {
		t.Fatal("a negative age decoded")
	}
}
