package route

import (
	"maps"
	"strings"
)

// routeSnapshot is a route built from one topicEntry, valid as long as what
// it was built from is unchanged: the group of each queue data's broker name
// (compared by pointer, nil when absent), the filter-server table, the topic's
// static mapping and the acting-master setting.
type routeSnapshot struct {
	groups       []*brokerGroup // by index of topicEntry.queueDatas
	filters      *filterTable
	mapping      *topicMapping
	actingMaster bool
	route        *TopicRouteData // nil: no route (no broker name has a group)
}

// validFor says whether the route still describes topic in s.
func (r *routeSnapshot) validFor(s *snapshot, e *topicEntry, mapping *topicMapping) bool {
	if r.filters != s.filters || r.mapping != mapping || r.actingMaster != s.cfg.SupportActingMaster {
		return false
	}
	for i := range e.queueDatas {
		group, _ := s.groups.get(e.queueDatas[i].BrokerName)
		if group != r.groups[i] {
			return false
		}
	}
	return true
}

// routeOf returns the route of topic in s (pickupTopicRouteData, 4.7),
// reusing the one cached on the topic entry when it is still valid.
func (s *snapshot) routeOf(topic string) *TopicRouteData {
	entry, ok := s.topics.get(topic)
	if !ok {
		return nil
	}
	mapping := s.mappings[topic]
	if cached := entry.route.Load(); cached != nil && cached.validFor(s, entry, mapping) {
		return cached.route
	}
	built := s.buildRoute(topic, entry, mapping)
	entry.route.Store(built)
	return built.route
}

// buildRoute makes the route of one topic from the snapshot.
func (s *snapshot) buildRoute(topic string, entry *topicEntry, mapping *topicMapping) *routeSnapshot {
	built := &routeSnapshot{
		groups:       make([]*brokerGroup, len(entry.queueDatas)),
		filters:      s.filters,
		mapping:      mapping,
		actingMaster: s.cfg.SupportActingMaster,
	}
	route := &TopicRouteData{
		QueueDatas:        entry.queueDatas,
		BrokerDatas:       make([]BrokerData, 0, len(entry.queueDatas)),
		FilterServerTable: map[string][]string{},
	}
	for i := range entry.queueDatas {
		group, ok := s.groups.get(entry.queueDatas[i].BrokerName)
		if !ok {
			continue // its queue data is still returned (4.7 step 3)
		}
		built.groups[i] = group
		route.BrokerDatas = append(route.BrokerDatas, group.data)
		for _, addr := range group.data.BrokerAddrs {
			if servers, ok := s.filters.servers[brokerAddrInfo{cluster: group.data.Cluster, addr: addr}]; ok {
				route.FilterServerTable[addr] = servers
			}
		}
	}
	if len(route.BrokerDatas) == 0 {
		return built // step 5: no group, no route
	}
	if mapping != nil {
		route.TopicQueueMappingByBroker = mapping.byBroker
	}
	if needsActingMaster(s.cfg, topic, route.BrokerDatas) {
		applyActingMaster(route)
	}
	built.route = route
	return built
}

// needsActingMaster is the condition of 4.7 step 7: the setting is on, the
// topic is not a member-sync topic, and some group has members but no master.
func needsActingMaster(cfg Config, topic string, groups []BrokerData) bool {
	if !cfg.SupportActingMaster || strings.HasPrefix(topic, SyncBrokerMemberGroupPrefix) {
		return false
	}
	for i := range groups {
		if len(groups[i].BrokerAddrs) > 0 {
			if _, ok := groups[i].BrokerAddrs[MasterID]; !ok {
				return true
			}
		}
	}
	return false
}

// applyActingMaster shows, in route's own copies, the smallest-id slave of a
// masterless group with acting master enabled as id 0, when that group's
// queue data is not writable.
func applyActingMaster(route *TopicRouteData) {
	for i := range route.BrokerDatas {
		group := &route.BrokerDatas[i]
		if _, hasMaster := group.BrokerAddrs[MasterID]; hasMaster || len(group.BrokerAddrs) == 0 || !group.EnableActingMaster {
			continue
		}
		for _, qd := range route.QueueDatas {
			if qd.BrokerName != group.BrokerName {
				continue
			}
			if qd.Perm&PermWrite == 0 {
				actingID, _ := minKey(group.BrokerAddrs)
				addrs := maps.Clone(group.BrokerAddrs)
				delete(addrs, actingID)
				addrs[MasterID] = group.BrokerAddrs[actingID]
				group.BrokerAddrs = addrs
			}
			break
		}
	}
}

// PickupTopicRouteData returns the route of topic (Java
// pickupTopicRouteData), false when there is none. The route is shared and
// immutable: callers must not modify it (FilterByZone builds a new one).
func (m *Manager) PickupTopicRouteData(topic string) (*TopicRouteData, bool) {
	route := m.current.Load().routeOf(topic)
	return route, route != nil
}
