package config

import (
	"slices"

	ctlconfig "github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// UnknownKeys are the -c file's keys no NameServer setting has, in file
// order, each with the closest known key: cmd/namesrv warns of them at
// start and -p lists them. With enableControllerInNamesrv the controller's
// keys are known (the embedded controller reads them from the same file).
func (c *Config) UnknownKeys() []javaprops.UnknownKey { return slices.Clone(c.unknownKeys) }

// filterUnknownKeys drops the controller's keys from the unknown ones when
// the embedded controller runs, and suggests among them too: known only
// once the flags have decided enableControllerInNamesrv.
func (c *Config) filterUnknownKeys() {
	if !c.EnableControllerInNamesrv {
		return
	}
	candidates := append(Keys(), ctlconfig.Keys()...)
	var kept []javaprops.UnknownKey
	for _, u := range c.unknownKeys {
		if ctlconfig.Known(u.Key) {
			continue
		}
		u.Closest = javaprops.Closest(u.Key, candidates)
		kept = append(kept, u)
	}
	c.unknownKeys = kept
}

// setStrict is Set for the command line: a boolean must be true or false.
func (c *Config) setStrict(key, value string) error { return fields.SetStrict(c, key, value) }
