package config

// What a config update writes to configStorePath, which is the -c file when
// one was given. Java writes every running value, so a value given on the
// command line (a port, a path, a protected key) ended up in the file and
// applied at every later start, even one without that flag. Here a key the
// command line set is written with the file's own value (or left out when
// the file had none, so its default applies), unless an update over the
// wire set it since, which is the operator asking for it to stay.

func (c *Config) markCommandLine(key string) {
	if c.commandLineKeys == nil {
		c.commandLineKeys = map[string]bool{}
	}
	c.commandLineKeys[key] = true
}

func (c *Config) markWire(key string) {
	if c.wireKeys == nil {
		c.wireKeys = map[string]bool{}
	}
	c.wireKeys[key] = true
}

// storedConfigs is allConfigs with the command line's values taken out.
func storedConfigs(cfg *Config) map[string]string {
	all := allConfigs(cfg)
	for key := range cfg.commandLineKeys {
		if cfg.wireKeys[key] {
			continue
		}
		if value, inFile := cfg.fileProperties[key]; inFile {
			all[key] = value
		} else {
			delete(all, key)
		}
	}
	return all
}
