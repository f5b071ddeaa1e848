package httpapi

import (
	"log"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/ratelog"
)

// logrusErrorLog sends net/http's own messages (TLS handshakes, bad
// requests, panics) to logrus at warning level, each kind at most once a
// second with the count held back (suppressedSinceLast): a peer failing
// 3,000 handshakes a second writes one line a second, not 3,000.
func logrusErrorLog(entry *logrus.Entry) *log.Logger {
	return log.New(&lineWriter{entry: entry}, "", 0)
}

type lineWriter struct {
	entry      *logrus.Entry
	handshakes ratelog.Limiter
	others     ratelog.Limiter
}

func (w *lineWriter) Write(p []byte) (int, error) {
	line := strings.TrimRight(string(p), "\n")
	fields := func() logrus.Fields { return logrus.Fields{"error": line} }
	if strings.Contains(line, "TLS handshake error") {
		w.handshakes.Log(w.entry, logrus.WarnLevel, fields, "http side port: TLS handshake failed", time.Now())
	} else {
		w.others.Log(w.entry, logrus.WarnLevel, fields, "http side port: "+firstWords(line), time.Now())
	}
	return len(p), nil
}

// firstWords is the start of net/http's message, up to its first detail,
// as the line's message; the whole line is in the error field.
func firstWords(line string) string {
	line = strings.TrimPrefix(line, "http: ")
	if i := strings.IndexAny(line, ":;"); i > 0 {
		return line[:i]
	}
	return line
}
