package controller

import (
	"cmp"
	"slices"
)

// ElectConfig is the controller configuration the election reads.
type ElectConfig struct {
	// EnableElectUncleanMaster lets a member outside the in-sync set become
	// master when no in-sync one is alive (data loss); Java's key of that name.
	EnableElectUncleanMaster bool
}

// Elect is Java's DefaultElectPolicy: the in-sync set first, then allReplicas
// (nil unless unclean elections are on). It returns the new master and true,
// or false when nobody is electable. oldMaster and preferred may be nil.
func Elect(live Liveness, clusterName, brokerName string, inSync, allReplicas []int64, oldMaster, preferred *int64) (int64, bool) {
	if id, ok := tryElect(live, clusterName, brokerName, inSync, oldMaster, preferred); ok {
		return id, true
	}
	if allReplicas != nil {
		return tryElect(live, clusterName, brokerName, allReplicas, oldMaster, preferred)
	}
	return 0, false
}

// tryElect picks from one candidate list: only alive members; the old
// master while alive unless another is preferred; a preferred member only if
// alive (no fallback); else the best by higher epoch, then higher maxOffset,
// then lower electionPriority, then lower id (Java's TreeSet keeps the first
// of exact ties, and small ids iterate ascending). Offsets are compared, not
// subtracted, so gaps of 2^31 and more order correctly (Java's comparator
// casts the difference to int).
func tryElect(live Liveness, clusterName, brokerName string, ids []int64, oldMaster, preferred *int64) (int64, bool) {
	var alive []BrokerLiveInfo
	for _, id := range slices.Sorted(slices.Values(ids)) {
		if !live.Alive(clusterName, brokerName, id) {
			continue
		}
		info, ok := live.LiveInfo(clusterName, brokerName, id)
		if !ok {
			info = BrokerLiveInfo{BrokerID: id, Epoch: -1, MaxOffset: -1, ElectionPriority: DefaultElectionPriority}
		}
		info.BrokerID = id
		alive = append(alive, info)
	}
	if len(alive) == 0 {
		return 0, false
	}
	isAlive := func(id int64) bool {
		return slices.ContainsFunc(alive, func(b BrokerLiveInfo) bool { return b.BrokerID == id })
	}
	if oldMaster != nil && isAlive(*oldMaster) && (preferred == nil || *preferred == *oldMaster) {
		return *oldMaster, true
	}
	if preferred != nil {
		return *preferred, isAlive(*preferred)
	}
	best := slices.MinFunc(alive, func(a, b BrokerLiveInfo) int {
		return cmp.Or(
			cmp.Compare(b.Epoch, a.Epoch),
			cmp.Compare(b.MaxOffset, a.MaxOffset),
			cmp.Compare(a.ElectionPriority, b.ElectionPriority),
			cmp.Compare(a.BrokerID, b.BrokerID))
	})
	return best.BrokerID, true
}
