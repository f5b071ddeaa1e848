package config

// StoreReadAtStart reports whether configStorePath is the -c file this
// server was started with. Only then does a restart with the same command
// line read what UPDATE_NAMESRV_CONFIG wrote there: without -c (or with
// configStorePath pointed elsewhere) the file is written but never read, so
// keys that are not live never take effect, as in Java.
func (c *Config) StoreReadAtStart() bool {
	return c.loadedFrom != "" && c.loadedFrom == c.ConfigStorePath
}

// ConfigFile is the -c file the settings were loaded from, "" without one.
func (c *Config) ConfigFile() string { return c.loadedFrom }
