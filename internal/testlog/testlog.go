// Package testlog gives tests the loggers they hand to the code under test:
// one that discards everything, for tests that provoke warnings on purpose,
// and one that shows only warnings and errors, for tests that run whole
// servers and want to see when something goes wrong.
package testlog

import (
	"io"
	"os"

	"github.com/sirupsen/logrus"
)

// Discard is a logger that writes nothing.
func Discard() *logrus.Entry {
	logger := logrus.New()
	logger.SetOutput(io.Discard)
	return logrus.NewEntry(logger)
}

// Warnings is a logger that writes warnings and errors to stderr.
func Warnings() *logrus.Entry {
	logger := logrus.New()
	logger.SetOutput(os.Stderr)
	logger.SetLevel(logrus.WarnLevel)
	return logrus.NewEntry(logger)
}
