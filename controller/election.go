package controller

// Election is a set's outcome of its last election, as NameServers need it
// to make their routes follow the controller (docs/controller.md, "Routes
// that follow elections"): the elected master's address, or none, under the
// masterEpoch that election gave.
type Election struct {
	ClusterName string
	BrokerName  string
	// MasterAddr is the master's address; "" when the election found no
	// master (the old one is out all the same).
	MasterAddr     string
	MasterBrokerID int64 // the master's controller id; 0 with no master
	MasterEpoch    int32
	// Identity is the set record's (SyncStateInfo.Identity): a NameServer
	// seeing a new one drops its fence of the set, whose epochs restarted.
	Identity string
}

// Election returns the set's last election, false when the set does not
// exist or never had one (masterEpoch 0).
func (s *State) Election(brokerName string) (Election, bool) {
	r, ss, ok := s.set(brokerName)
	if !ok || ss.MasterEpoch == 0 {
		return Election{}, false
	}
	e := Election{ClusterName: r.ClusterName, BrokerName: brokerName, MasterEpoch: ss.MasterEpoch, Identity: ss.Identity}
	if ss.HasMaster {
		if addr, member := r.Address(ss.MasterBrokerID); member {
			e.MasterAddr, e.MasterBrokerID = addr, ss.MasterBrokerID
		}
	}
	return e, true
}

// Elections returns the last election of every set that had one, by name.
func (s *State) Elections() []Election {
	var out []Election
	for _, name := range s.BrokerNames() {
		if e, ok := s.Election(name); ok {
			out = append(out, e)
		}
	}
	return out
}

// ElectedSets names the sets an entry's events elected in (won or not), in
// order and without repeats: the sets whose Election changed.
func ElectedSets(events []Event) []string {
	var names []string
	for _, ev := range events {
		e, ok := ev.(ElectMasterEvent)
		if !ok {
			continue
		}
		seen := false
		for _, n := range names {
			seen = seen || n == e.BrokerName
		}
		if !seen {
			names = append(names, e.BrokerName)
		}
	}
	return names
}
