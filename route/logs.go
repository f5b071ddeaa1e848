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

// unlock releases the writer lock, then writes the lines recorded under it:
// warnings (and worse) at most once a second per message, with the count of
// those held back (ratelog), since a peer's requests cause them.
func (m *Manager) unlock() {
	pending := m.pendingLogs
	m.pendingLogs = nil
	m.mu.Unlock()
	for _, line := range pending {
		if line.level <= logrus.WarnLevel {
			m.warnings.Log(m.log, line.level, line.fields, nil, line.msg)
			continue
		}
		m.log.WithFields(line.fields).Log(line.level, line.msg)
	}
}
