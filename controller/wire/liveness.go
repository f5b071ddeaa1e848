package wire

import (
	"encoding/json"
	"fmt"

	"github.com/gonamesrv/gonamesrv/route"
)

// CodeGetBrokerLiveness is ours, not Java's: the controller leader asks
// every other node of its group, on the controller's remoting port, for
// the newest heartbeat each has of some brokers before it elects for a
// silent master (docs/controller.md, Liveness the group agrees on). Java's
// RequestCode has no 5020; a Java controller answers it
// REQUEST_CODE_NOT_SUPPORTED, which the asker takes as "did not hear".
const CodeGetBrokerLiveness int32 = 5020

// Bounds of one liveness question and its answer: a larger body, or more
// keys, is refused before it is read further.
const (
	// LivenessMaxKeys bounds the brokers of one question: the leader asks
	// about one set's members, whose default bound
	// (controllerMaxBrokerIdsPerSet) is 64.
	LivenessMaxKeys = 64
	// LivenessMaxBody bounds a question's or an answer's body: 64 entries
	// of two names and an address at their bounds, each character escaped
	// by JSON at its longest (\u00XX), and the numbers fit in it.
	LivenessMaxBody = 512 << 10
)

// BrokerKeyJSON names one broker of a liveness question.
type BrokerKeyJSON struct {
	ClusterName string `json:"clusterName"`
	BrokerName  string `json:"brokerName"`
	BrokerID    int64  `json:"brokerId"`
}

// BrokerLivenessRequest is 5020's body: the brokers asked about.
type BrokerLivenessRequest struct {
	Brokers []BrokerKeyJSON `json:"brokers"`
}

// BrokerLivenessEntry is what the answering node holds of one broker: the
// age of its last heartbeat there, in milliseconds as the answering node's
// clock counts them (never an absolute time: the nodes' monotonic clocks
// share no origin), and that heartbeat's fields, so that the asker can
// take the entry over.
type BrokerLivenessEntry struct {
	BrokerKeyJSON
	AgeMillis              int64  `json:"ageMillis"`
	HeartbeatTimeoutMillis int64  `json:"heartbeatTimeoutMillis"`
	BrokerAddr             string `json:"brokerAddr"`
	Epoch                  int32  `json:"epoch"`
	MaxOffset              int64  `json:"maxOffset"`
	ConfirmOffset          int64  `json:"confirmOffset"`
	ElectionPriority       int32  `json:"electionPriority"`
}

// BrokerLivenessResponse is 5020's answer body: an entry for each broker
// asked about that the node holds (one it never heard, or no longer holds,
// is left out).
type BrokerLivenessResponse struct {
	Brokers []BrokerLivenessEntry `json:"brokers"`
}

// Encode writes the question.
func (r *BrokerLivenessRequest) Encode() []byte { b, _ := json.Marshal(r); return b }

// Encode writes the answer.
func (r *BrokerLivenessResponse) Encode() []byte { b, _ := json.Marshal(r); return b }

// DecodeBrokerLivenessRequest reads a question within the bounds: the body
// size, the count of keys and each name (route's name bound).
func DecodeBrokerLivenessRequest(b []byte) (*BrokerLivenessRequest, error) {
	var r BrokerLivenessRequest
	if err := decodeBounded(b, "liveness question", &r, func() int { return len(r.Brokers) }); err != nil {
		return nil, err
	}
	for _, k := range r.Brokers {
		if err := checkKeyNames(k); err != nil {
			return nil, err
		}
	}
	return &r, nil
}

// DecodeBrokerLivenessResponse reads an answer within the same bounds.
func DecodeBrokerLivenessResponse(b []byte) (*BrokerLivenessResponse, error) {
	var r BrokerLivenessResponse
	if err := decodeBounded(b, "liveness answer", &r, func() int { return len(r.Brokers) }); err != nil {
		return nil, err
	}
	for _, e := range r.Brokers {
		if err := checkKeyNames(e.BrokerKeyJSON); err != nil {
			return nil, err
		}
		if err := route.CheckAddrField("brokerAddr", e.BrokerAddr); err != nil {
			return nil, err
		}
		if e.AgeMillis < 0 {
			return nil, fmt.Errorf("liveness answer: negative age %d of %s", e.AgeMillis, e.BrokerName)
		}
	}
	return &r, nil
}

// decodeBounded reads a liveness body of at most LivenessMaxBody bytes
// into v, whose count of brokers must be at most LivenessMaxKeys.
func decodeBounded(b []byte, what string, v any, count func() int) error {
	if len(b) > LivenessMaxBody {
		return fmt.Errorf("%w: %s of %d bytes, at most %d", route.ErrLimitExceeded, what, len(b), LivenessMaxBody)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s body: %w", what, err)
	}
	if n := count(); n > LivenessMaxKeys {
		return fmt.Errorf("%w: %s names %d brokers, at most %d", route.ErrLimitExceeded, what, n, LivenessMaxKeys)
	}
	return nil
}

func checkKeyNames(k BrokerKeyJSON) error {
	if err := route.CheckNameField("clusterName", k.ClusterName); err != nil {
		return err
	}
	return route.CheckNameField("brokerName", k.BrokerName)
}
