package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// onlineKeys are the only keys UPDATE_CONTROLLER_CONFIG (1009) may change:
// intervals, counts and switches of the election policy, none of which moves
// the store, the group's membership, a listening port or a bound. Every other
// key, including any key added later, is refused over the wire unless it is
// listed here: paths (a node restarted on another controllerStorePath runs on
// an empty store), ids, groups and peers (membership), ports and addresses,
// TLS and ACL keys, the Raft engine's timing and log keys (every node of a
// group must agree on them), the pools (sized at start) and the bounds (one
// widened over the wire is no bound). Those belong in the -c file.
var onlineKeys = []string{
	"scanNotActiveBrokerInterval",
	"scanInactiveMasterInterval",
	"electMasterMaxRetryCount",
	"enableElectUncleanMaster",
	"notifyBrokerRoleChanged",
	"processReadEvent",
	"controllerCommitTimeoutMillis",
}

// OnlineKeys returns the keys UPDATE_CONTROLLER_CONFIG may change, in
// declaration order.
func OnlineKeys() []string {
	var keys []string
	for _, k := range Keys() {
		if ChangeableOnline(k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// ChangeableOnline says whether UPDATE_CONTROLLER_CONFIG may change key.
func ChangeableOnline(key string) bool { return slices.Contains(onlineKeys, key) }

// checkOnline refuses one key=value of an UPDATE_CONTROLLER_CONFIG: a key
// no setting has, a key not changeable online, or a boolean that is neither
// true nor false (Java's rule reads any other word as false, which over the
// wire is a typo, not a choice). The error names the key.
func checkOnline(key, value string) error {
	field, known := fields.Lookup(key)
	switch {
	case !known:
		if closest := javaprops.Closest(key, Keys()); closest != "" {
			return fmt.Errorf("%w: %s (closest known key: %s)", ErrUnknownKey, key, closest)
		}
		return fmt.Errorf("%w: %s", ErrUnknownKey, key)
	case !ChangeableOnline(key):
		return fmt.Errorf("%s cannot be changed over the wire (only %s can; set it in the -c file and restart)",
			key, strings.Join(onlineKeys, ", "))
	case field.Kind == reflect.Bool:
		if v := javaprops.TrimJava(value); !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
			return fmt.Errorf("%s=%q: want true or false", key, value)
		}
	}
	return nil
}

// Known says whether key is a controller setting: the NameServer refuses
// these over its own UPDATE_NAMESRV_CONFIG (namesrv/config), since with
// enableControllerInNamesrv its -c file is the embedded controller's.
func Known(key string) bool {
	_, ok := fields.Lookup(key)
	return ok
}
