package route

import "github.com/sirupsen/logrus"

// pendingLog is a line a writer produced under the writer lock.
type pendingLog struct {
	level  logrus.Level
	msg    string
	fields logrus.Fields
}

// logLater records a line to write once the writer lock is released
// (unlock). Writing a log line can block, on a full pipe or a slow disk;
// readers never wait for the writer lock, but every registration does.
func (m *Manager) logLater(level logrus.Level, fields logrus.Fields, msg string) {
	if !m.log.Logger.IsLevelEnabled(level) {
		return
	}
	m.pendingLogs = append(m.pendingLogs, pendingLog{level: level, msg: msg, fields: fields})
}

// unlock releases the writer lock, then writes the lines recorded under it.
func (m *Manager) unlock() {
	pending := m.pendingLogs
	m.pendingLogs = nil
	m.mu.Unlock()
	for _, line := range pending {
		m.log.WithFields(line.fields).Log(line.level, line.msg)
	}
}
