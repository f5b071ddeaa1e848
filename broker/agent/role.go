package agent

import (
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/route"
)

// Role is what a controller made the broker (controller mode, Java 5's
// ReplicasManager changeToMaster/changeToSlave): the brokerId it registers
// under (0 as master, its controller-assigned id as slave) and the
// stateVersion its DataVersion carries (the masterEpoch), which lets the
// NameServer prefer the newer master for id 0.
type Role struct {
	BrokerID     int64
	StateVersion int64
}

// SetRole replaces the registered brokerId and stateVersion and registers
// with every NameServer at once (not at the next period), as Java's
// registerBrokerWhenRoleChange does. It never blocks.
func (a *Agent) SetRole(r Role) {
	a.role.Store(&r)
	a.log.WithFields(logrus.Fields{"roleBrokerId": r.BrokerID, "stateVersion": r.StateVersion}).Info("role changed; registering at once")
	a.TriggerRegister()
}

// identity is the configured identity with the role's brokerId, if any.
func (a *Agent) identity() Identity {
	id := a.cfg.Identity
	if r := a.role.Load(); r != nil {
		id.BrokerID = r.BrokerID
	}
	return id
}

// withStateVersion puts the role's stateVersion into a DataVersion.
func (a *Agent) withStateVersion(v route.DataVersion) route.DataVersion {
	if r := a.role.Load(); r != nil {
		v.StateVersion = r.StateVersion
	}
	return v
}
