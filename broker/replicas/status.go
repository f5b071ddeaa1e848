package replicas

import "slices"

// SyncStateSet is the in-sync set (broker ids, the master's own included)
// the broker last adopted from the controller; nil while it has none.
func (m *Manager) SyncStateSet() []int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.sss)
}
