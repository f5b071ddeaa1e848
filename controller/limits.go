package controller

import "fmt"

// Limits bound what requests may add to the state: the node checks them
// when it validates a request, never when it applies a committed entry, so
// a lowered bound cannot make two nodes apply one log differently.
type Limits struct {
	// MaxBrokerSets is controllerMaxBrokerSets: the sets the state holds.
	MaxBrokerSets int
	// MaxBrokerIDsPerSet is controllerMaxBrokerIdsPerSet: the members one
	// set holds (not its next id, which only grows).
	MaxBrokerIDsPerSet int
}

// SetCount is the number of sets in either table.
func (s *State) SetCount() int {
	n := len(s.replicas)
	for name := range s.syncStates {
		if _, ok := s.replicas[name]; !ok {
			n++
		}
	}
	return n
}

// CheckApplyBrokerID refuses an apply of broker id `id` to set brokerName
// that would add a set past MaxBrokerSets or a member past
// MaxBrokerIDsPerSet; an id the set already holds (a retry) adds nothing
// and passes. The error names the key of the bound.
func (s *State) CheckApplyBrokerID(brokerName string, id int64, l Limits) error {
	r, _, ok := s.set(brokerName)
	if !ok {
		// A name in one table only (a clean left half a set, as Java's)
		// is replaced by the apply, not added.
		_, inReplicas := s.replicas[brokerName]
		_, inSyncStates := s.syncStates[brokerName]
		if n := s.SetCount(); n >= l.MaxBrokerSets && !inReplicas && !inSyncStates {
			return fmt.Errorf("the controller holds %d broker sets, controllerMaxBrokerSets is %d: no new set", n, l.MaxBrokerSets)
		}
		return nil
	}
	if _, held := r.Brokers[id]; !held && len(r.Brokers) >= l.MaxBrokerIDsPerSet {
		return fmt.Errorf("broker set holds %d ids, controllerMaxBrokerIdsPerSet is %d: no new id", len(r.Brokers), l.MaxBrokerIDsPerSet)
	}
	return nil
}
