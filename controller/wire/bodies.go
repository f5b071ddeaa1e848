package wire

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/gonamesrv/gonamesrv/route"
)

// The fastjson bodies of the controller (docs/controller.md §1.1): keys in
// alphabetical order, null fields left out, Map<Long,String> keys unquoted
// ({1:"127.0.0.1:10911"}), sets of ids ascending (what a small HashSet<Long>
// iterates as).

// SyncStateSet is the in-sync set with its epoch: 1001's request and answer,
// and the body of 1003, 1004 and 1008.
type SyncStateSet struct {
	SyncStateSet      []int64 `json:"syncStateSet"`
	SyncStateSetEpoch int32   `json:"syncStateSetEpoch"`
}

// Encode writes `{"syncStateSet":[1,2],"syncStateSetEpoch":3}`.
func (s *SyncStateSet) Encode() []byte {
	dst := appendIDs(append([]byte(nil), `{"syncStateSet":`...), s.SyncStateSet)
	dst = append(dst, `,"syncStateSetEpoch":`...)
	return append(strconv.AppendInt(dst, int64(s.SyncStateSetEpoch), 10), '}')
}

// DecodeSyncStateSet reads the body a master sends with 1001; ids come back
// ascending and without repeats (Java reads them into a HashSet).
func DecodeSyncStateSet(b []byte) (*SyncStateSet, error) {
	s := &SyncStateSet{}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("sync state set body: %w", err)
	}
	s.SyncStateSet = SortedIDs(s.SyncStateSet)
	return s, nil
}

// DecodeBrokerNames reads 1006's request body, a JSON array of brokerNames.
func DecodeBrokerNames(b []byte) ([]string, error) {
	var names []string
	if err := json.Unmarshal(b, &names); err != nil {
		return nil, fmt.Errorf("broker names body: %w", err)
	}
	return names, nil
}

// BrokerMemberGroup is the set's members as ElectMasterResponseBody carries them.
type BrokerMemberGroup struct {
	Cluster     string
	BrokerName  string
	BrokerAddrs map[int64]string
}

func (g *BrokerMemberGroup) appendTo(dst []byte) []byte {
	dst = append(dst, `{"brokerAddrs":{`...)
	for i, id := range SortedIDs(slices.Collect(maps.Keys(g.BrokerAddrs))) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(strconv.AppendInt(dst, id, 10), ':')
		dst = route.AppendFastjsonString(dst, g.BrokerAddrs[id])
	}
	dst = route.AppendFastjsonString(append(dst, `},"brokerName":`...), g.BrokerName)
	dst = route.AppendFastjsonString(append(dst, `,"cluster":`...), g.Cluster)
	return append(dst, '}')
}

// ElectMasterResponseBody is 1002's body; BrokerMemberGroup only when a new
// master was elected.
type ElectMasterResponseBody struct {
	BrokerMemberGroup *BrokerMemberGroup
	SyncStateSet      []int64
}

// Encode writes `{"brokerMemberGroup":{...},"syncStateSet":[1]}`.
func (b *ElectMasterResponseBody) Encode() []byte {
	dst := append([]byte(nil), '{')
	if b.BrokerMemberGroup != nil {
		dst = b.BrokerMemberGroup.appendTo(append(dst, `"brokerMemberGroup":`...))
		dst = append(dst, ',')
	}
	dst = appendIDs(append(dst, `"syncStateSet":`...), b.SyncStateSet)
	return append(dst, '}')
}

// ReplicaIdentity is one member in 1006's answer.
type ReplicaIdentity struct {
	Alive         bool
	BrokerAddress string
	BrokerID      int64
	BrokerName    string
}

// ReplicasInfo is one set in 1006's answer; MasterBrokerID and MasterAddress
// are nil when the set has no master (fastjson leaves them out).
type ReplicasInfo struct {
	InSyncReplicas    []ReplicaIdentity
	MasterAddress     *string
	MasterBrokerID    *int64
	MasterEpoch       int32
	NotInSyncReplicas []ReplicaIdentity
	SyncStateSetEpoch int32
}

// BrokerReplicasInfo is CONTROLLER_GET_SYNC_STATE_DATA's (1006) answer.
type BrokerReplicasInfo struct {
	ReplicasInfoTable map[string]ReplicasInfo
}

// Encode writes `{"replicasInfoTable":{"name":{...}}}`, names sorted.
func (b *BrokerReplicasInfo) Encode() []byte {
	dst := append([]byte(nil), `{"replicasInfoTable":{`...)
	for i, name := range slices.Sorted(maps.Keys(b.ReplicasInfoTable)) {
		if i > 0 {
			dst = append(dst, ',')
		}
		r := b.ReplicasInfoTable[name]
		dst = route.AppendFastjsonString(dst, name)
		dst = appendReplicas(append(dst, `:{"inSyncReplicas":`...), r.InSyncReplicas)
		if r.MasterAddress != nil {
			dst = route.AppendFastjsonString(append(dst, `,"masterAddress":`...), *r.MasterAddress)
		}
		if r.MasterBrokerID != nil {
			dst = strconv.AppendInt(append(dst, `,"masterBrokerId":`...), *r.MasterBrokerID, 10)
		}
		dst = strconv.AppendInt(append(dst, `,"masterEpoch":`...), int64(r.MasterEpoch), 10)
		dst = appendReplicas(append(dst, `,"notInSyncReplicas":`...), r.NotInSyncReplicas)
		dst = strconv.AppendInt(append(dst, `,"syncStateSetEpoch":`...), int64(r.SyncStateSetEpoch), 10)
		dst = append(dst, '}')
	}
	return append(dst, '}', '}')
}

func appendReplicas(dst []byte, rs []ReplicaIdentity) []byte {
	dst = append(dst, '[')
	for i, r := range rs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendBool(append(dst, `{"alive":`...), r.Alive)
		dst = route.AppendFastjsonString(append(dst, `,"brokerAddress":`...), r.BrokerAddress)
		dst = strconv.AppendInt(append(dst, `,"brokerId":`...), r.BrokerID, 10)
		dst = route.AppendFastjsonString(append(dst, `,"brokerName":`...), r.BrokerName)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

func appendIDs(dst []byte, ids []int64) []byte {
	dst = append(dst, '[')
	for i, id := range SortedIDs(ids) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, id, 10)
	}
	return append(dst, ']')
}

// SortedIDs returns a sorted copy of ids without repeats: the one order ids
// are written and compared in.
// It is never nil, so an empty set encodes the same however it was made.
func SortedIDs(ids []int64) []int64 {
	return append([]int64{}, slices.Compact(slices.Sorted(slices.Values(ids)))...)
}
