// Package logsetup configures the process logger the way every server of
// the project does (cmd/namesrv, cmd/controller): logrus's standard logger
// on stderr, text (colour on a terminal) or one JSON object per line, at a
// named level, with a service field.
package logsetup

import (
	"fmt"
	"os"

	"github.com/sirupsen/logrus"
)

// New sets up logrus's standard logger, so that anything logging through it
// follows the same format and level, and returns it with service set.
// format is "", "text" or "json"; level "" means info.
func New(format, level, service string) (*logrus.Entry, error) {
	logger := logrus.StandardLogger()
	logger.SetOutput(os.Stderr)
	switch format {
	case "", "text":
		logger.SetFormatter(&logrus.TextFormatter{FullTimestamp: true})
	case "json":
		logger.SetFormatter(&logrus.JSONFormatter{})
	default:
		return nil, fmt.Errorf("unknown log format %q (want text or json)", format)
	}
	if level == "" {
		level = "info"
	}
	lvl, err := logrus.ParseLevel(level)
	if err != nil {
		return nil, fmt.Errorf("log level: %w", err)
	}
	logger.SetLevel(lvl)
	return logrus.NewEntry(logger).WithField("service", service), nil
}
