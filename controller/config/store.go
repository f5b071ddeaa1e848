package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// The configStorePath file: UPDATE_CONTROLLER_CONFIG writes every setting
// there, as Java's Configuration.persist does (a Java properties file a
// Java controller can load), after a first comment line naming the keys
// that came over the wire. At start only those keys are read back (after
// the -c file, before the flags): the -c file stays the source of every
// other key, so a peer list edited there is not overridden by a stale copy.

// storeFilePerm is the stored file's mode, as the NameServer's.
const storeFilePerm = 0o644

// wireKeysComment starts the stored file's first line.
const wireKeysComment = "#set by UPDATE_CONTROLLER_CONFIG: "

// WireKeys lists the keys updated over the wire since this store began,
// sorted.
func (c *Config) WireKeys() []string { return slices.Clone(c.wireKeys) }

// Update applies props as UPDATE_CONTROLLER_CONFIG does to a copy of c
// (unknown keys and values that do not convert ignored, as Java), validates
// it and writes it to configStorePath atomically. The copy is returned only
// when all of that succeeded; c is unchanged either way.
func (c *Config) Update(props map[string]string) (*Config, error) {
	next := c.Clone()
	keys := slices.Clone(c.wireKeys)
	for key, value := range props {
		if err := next.Set(key, value); err == nil && !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	next.wireKeys = keys
	if err := next.Validate(); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(next.ConfigStorePath, next.storeFile(), storeFilePerm); err != nil {
		return nil, fmt.Errorf("persist the controller config to %s: %w", next.ConfigStorePath, err)
	}
	return next, nil
}

func (c *Config) storeFile() []byte {
	head := wireKeysComment + strings.Join(c.wireKeys, ",") + "\n"
	values := c.Values()
	maps.DeleteFunc(values, func(key, _ string) bool { return IsSecret(key) })
	return append([]byte(head), javaprops.FormatFile(values)...)
}

// loadStored applies the wire-updated keys of the configStorePath file, if
// there is one; it returns the keys applied.
func (c *Config) loadStored() ([]string, error) {
	data, err := os.ReadFile(c.ConfigStorePath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read configStorePath: %w", err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	list, ok := strings.CutPrefix(strings.TrimRight(first, "\r"), wireKeysComment)
	if !ok {
		// Not ours (a Java controller's, or a hand-written file): the -c
		// file stays the only source.
		return nil, nil
	}
	props, err := javaprops.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("configStorePath %s: %w", c.ConfigStorePath, err)
	}
	var applied []string
	for _, key := range strings.Split(list, ",") {
		value, present := props[key]
		if key == "" || !present || slices.Contains(c.BlackList(), key) {
			continue
		}
		if err := c.Set(key, value); err == nil {
			applied = append(applied, key)
		}
	}
	slices.Sort(applied)
	c.wireKeys = applied
	return applied, nil
}
