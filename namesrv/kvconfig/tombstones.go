package kvconfig

import (
	"maps"
	"slices"
)

// capTombstones forgets the oldest tombstones of meta past max, copying the
// namespaces it changes, and returns how many it forgot. Tombstones are not
// keys of the store and no key limit counts them: without this bound a loop
// of deletes of keys that do not exist (each one leaves a tombstone, so that
// a peer that has the key deletes it too) would grow the versions file for
// TombstoneRetention. A tombstone forgotten early lets a peer that still has
// its key hand it back, which the log says.
func capTombstones(meta metaTable, max int) int {
	type tomb struct {
		namespace, key string
		version        Version
	}
	var tombs []tomb
	for namespace, kv := range meta {
		for key, m := range kv {
			if m.Deleted {
				tombs = append(tombs, tomb{namespace, key, m.Version})
			}
		}
	}
	if len(tombs) <= max {
		return 0
	}
	slices.SortFunc(tombs, func(a, b tomb) int { return a.version.Compare(b.version) })
	excess := tombs[:len(tombs)-max]
	copied := map[string]bool{}
	for _, t := range excess {
		if !copied[t.namespace] {
			meta[t.namespace] = maps.Clone(meta[t.namespace])
			copied[t.namespace] = true
		}
		delete(meta[t.namespace], t.key)
		if len(meta[t.namespace]) == 0 {
			delete(meta, t.namespace)
		}
	}
	return len(excess)
}
