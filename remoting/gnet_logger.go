package remoting

import "github.com/sirupsen/logrus"

// gnetLogger routes gnet's own log lines through logrus, so an operator
// sees one log stream with one format.
type gnetLogger struct {
	entry *logrus.Entry
}

func newGnetLogger(entry *logrus.Entry) gnetLogger {
	return gnetLogger{entry: entry.WithField("component", "gnet")}
}

// Debugf logs at debug level.
func (l gnetLogger) Debugf(format string, args ...any) { l.entry.Debugf(format, args...) }

// Infof logs at info level.
func (l gnetLogger) Infof(format string, args ...any) { l.entry.Infof(format, args...) }

// Warnf logs at warn level.
func (l gnetLogger) Warnf(format string, args ...any) { l.entry.Warnf(format, args...) }

// Errorf logs at error level.
func (l gnetLogger) Errorf(format string, args ...any) { l.entry.Errorf(format, args...) }

// Fatalf logs at error level with fatal=true instead of exiting: a library
// must not end the process; the server reports the failure to its owner.
func (l gnetLogger) Fatalf(format string, args ...any) {
	l.entry.WithField("fatal", true).Errorf(format, args...)
}
