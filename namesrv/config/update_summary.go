package config

import "strings"

// UpdateSummary is the remark of a successful UPDATE_NAMESRV_CONFIG: which
// keys changed and take effect at once, and which wait for a restart (not
// live, see live.go). Java answers no remark; Java tools ignore a success's
// remark, and mqadmin prints it so that an operator sees what happened.
func UpdateSummary(changed []string) string {
	var now, restart []string
	for _, key := range changed {
		if IsLive(key) {
			now = append(now, key)
		} else {
			restart = append(restart, key)
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
