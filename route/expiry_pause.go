package route

import "time"

// ExtendDeadlines is pause protection (etcd's lessor does the same after a
// leader change): the daemon calls it when its expiry job ran late because
// the process was not running, with lastRun the time of the job's previous
// run. Nothing could be heard from any broker between lastRun and now, so
// that time is not counted against anyone: a broker heard from since lastRun
// gets a full timeout from now, and one silent since before lastRun has its
// deadline moved by the gap. A broker that really died during the pause is
// therefore removed one timeout after the resume, not at once. It returns how
// many brokers it looked at. It takes no lock: heartbeats racing with it only
// ever store a later time, which the compare-and-swap keeps.
func (m *Manager) ExtendDeadlines(lastRun, now time.Time) int {
	gap := now.Sub(lastRun).Milliseconds()
	if gap <= 0 {
		return 0
	}
	nowMillis := now.UnixMilli()
	n := 0
	for _, entry := range m.current.Load().live.all() {
		if entry.borrowed != nil {
			continue // its deadline is the borrowing's, which a pause here does not move
		}
		n++
		for {
			old := entry.lastUpdateMillis.Load()
			next := min(old+gap, nowMillis)
			if next <= old || entry.lastUpdateMillis.CompareAndSwap(old, next) {
				break
			}
		}
	}
	return n
}
