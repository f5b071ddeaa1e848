package subgroup

import (
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/gonamesrv/gonamesrv/route"
)

// Bounds on what a client can make the table hold: the table is written to
// disk on every change and sent whole in each GET_ALL_SUBSCRIPTIONGROUP_CONFIG
// answer.
const (
	// MaxGroups is the most groups a broker keeps (predefined ones
	// included); Java has no bound.
	MaxGroups = 10000
	// MaxGroupNameLength is Java's Validators.CHARACTER_MAX_LENGTH.
	MaxGroupNameLength = 255
	// MaxConfigBytes bounds one group's JSON as a client sends it.
	MaxConfigBytes = 8 << 10
)

// Errors of the table, for the admin handlers to answer with.
var (
	ErrInvalidGroup  = errors.New("subgroup: invalid group name")
	ErrTooManyGroups = errors.New("subgroup: too many subscription groups")
	ErrConfigTooLong = errors.New("subgroup: subscription group config too long")
	ErrAttributes    = errors.New("subgroup: unsupported attribute")
)

// predefinedGroups are the groups a Java broker creates at start
// (SubscriptionGroupManager.init); the ONS and transaction groups consume in
// broadcast mode.
var predefinedGroups = []struct {
	name      string
	broadcast bool
}{
	{"TOOLS_CONSUMER", false}, {"FILTERSRV_CONSUMER", false}, {"SELF_TEST_C_GROUP", false},
	{"CID_ONS-HTTP-PROXY", true}, {"CID_ONSAPI_PULL", true}, {"CID_ONSAPI_PERMISSION", true},
	{"CID_ONSAPI_OWNER", true}, {"CID_RMQ_SYS_TRANS", true},
}

// Wrapper is the whole table with its version: the body of
// GET_ALL_SUBSCRIPTIONGROUP_CONFIG and the content of subscriptionGroup.json.
type Wrapper struct {
	Groups      map[string]Config
	DataVersion route.DataVersion
}

// Table holds one broker's subscription groups. Every change bumps the
// version and is written to the file before the call returns.
type Table struct {
	file *File // nil: memory only
	now  func() time.Time

	mu          sync.RWMutex // guards the fields below and serialises file writes
	groups      map[string]Config
	dataVersion route.DataVersion
}

// NewTable returns a table with the predefined groups; file may be nil for
// one that is never persisted, now nil for time.Now.
func NewTable(file *File, now func() time.Time) *Table {
	if now == nil {
		now = time.Now
	}
	t := &Table{file: file, now: now, groups: map[string]Config{}, dataVersion: route.DataVersion{Timestamp: now().UnixMilli()}}
	for _, g := range predefinedGroups {
		c := NewConfig(g.name)
		c.ConsumeBroadcastEnable = g.broadcast
		t.groups[g.name] = c
	}
	return t
}

// Load reads the file (or its backup) over the predefined groups, as Java's
// ConfigManager.load does; a missing file is not an error.
func (t *Table) Load() error {
	if t.file == nil {
		return nil
	}
	w, found, err := t.file.Read()
	if err != nil {
		return fmt.Errorf("load subscription groups: %w", err)
	}
	if !found {
		return nil
	}
	if len(w.Groups) > MaxGroups {
		return fmt.Errorf("load subscription groups from %s: %d groups, more than %d: %w", t.file.Path(), len(w.Groups), MaxGroups, ErrTooManyGroups)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	maps.Copy(t.groups, w.Groups)
	t.dataVersion = w.DataVersion
	return nil
}

// ValidateGroupName applies Java's TopicValidator.isTopicOrGroupIllegal and
// length rule.
func ValidateGroupName(name string) error {
	if name == "" || len(name) > MaxGroupNameLength {
		return fmt.Errorf("%w: %q must have 1 to %d characters", ErrInvalidGroup, name, MaxGroupNameLength)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '%' || c == '|' || c == '_' || c == '-') {
			return fmt.Errorf("%w: %q has a character outside [%%|a-zA-Z0-9_-]", ErrInvalidGroup, name)
		}
	}
	return nil
}

// Get returns one group.
func (t *Table) Get(name string) (Config, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	c, ok := t.groups[name]
	return c, ok
}

// Wrapper returns a snapshot of the table; the caller owns the map.
func (t *Table) Wrapper() Wrapper {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return Wrapper{Groups: maps.Clone(t.groups), DataVersion: t.dataVersion}
}

// Put creates or replaces a group (Java updateSubscriptionGroupConfig). The
// attribute modifications follow Java's rules with its empty list of group
// attributes: any attribute is refused.
func (t *Table) Put(c Config) error {
	if err := ValidateGroupName(c.GroupName); err != nil {
		return err
	}
	for key := range c.Attributes {
		real := key
		if len(key) > 0 && (key[0] == '+' || key[0] == '-') {
			real = key[1:]
		}
		return fmt.Errorf("%w: unsupported key: %s", ErrAttributes, real)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	old, exists := t.groups[c.GroupName]
	if !exists && len(t.groups) >= MaxGroups {
		return fmt.Errorf("%w: the broker keeps at most %d", ErrTooManyGroups, MaxGroups)
	}
	// No attribute can be added, so the group keeps the ones it had.
	c.Attributes = maps.Clone(old.Attributes)
	if c.Attributes == nil {
		c.Attributes = map[string]string{}
	}
	t.groups[c.GroupName] = c
	return t.commitLocked()
}

// Delete removes a group; it reports false, changing nothing, when the
// group was not there (Java logs and answers success).
func (t *Table) Delete(name string) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.groups[name]; !ok {
		return false, nil
	}
	delete(t.groups, name)
	return true, t.commitLocked()
}

// commitLocked bumps the version (Java DataVersion.nextVersion) and persists.
func (t *Table) commitLocked() error {
	t.dataVersion = route.DataVersion{Counter: t.dataVersion.Counter + 1, Timestamp: t.now().UnixMilli(), StateVersion: t.dataVersion.StateVersion}
	if t.file == nil {
		return nil
	}
	if err := t.file.Write(Wrapper{Groups: t.groups, DataVersion: t.dataVersion}); err != nil {
		return fmt.Errorf("persist subscription groups: %w", err)
	}
	return nil
}
