package kvconfig

import "maps"

// All returns a copy of the whole store, namespace -> key -> value, for the
// operators' view.
func (s *Store) All() map[string]map[string]string {
	table := *s.table.Load()
	all := make(map[string]map[string]string, len(table))
	for namespace, kv := range table {
		all[namespace] = maps.Clone(kv)
	}
	return all
}
