package route

import (
	"errors"
	"fmt"
	"maps"
	"time"

	log "github.com/sirupsen/logrus"
)

// Election is a controller's election for one broker set (a broker name), as
// the NameServer learns it: from the controller node it embeds, or from a
// standalone controller's notice. The route package knows nothing of the
// controller; this is all it is told.
type Election struct {
	Cluster    string
	BrokerName string
	// MasterAddr is the elected master's address; "" when the election
	// found none (the old master is out all the same).
	MasterAddr string
	// Epoch is the controller's masterEpoch after this election: the
	// stateVersion the master registers with.
	Epoch int64
	// Identity names the set's record in the controller's store (random,
	// created with the record): a new one means the record was created
	// again (the group's stores wiped, or the set cleaned) and its epochs
	// count from 1 again, so the last election recorded here for another
	// identity fences nothing. "" (a controller without identities) keeps
	// the epoch rule alone.
	Identity string
	// Now is when the election is applied here: a master it puts at id 0
	// that has no live entry gets one from Now, for the default broker
	// timeout (Config.DefaultHeartbeatTimeout), so it leaves the route
	// unless it registers.
	Now time.Time
}

// ElectionOutcome says what ApplyElection did.
type ElectionOutcome struct {
	// Applied is false for an election not newer than the last one applied
	// for the set (a repeat, or an old one replayed): nothing changed.
	Applied bool
	// Removed is the address that was broker id 0 and no longer is ("" if
	// none): it left the route, its live entry with it.
	Removed string
	// Moved says the master was in the group under another id (a slave's)
	// and moved to id 0; Added that it was not in the group at all.
	Moved, Added bool
	// Unknown says no broker of the set has registered here: only the fence
	// was recorded.
	Unknown bool
}

// MaxManagedSets bounds the broker sets a NameServer records elections of
// (a notice names any set; the record outlives the set's brokers).
const MaxManagedSets = 100_000

// MaxElectionIdentityLength bounds Election.Identity, which every managed
// set keeps: the controller writes 32 hex digits.
const MaxElectionIdentityLength = 64

// ErrFencedByController refuses a registration as broker id 0 that the
// controller's last election for its set rules out (see fenceRegistration).
var ErrFencedByController = errors.New("route: fenced by the controller's election")

// ErrElectionEpochJump refuses an election whose epoch is more than
// Config.MaxElectionEpochJump above the last one applied for its set (same
// identity): epochs grow by one per election.
var ErrElectionEpochJump = errors.New("route: masterEpoch jumps too far above the set's last election")

// managedSet is the last election applied for a set: writer-only, it fences
// the set's registrations as id 0 while Config.ControllerFencing is on.
type managedSet struct {
	masterAddr string
	epoch      int64
	identity   string // Election.Identity of the election recorded ("" none)
}

// ApplyElection makes the route follow an election at once, without waiting
// for the new master's registration: the old master (whatever address held
// broker id 0, if not the elected one) leaves the route as an unregister
// would remove it (its live entry too, so its heartbeats refresh nothing
// and QUERY_DATA_VERSION sends it to register again, where the fence
// refuses it), and the elected master's address becomes id 0, moved from
// its slave id when it registered as a slave (the set's queue data is by
// broker name, so routes serve it at once; one that never registered here
// gets a live entry of the default broker timeout, liveUntilRegistered). An
// election older than or equal to the last one applied for the set changes
// nothing, unless it carries another Identity (the controller's record of
// the set was created again, its epochs restarted: the old record goes);
// one more than Config.MaxElectionEpochJump above it is refused. It sends no
// NOTIFY_MIN_BROKER_ID_CHANGE: the controller tells the members itself.
func (m *Manager) ApplyElection(e Election) (ElectionOutcome, error) {
	if e.BrokerName == "" {
		return ElectionOutcome{}, fmt.Errorf("election: brokerName: %w", ErrMissingField)
	}
	if err := CheckBrokerIdentity(e.Cluster, e.BrokerName, e.MasterAddr); err != nil {
		return ElectionOutcome{}, fmt.Errorf("election for %s: %w", truncateForLog(e.BrokerName), err)
	}
	if len(e.Identity) > MaxElectionIdentityLength {
		return ElectionOutcome{}, fmt.Errorf("election for %s: identity of %d bytes: %w (at most %d)",
			truncateForLog(e.BrokerName), len(e.Identity), ErrLimitExceeded, MaxElectionIdentityLength)
	}
	m.mu.Lock()
	defer m.unlock()
	prev, known := m.managed[e.BrokerName]
	recreated := known && e.Identity != "" && e.Identity != prev.identity
	if recreated {
		// The set's record was created again: its epochs restarted, and the
		// old fence would refuse the new master until a restart.
		m.logLater(log.WarnLevel, log.Fields{"brokerName": e.BrokerName, "identity": e.Identity, "previousIdentity": prev.identity,
			"masterEpoch": e.Epoch, "previousMasterEpoch": prev.epoch},
			"controller election under a new group identity: the set's record was recreated, its old fence dropped")
		known = false
	}
	if known && e.Epoch <= prev.epoch {
		return ElectionOutcome{}, nil
	}
	if jump := m.current.Load().cfg.MaxElectionEpochJump; known && jump > 0 && e.Epoch-prev.epoch > jump {
		return ElectionOutcome{}, fmt.Errorf("election for %s: %w: masterEpoch %d, last %d, bound %d",
			truncateForLog(e.BrokerName), ErrElectionEpochJump, e.Epoch, prev.epoch, jump)
	}
	if _, recorded := m.managed[e.BrokerName]; !recorded && len(m.managed) >= MaxManagedSets {
		return ElectionOutcome{}, fmt.Errorf("election for %s: %w: %d broker sets recorded", e.BrokerName, ErrLimitExceeded, MaxManagedSets)
	}
	m.managed[e.BrokerName] = managedSet{masterAddr: e.MasterAddr, epoch: e.Epoch, identity: e.Identity}
	t := m.begin()
	outcome := m.followElection(t, e)
	t.commit()
	m.logLater(log.InfoLevel, log.Fields{"cluster": e.Cluster, "brokerName": e.BrokerName, "masterAddr": e.MasterAddr,
		"masterEpoch": e.Epoch, "identity": e.Identity, "removed": outcome.Removed, "moved": outcome.Moved, "added": outcome.Added,
		"unknownSet": outcome.Unknown}, "route follows the controller's election")
	return outcome, nil
}

// followElection changes the set's group as ApplyElection says. With no
// master elected, the old one goes as an unregister takes it (a group with
// acting master on loses write permission); with one, the old address is
// replaced in the same write, so the set's topics stay writable.
func (m *Manager) followElection(t *txn, e Election) ElectionOutcome {
	outcome := ElectionOutcome{Applied: true}
	group, ok := t.view().groups.get(e.BrokerName)
	if !ok {
		outcome.Unknown = true
		return outcome
	}
	cluster := group.data.Cluster
	old := group.data.BrokerAddrs[MasterID]
	if old == e.MasterAddr {
		return outcome
	}
	outcome.Removed = old
	if e.MasterAddr == "" {
		m.unregister(t, []unregisterItem{{req: UnregisterRequest{ClusterName: cluster, BrokerAddr: old,
			BrokerName: e.BrokerName, BrokerID: MasterID}, groupKnown: true}}, false)
		return outcome
	}
	if old != "" {
		key := brokerAddrInfo{cluster: cluster, addr: old}
		t.removeLive(key)
		t.setFilterServers(key, nil)
	}
	addrs := maps.Clone(group.data.BrokerAddrs)
	outcome.Added = true
	for id, addr := range addrs {
		switch addr {
		case e.MasterAddr:
			outcome.Moved, outcome.Added = true, false
			delete(addrs, id)
		case old:
			delete(addrs, id)
		}
	}
	addrs[MasterID] = e.MasterAddr
	t.publishGroup(e.BrokerName, group, group.data, addrs)
	m.liveUntilRegistered(t, brokerAddrInfo{cluster: cluster, addr: e.MasterAddr}, e.BrokerName, e.Now)
	return outcome
}

// fenceRegistration refuses a registration as broker id 0 of a set whose
// election this NameServer applied, unless it is the elected master with
// stateVersion equal to that election's masterEpoch. A stateVersion newer
// than the last election seen is admitted and taken as the set's election:
// this NameServer missed a notice (the controller's leader died before
// sending it), and refusing the master the controller did elect would keep
// the set without master here. The caller holds m.mu.
func (m *Manager) fenceRegistration(req *RegisterBrokerRequest, dv DataVersion) error {
	if req.BrokerID != MasterID || !m.current.Load().cfg.ControllerFencing {
		return nil
	}
	set, ok := m.managed[req.BrokerName]
	switch {
	case !ok:
		return nil
	case dv.StateVersion < set.epoch:
		return fmt.Errorf("%w: stateVersion %d is older than masterEpoch %d of the last election for %s (master %q)",
			ErrFencedByController, dv.StateVersion, set.epoch, req.BrokerName, set.masterAddr)
	case dv.StateVersion == set.epoch && req.BrokerAddr != set.masterAddr:
		return fmt.Errorf("%w: masterEpoch %d of %s elected %q, not this address",
			ErrFencedByController, set.epoch, req.BrokerName, set.masterAddr)
	case dv.StateVersion > set.epoch:
		// The same record of the controller's store: its identity stays, so
		// a late notice of that record is not taken for a recreated one.
		m.managed[req.BrokerName] = managedSet{masterAddr: req.BrokerAddr, epoch: dv.StateVersion, identity: set.identity}
		m.logLater(log.InfoLevel, log.Fields{"brokerName": req.BrokerName, "brokerAddr": req.BrokerAddr,
			"stateVersion": dv.StateVersion, "lastElectionEpoch": set.epoch},
			"master registered with a newer masterEpoch than the last election seen here: taken as the controller's")
	}
	return nil
}

// electedAsSlave returns req as broker id 0 when it is the elected master
// of a managed set registering under a slave id with an older stateVersion
// than the election's: it has not learned its new role yet (its periodic
// registration, or one sent before the role change reached it), and taking
// it at its word would move it back to a slave id and leave the route
// without the master the controller elected. Otherwise req itself. Only
// with Config.ControllerFencing (off, registrations keep Java's rules). The
// caller holds m.mu.
func (m *Manager) electedAsSlave(req *RegisterBrokerRequest, dv DataVersion) *RegisterBrokerRequest {
	if req.BrokerID == MasterID || !m.current.Load().cfg.ControllerFencing {
		return req
	}
	set, ok := m.managed[req.BrokerName]
	if !ok || req.BrokerAddr != set.masterAddr || dv.StateVersion >= set.epoch {
		return req
	}
	asMaster := *req
	asMaster.BrokerID = MasterID
	m.logLater(log.DebugLevel, log.Fields{"brokerName": req.BrokerName, "brokerAddr": req.BrokerAddr, "brokerId": req.BrokerID,
		"stateVersion": dv.StateVersion, "masterEpoch": set.epoch}, "the elected master registered as a slave: kept as broker id 0")
	return &asMaster
}

// ManagedEpoch returns the masterEpoch and master of the last election
// applied for a set, false when none was (the set keeps Java's rule).
func (m *Manager) ManagedEpoch(brokerName string) (epoch int64, masterAddr string, ok bool) {
	m.mu.Lock()
	defer m.unlock()
	set, ok := m.managed[brokerName]
	return set.epoch, set.masterAddr, ok
}
