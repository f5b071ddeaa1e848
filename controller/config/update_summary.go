package config

import (
	"slices"
	"strings"
)

// restartKeys are the keys changeable online whose new value applies at
// the next start: the period of a loop started with the node.
var restartKeys = []string{"scanInactiveMasterInterval"}

// UpdateSummary is the remark of a successful UPDATE_CONTROLLER_CONFIG:
// which keys changed from old to next and take effect at once, and which
// wait for a restart. Java answers no remark; Java tools ignore a
// success's remark, and mqadmin prints it.
func UpdateSummary(old, next *Config) string {
	before, after := old.Values(), next.Values()
	var now, restart []string
	for _, key := range Keys() {
		if before[key] == after[key] {
			continue
		}
		if slices.Contains(restartKeys, key) {
			restart = append(restart, key)
		} else {
			now = append(now, key)
		}
	}
	if len(now)+len(restart) == 0 {
		return "no key changed"
	}
	var parts []string
	if len(now) > 0 {
		parts = append(parts, "changed now: "+strings.Join(now, ", "))
	}
	if len(restart) > 0 {
		parts = append(parts, "changed, waits for a restart: "+strings.Join(restart, ", "))
	}
	return strings.Join(parts, "; ")
}
