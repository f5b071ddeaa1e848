package broker

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/route"
)

// Online settings: what GET_BROKER_CONFIG shows and UPDATE_BROKER_CONFIG
// changes (mqadmin getBrokerConfig / updateBrokerConfig). Java's broker sets
// any key it has, most of them without effect until a restart, and rewrites
// broker.conf with every key; this broker changes only the keys it can apply
// while running and keeps them in memory: broker.conf stays as the operator
// wrote it, so a change to keep goes into broker.conf as well.

// onlineKeys are the keys an update applies at once: namesrvAddr (the
// registration agent's NameServer list) and brokerPermission (the perm
// ANDed into every registered topic, with a new DataVersion so the
// NameServers take it, as Java does).
var onlineKeys = map[string]bool{"namesrvAddr": true, "brokerPermission": true}

// blackListedKeys are Java's configBlackList defaults plus rocketmqHome.
var blackListedKeys = map[string]bool{"brokerConfigPath": true, "rocketmqHome": true, "configBlackList": true}

// errNotStarted refuses an update that arrives before the agent exists.
var errNotStarted = errors.New("the broker is still starting; try again")

// onlineConfig is the broker's settings: the start config with the online
// changes, and their version.
type onlineConfig struct {
	b *Broker

	mu      sync.Mutex // serialises updates and guards the fields below
	cfg     Config
	version route.DataVersion
}

func newOnlineConfig(b *Broker) *onlineConfig {
	return &onlineConfig{b: b, cfg: b.cfg, version: route.DataVersion{Timestamp: b.boot.UnixMilli()}}
}

// Properties returns the effective settings (secretKey never) and their version.
func (o *onlineConfig) Properties() (map[string]string, route.DataVersion) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.cfg.Properties(), o.version
}

// Update checks every key first and applies them only when all pass.
func (o *onlineConfig) Update(props map[string]string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	next := o.cfg
	setters := next.setters()
	known := slices.Sorted(maps.Keys(setters))
	for _, key := range slices.Sorted(maps.Keys(props)) {
		value := props[key]
		set, ok := setters[key]
		switch {
		case blackListedKeys[key]:
			return fmt.Errorf("%w: %s", admin.ErrBlackListed, key)
		case !ok:
			hint := ""
			if closest := javaprops.Closest(key, known); closest != "" {
				hint = " (closest known key: " + closest + ")"
			}
			return fmt.Errorf("unknown key %s%s; nothing was applied", key, hint)
		case !onlineKeys[key]:
			return fmt.Errorf("%s applies only at start: set it in broker.conf and restart (keys changed online: namesrvAddr, brokerPermission); nothing was applied", key)
		}
		if err := set(value); err != nil {
			return fmt.Errorf("%s=%q: %w; nothing was applied", key, value, err)
		}
	}
	if err := checkOnline(next); err != nil {
		return fmt.Errorf("%w; nothing was applied", err)
	}
	a := o.b.agent.Load()
	if a == nil {
		return errNotStarted
	}
	if next.BrokerPermission != o.cfg.BrokerPermission {
		if err := o.b.store.NextVersion(); err != nil {
			return fmt.Errorf("brokerPermission: %w; nothing was applied", err)
		}
		a.SetBrokerPermission(next.BrokerPermission)
	}
	if next.NamesrvAddr != o.cfg.NamesrvAddr {
		a.SetNameServers(next.NameServers())
	}
	o.cfg = next
	o.version = route.DataVersion{Counter: o.version.Counter + 1, Timestamp: time.Now().UnixMilli()}
	return nil
}

// checkOnline checks the values of the online keys.
func checkOnline(c Config) error {
	switch c.BrokerPermission {
	case route.PermRead, route.PermWrite, route.PermRead | route.PermWrite:
	default:
		return fmt.Errorf("brokerPermission=%d: must be 2 (write), 4 (read) or 6 (read and write)", c.BrokerPermission)
	}
	for _, addr := range c.NameServers() {
		if _, port, err := net.SplitHostPort(addr); err != nil || port == "" {
			return fmt.Errorf("namesrvAddr: %q is not host:port", addr)
		}
	}
	return nil
}
