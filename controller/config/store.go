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
// the -c file, before the flags), and of them only the ones changeable
// online: the -c file stays the source of every other key, so a peer list
// edited there is not overridden by a stale copy.

// storeFilePerm is the stored file's mode, as the NameServer's.
const storeFilePerm = 0o644

// wireKeysComment starts the stored file's first line, in the form
// "#set by UPDATE_CONTROLLER_CONFIG on <group>/<selfId>: key,key": the node
// that wrote it, so that a file another node wrote (a shared explicit
// configStorePath) is not read back. oldWireKeysComment is the line of an
// earlier version, which named no node: not applied either.
const (
	wireKeysComment    = "#set by UPDATE_CONTROLLER_CONFIG on "
	oldWireKeysComment = "#set by UPDATE_CONTROLLER_CONFIG: "
)

// storeOwner names this node in the stored file's first line.
func (c *Config) storeOwner() string { return c.Group() + "/" + c.SelfID() }

// WireKeys lists the keys updated over the wire since this store began,
// sorted.
func (c *Config) WireKeys() []string { return slices.Clone(c.wireKeys) }

// Update applies props as UPDATE_CONTROLLER_CONFIG does to a copy of c,
// all or nothing: every key must be changeable online (ChangeableOnline)
// and its value must convert and be in bounds, or nothing is applied or
// written and the error names each refused key. The copy is then validated
// and written to configStorePath atomically; it is returned only when all
// of that succeeded, and c is unchanged either way.
func (c *Config) Update(props map[string]string) (*Config, error) {
	next := c.Clone()
	keys := slices.Clone(c.wireKeys)
	var refused []string
	for _, key := range slices.Sorted(maps.Keys(props)) {
		err := checkOnline(key, props[key])
		if err == nil {
			err = next.Set(key, props[key])
		}
		if err != nil {
			refused = append(refused, err.Error())
			continue
		}
		if !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}
	if len(refused) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrRefusedOnline, strings.Join(refused, "; "))
	}
	slices.Sort(keys)
	next.wireKeys = keys
	if err := next.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRefusedOnline, err)
	}
	if err := atomicfile.Write(next.StorePath(), next.storeFile(), storeFilePerm); err != nil {
		return nil, fmt.Errorf("persist the controller config to %s: %w", next.StorePath(), err)
	}
	return next, nil
}

// ErrRefusedOnline is wrapped by Update's error for a request refused as a
// whole: a key not changeable online, unknown, or a value that does not
// convert or is out of bounds.
var ErrRefusedOnline = errors.New("controller config update refused")

func (c *Config) storeFile() []byte {
	head := wireKeysComment + c.storeOwner() + ": " + strings.Join(c.wireKeys, ",") + "\n"
	values := c.Values()
	maps.DeleteFunc(values, func(key, _ string) bool { return IsSecret(key) })
	return append([]byte(head), javaprops.FormatFile(values)...)
}

// loadStored applies the wire-updated keys of the configStorePath file, if
// there is one; it returns the keys applied.
func (c *Config) loadStored() ([]string, error) {
	data, err := os.ReadFile(c.StorePath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read configStorePath: %w", err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	first = strings.TrimRight(first, "\r")
	if _, old := strings.CutPrefix(first, oldWireKeysComment); old {
		c.ignoredStoreOwner = "(no node named: a file of an earlier version)"
		return nil, nil
	}
	rest, ok := strings.CutPrefix(first, wireKeysComment)
	if !ok {
		// Not ours (a Java controller's, or a hand-written file): the -c
		// file stays the only source.
		return nil, nil
	}
	cut := strings.LastIndex(rest, ": ")
	if cut < 0 {
		return nil, nil
	}
	owner, list := rest[:cut], rest[cut+2:]
	if owner != c.storeOwner() {
		// Another node's (an explicit configStorePath shared by two
		// nodes): its updates are not this node's.
		c.ignoredStoreOwner = owner
		return nil, nil
	}
	props, err := javaprops.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("configStorePath %s: %w", c.StorePath(), err)
	}
	var applied, ignored []string
	for _, key := range strings.Split(list, ",") {
		value, present := props[key]
		if key == "" || !present || slices.Contains(c.BlackList(), key) {
			continue
		}
		// A file an older version wrote may name a key no longer
		// changeable online (controllerStorePath, the peers): the -c file
		// decides it, and the start log names the keys left out.
		if !ChangeableOnline(key) {
			ignored = append(ignored, key)
			continue
		}
		if err := c.Set(key, value); err == nil {
			applied = append(applied, key)
		}
	}
	slices.Sort(applied)
	slices.Sort(ignored)
	c.wireKeys, c.ignoredStoredKeys = applied, ignored
	return applied, nil
}

// IgnoredStoredKeys lists, sorted, the keys the configStorePath file named
// as set over the wire that were not applied at start because they are not
// changeable online (a file of an older version): the node logs them.
func (c *Config) IgnoredStoredKeys() []string { return slices.Clone(c.ignoredStoredKeys) }

// IgnoredStoreOwner is the node the configStorePath file named when it was
// not this node (or a note that it named none), "" when the file was this
// node's or absent: the node warns that it did not read it back.
func (c *Config) IgnoredStoreOwner() string { return c.ignoredStoreOwner }
