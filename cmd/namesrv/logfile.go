package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/sirupsen/logrus"
	"gopkg.in/natefinch/lumberjack.v2"

	"github.com/gonamesrv/gonamesrv/namesrv/config"
)

// logFilePath resolves the logFile key: "" (stderr) stays "", "java" is
// Java's ~/logs/rocketmqlogs/namesrv.log, "~/" starts at home.
func logFilePath(value, home string) string {
	switch {
	case value == "":
		return ""
	case value == config.JavaLogFile:
		return filepath.Join(home, "logs", "rocketmqlogs", "namesrv.log")
	case strings.HasPrefix(value, "~/"):
		return filepath.Join(home, value[2:])
	default:
		return value
	}
}

// openLogFile is the rotating file of cfg.LogFile, nil when the log stays
// on stderr. It is opened (folder created) here, so that a path the process
// cannot write stops the start naming the key instead of losing the log.
func openLogFile(cfg *config.Config) (*lumberjack.Logger, error) {
	home, _ := os.UserHomeDir()
	path := logFilePath(cfg.LogFile, home)
	if path == "" {
		return nil, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("logFile %s: %w", path, err)
	}
	if err := createLogFile(path); err != nil {
		return nil, fmt.Errorf("logFile: %w", err)
	}
	return &lumberjack.Logger{Filename: path, MaxSize: cfg.LogMaxSizeMB, MaxAge: cfg.LogMaxAgeDays,
		MaxBackups: cfg.LogMaxBackups, LocalTime: false}, nil
}

// logFileMode is the log file's mode, readable by the operators' group as
// Java's logs are (the umask still applies).
const logFileMode = 0o644

// createLogFile creates path with logFileMode unless it exists; lumberjack
// then appends to it. Lumberjack creates a missing file itself with 0600,
// which after a logrotate move would leave the new log unreadable to the
// operators who read the old one.
func createLogFile(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, logFileMode)
	if err != nil {
		return err
	}
	return f.Close()
}

// reopenOnHangup closes the log file on every SIGHUP; the next line opens
// the path again, so after logrotate (or mv) moved the file the log goes to
// a new one at the configured path. stop ends it.
func reopenOnHangup(file *lumberjack.Logger, log *logrus.Entry) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				if err := file.Close(); err != nil {
					log.WithError(err).Warn("log file close on SIGHUP failed")
				}
				// Created here with logFileMode: lumberjack would create
				// the moved file's successor with 0600.
				if err := createLogFile(file.Filename); err != nil {
					log.WithError(err).Warn("log file create on SIGHUP failed")
				}
				log.WithField("logFile", file.Filename).Info("log file reopened (SIGHUP)")
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}
