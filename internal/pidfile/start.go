package pidfile

import "github.com/sirupsen/logrus"

// Start writes the pid file (Write) and logs where; the returned function,
// deferred by the binary's run, removes it on the way out and only warns if
// it cannot: the exit status is the server's, not the pid file's.
func Start(path string, log *logrus.Entry) (stop func(), err error) {
	remove, err := Write(path)
	if err != nil {
		return nil, err
	}
	if path != "" {
		log.WithField("pidFile", path).Info("pid file written (removed at exit)")
	}
	return func() {
		if err := remove(); err != nil {
			log.WithError(err).WithField("pidFile", path).Warn("remove pid file")
		}
	}, nil
}
