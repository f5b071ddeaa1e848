package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// What an update did, for updateNamesrvConfig and updateControllerConfig:
// the server's settings are read before and after it (GET_NAMESRV_CONFIG,
// GET_CONTROLLER_CONFIG: the update's answer stays Java's, code 0 and no
// remark), and each server's line names the keys that changed now and
// those that wait for a restart, or says that no key changed: a typo or a
// value equal to the running one is seen, where Java printed success!.

// configView is one server's settings as its GET answered them: key=value
// lines, and the keys it lists as pending a restart (our NameServer's
// "# pending restart: KEY=..." comment lines).
type configView struct {
	values  map[string]string
	pending map[string]bool
}

// parseConfigView reads a GET_NAMESRV_CONFIG or GET_CONTROLLER_CONFIG body.
func parseConfigView(body []byte) configView {
	v := configView{values: parseProperties(body), pending: map[string]bool{}}
	for _, line := range strings.Split(string(body), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), pendingRestartPrefix); ok {
			key, _, _ := strings.Cut(rest, "=")
			v.pending[key] = true
		}
	}
	return v
}

// updateSummary compares a server's settings before and after an update;
// atRestart says whether a changed key waits for a restart (after's
// pending list for a NameServer, the controller's rule for a controller).
func updateSummary(before, after configView, atRestart func(key string, after configView) bool) string {
	var now, restart []string
	keys := slices.Sorted(maps.Keys(after.values))
	for key := range before.values {
		if _, ok := after.values[key]; !ok {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	for _, key := range keys {
		old, hadOld := before.values[key]
		next, hasNext := after.values[key]
		if hadOld == hasNext && old == next {
			continue
		}
		if atRestart(key, after) {
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

// pendingAfter is the NameServer's rule: a changed key it lists as pending
// a restart waits for one.
func pendingAfter(key string, after configView) bool { return after.pending[key] }

// printUpdateSummaries prints one "ADDR: summary" line per server asked, in
// order; a server whose settings could not be read before or after is
// listed as such.
func printUpdateSummaries(w io.Writer, addrs []string, summaries map[string]string) {
	for _, addr := range addrs {
		summary, asked := summaries[addr]
		if !asked {
			continue
		}
		if summary == "" {
			summary = "updated (its settings could not be read to say which keys changed)"
		}
		fmt.Fprintf(w, "%s: %s\n", addr, summary)
	}
}
