package main

import (
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// warnUnknownKeys logs each key of the -c file no setting has, with the
// closest known key: a typo is seen at start, while a Java config's keys
// of other components still load.
func warnUnknownKeys(log *logrus.Entry, file string, unknown []javaprops.UnknownKey) {
	for _, u := range unknown {
		log.WithFields(u.LogFields(file)).Warn("unknown key in the config file, ignored: " + u.String())
	}
}
