package agent

// SetBrokerPermission changes brokerPermission without a restart
// (updateBrokerConfig); the caller bumps the topic table's DataVersion and
// the next registration, asked for at once, carries the new perms.
func (a *Agent) SetBrokerPermission(perm int32) {
	a.perm.Store(&perm)
	a.log.WithField("brokerPermission", perm).Info("broker permission changed; registering at once")
	a.TriggerRegister()
}

// brokerPermission is the permission set online, else the configured one.
func (a *Agent) brokerPermission() int32 {
	if p := a.perm.Load(); p != nil {
		return *p
	}
	return a.cfg.BrokerPermission
}
