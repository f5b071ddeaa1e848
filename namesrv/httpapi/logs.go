package httpapi

import (
	"log"
	"strings"

	"github.com/sirupsen/logrus"
)

// logrusErrorLog sends net/http's own messages (TLS handshakes, bad
// requests, panics) to logrus at warning level.
func logrusErrorLog(entry *logrus.Entry) *log.Logger {
	return log.New(lineWriter{entry}, "", 0)
}

type lineWriter struct{ entry *logrus.Entry }

func (w lineWriter) Write(p []byte) (int, error) {
	w.entry.Warn(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
