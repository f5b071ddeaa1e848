package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/atomicfile"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// fixedBlackList are the keys UPDATE_NAMESRV_CONFIG may never change, whatever
// configBlackList says (Java DefaultRequestProcessor.initConfigBlackList).
var fixedBlackList = []string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome"}

// configFilePerm is the mode of the persisted settings file.
const configFilePerm = 0o644

// Settings is the daemon's shared, thread-safe view of its configuration
// (Java's Configuration object): readers take an immutable snapshot, updates
// from UPDATE_NAMESRV_CONFIG are serialised, persisted, then published.
type Settings struct {
	log *logrus.Entry
	// blackList is fixed at construction from the startup configBlackList, as in Java.
	blackList map[string]struct{}

	updateMu sync.Mutex
	current  atomic.Pointer[Config]
	// started is the configuration the server started with (pending.go).
	started *Config
	version atomic.Int64
}

// NewSettings wraps a startup configuration (from FromArgs or Default); log
// receives the update values that are ignored. cfg is cloned; the black list
// is the fixed keys plus the `;`-separated items of cfg.ConfigBlackList
// (exact, case-sensitive), read once here as in Java.
func NewSettings(cfg *Config, log *logrus.Entry) *Settings {
	s := &Settings{log: log, blackList: make(map[string]struct{})}
	for _, key := range fixedBlackList {
		s.blackList[key] = struct{}{}
	}
	for _, key := range strings.Split(cfg.ConfigBlackList, ";") {
		if key != "" {
			s.blackList[key] = struct{}{}
		}
	}
	s.current.Store(cfg.Clone())
	s.started = cfg.Clone()
	return s
}

// Get returns the current configuration. It is shared: do not modify it.
func (s *Settings) Get() *Config { return s.current.Load() }

// DataVersion counts successful updates since start (Java's configuration
// DataVersion counter), for logs and metrics.
func (s *Settings) DataVersion() int64 { return s.version.Load() }

// BlackList returns the keys Update refuses, sorted.
func (s *Settings) BlackList() []string {
	return slices.Sorted(maps.Keys(s.blackList))
}

// Properties is the GET_NAMESRV_CONFIG body (protocol.md 6.6): sorted
// `key=value\n` lines of every Java setting and every entry of the -c file,
// setting values winning. Go-only settings are listed when they were given in
// the -c file or differ from their default, so a default server answers
// exactly the Java key set. Keys that name a secret (IsSecretKey) are left
// out; the persisted file keeps them. Keys pending a restart follow as
// comment lines (PendingPrefix), which Java properties readers skip.
func (s *Settings) Properties() []byte {
	return append(javaprops.Format(WithoutSecrets(allConfigs(s.Get()))), s.pendingComments()...)
}

// extensionDefaults holds the defaults of the Go-only settings, which do not
// depend on the environment.
var extensionDefaults = Default()

// allConfigs is Java's "all configs" property set for cfg.
func allConfigs(cfg *Config) map[string]string {
	all := maps.Clone(cfg.fileProperties)
	if all == nil {
		all = make(map[string]string, len(settings))
	}
	for _, st := range settings {
		value := cfg.format(st)
		if st.Extension {
			_, inFile := cfg.fileProperties[st.Key]
			if !inFile && value == extensionDefault(cfg, st) {
				continue
			}
		}
		all[st.Key] = value
	}
	return all
}

// Update applies an UPDATE_NAMESRV_CONFIG request (protocol.md 6.6); it is
// UpdateThen without a callback.
func (s *Settings) Update(props map[string]string) (changed []string, err error) {
	return s.UpdateThen(props, nil)
}

// UpdateThen applies an UPDATE_NAMESRV_CONFIG request. Every key is checked
// before any is applied, and one bad key applies none: a black-listed key
// returns ErrBlackListed (Java's remark), a protected key (IsProtected)
// wraps ErrProtected, a value that does not convert, a boolean other than
// true/false, logLevel panic or fatal, or a result outside the bounds or
// choices (Validate) is a *KeyError naming the key and why, and so is a key
// no setting knows (Java stores it silently: a typo reported success). The
// result is written to configStorePath atomically, then published; apply,
// when not nil, then runs before the next update can start, so two
// concurrent updates apply their effects in the order they were
// published. changed lists the keys whose value changed, sorted. An empty
// props changes and writes nothing.
func (s *Settings) UpdateThen(props map[string]string, apply func(next *Config, changed []string)) (changed []string, err error) {
	keys := slices.Sorted(maps.Keys(props))
	for _, key := range keys {
		if _, black := s.blackList[key]; black {
			return nil, ErrBlackListed
		}
	}
	for _, key := range keys {
		if IsProtected(key) {
			return nil, fmt.Errorf("%s %w (set it in the -c file or on the command line)", key, ErrProtected)
		}
	}
	if len(props) == 0 {
		return nil, nil
	}
	s.updateMu.Lock()
	defer s.updateMu.Unlock()
	old := s.Get()
	next := old.Clone()
	for _, key := range keys {
		value := props[key]
		if _, known := fields.Lookup(key); !known {
			return nil, fmt.Errorf("update config: %w", unknownWireKey(key))
		}
		if err := next.setFromWire(key, value); err != nil {
			return nil, fmt.Errorf("update config: %w", err)
		}
		next.markWire(key)
	}
	if err := next.Validate(); err != nil {
		return nil, fmt.Errorf("update config: %w", err)
	}
	if err := atomicfile.Write(next.ConfigStorePath, javaprops.FormatFile(storedConfigs(next)), configFilePerm); err != nil {
		return nil, fmt.Errorf("update config: persist: %w", err)
	}
	s.current.Store(next)
	s.version.Add(1)
	changed = changedKeys(old, next)
	if apply != nil {
		apply(next, changed)
	}
	return changed, nil
}

// changedKeys lists the keys of the all-configs set whose value differs,
// or which are in one set only: an extension key set back to its default
// (logLevel=info after logLevel=debug) leaves the set, and is a change.
func changedKeys(old, next *Config) []string {
	before, after := allConfigs(old), allConfigs(next)
	var changed []string
	for key, value := range after {
		if prev, ok := before[key]; !ok || prev != value {
			changed = append(changed, key)
		}
	}
	for key := range before {
		if _, ok := after[key]; !ok {
			changed = append(changed, key)
		}
	}
	slices.Sort(changed)
	return changed
}
