package wire

import (
	"encoding/json"
	"fmt"
)

// CodeGetBrokerEpochCache is GET_BROKER_EPOCH_CACHE: mqadmin getBrokerEpoch
// asks a broker (not the controller) for its epoch cache.
const CodeGetBrokerEpochCache int32 = 1007

// EpochEntry is one master epoch of a broker's commit log: the offset its
// first message was written at, and where the next epoch started
// (math.MaxInt64 while it is the current one). Fields in fastjson's
// alphabetical order, so encoding/json writes Java's layout.
type EpochEntry struct {
	EndOffset   int64 `json:"endOffset"`
	Epoch       int32 `json:"epoch"`
	StartOffset int64 `json:"startOffset"`
}

// String is Java's EpochEntry.toString, which getBrokerEpoch prints.
func (e EpochEntry) String() string {
	return fmt.Sprintf("EpochEntry{epoch=%d, startOffset=%d, endOffset=%d}", e.Epoch, e.StartOffset, e.EndOffset)
}

// EpochEntryCache is 1007's answer body: the broker's identity, its epochs
// in order and its commit log's max offset.
type EpochEntryCache struct {
	BrokerID    int64        `json:"brokerId"`
	BrokerName  string       `json:"brokerName"`
	ClusterName string       `json:"clusterName"`
	EpochList   []EpochEntry `json:"epochList"`
	MaxOffset   int64        `json:"maxOffset"`
}

// Encode writes the body as fastjson does (an empty list as []).
func (c *EpochEntryCache) Encode() []byte {
	out := *c
	if out.EpochList == nil {
		out.EpochList = []EpochEntry{}
	}
	b, _ := json.Marshal(&out) // plain fields: cannot fail
	return b
}

// DecodeEpochEntryCache reads 1007's answer body.
func DecodeEpochEntryCache(b []byte) (*EpochEntryCache, error) {
	c := &EpochEntryCache{}
	if err := json.Unmarshal(b, c); err != nil {
		return nil, fmt.Errorf("epoch entry cache body: %w", err)
	}
	return c, nil
}
