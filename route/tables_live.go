package route

// setLive stores a new live entry under key, retiring the one it replaces,
// and files it for expiry. Both indexes of live entries (by connection and by
// deadline) change only here and in removeLive.
func (t *txn) setLive(key brokerAddrInfo, entry *liveBroker) {
	if prev, ok := t.view().live.get(key); ok {
		t.m.retireLive(prev)
	}
	t.edit()
	t.live.set(key, entry)
	conns := t.m.connBrokers[entry.conn]
	if conns == nil {
		conns = map[brokerAddrInfo]struct{}{}
		t.m.connBrokers[entry.conn] = conns
	}
	conns[key] = struct{}{}
	t.m.expiry.file(entry)
	t.m.filedSinceCompact++
	if t.m.filedSinceCompact > t.view().live.len()+expiryCompactSlack {
		t.m.expiry.dropRetired()
		t.m.filedSinceCompact = 0
	}
}

// expiryCompactSlack is how many filings beyond the live count the expiry
// wheel takes before it is rid of retired entries. A replaced entry stays
// filed until its deadline otherwise, so a broker changing its registration
// 500,000 times within its timeout would keep 500,000 entries; with the
// compaction the wheel holds at most twice the live entries plus this many,
// at an amortized cost of O(1) per filing.
const expiryCompactSlack = 1024

// removeLive removes the live entry of key, if any, and returns it.
func (t *txn) removeLive(key brokerAddrInfo) *liveBroker {
	prev, ok := t.view().live.get(key)
	if !ok {
		return nil
	}
	t.m.retireLive(prev)
	t.edit()
	t.live.delete(key)
	return prev
}

// retireLive marks an entry replaced or removed: its expiry slot becomes
// stale and its connection no longer leads to it.
func (m *Manager) retireLive(entry *liveBroker) {
	entry.retired = true
	if conns := m.connBrokers[entry.conn]; conns != nil {
		delete(conns, entry.key)
		if len(conns) == 0 {
			delete(m.connBrokers, entry.conn)
		}
	}
}
