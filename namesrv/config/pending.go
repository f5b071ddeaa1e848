package config

import (
	"maps"
	"slices"
	"strings"
)

// Values pending a restart. An update over the wire stores every key it
// sets, but only the live ones (LiveKeys) apply at once; the rest apply at
// the next start. GET_NAMESRV_CONFIG and /v1/config showed the stored value
// as if it ran. Now they also say which keys are pending and what runs.

// PendingPrefix starts the comment line GET_NAMESRV_CONFIG appends for each
// pending key: a Java properties reader (mqadmin getNamesrvConfig) skips
// '#' lines, so the key=value lines stay what Java tools parse.
const PendingPrefix = "# pending restart: "

// Pending is a key whose stored value applies only at the next start.
type Pending struct {
	Running string `json:"running"` // the value in force since the start
	Next    string `json:"next"`    // the value stored, in force after a restart
}

// PendingRestart lists the keys that are not live whose stored value differs
// from the one the server started with (secrets left out).
func (s *Settings) PendingRestart() map[string]Pending {
	started, current := s.started.Values(), s.Get().Values()
	pending := map[string]Pending{}
	for key, next := range current {
		if running := started[key]; running != next && !IsLive(key) && !IsSecretKey(key) {
			pending[key] = Pending{Running: running, Next: next}
		}
	}
	return pending
}

// pendingComments is the comment lines of PendingRestart, sorted by key.
func (s *Settings) pendingComments() []byte {
	pending := s.PendingRestart()
	var b strings.Builder
	for _, key := range slices.Sorted(maps.Keys(pending)) {
		p := pending[key]
		b.WriteString(PendingPrefix + key + "=" + p.Next + " (running: " + p.Running + ")\n")
	}
	return []byte(b.String())
}
