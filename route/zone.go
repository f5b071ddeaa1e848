package route

import "strings"

// FilterByZone applies the zone filter of protocol.md 2.6.1 (Java
// ZoneRouteRPCHook) and returns a new route: a broker group is kept when it
// has no master (MasterID absent: "consume from a slave") or its ZoneName
// equals zone ignoring case; the queue datas of removed groups and the
// filter-server entries of their addresses are dropped. The caller decides
// whether the filter applies (__ZONE_MODE true and a non-blank __ZONE_NAME)
// and re-encodes the result plain (quirk Q3).
//
// d is not modified. The result shares the maps it does not change
// (BrokerAddrs, TopicQueueMappingByBroker, filter-server lists), so both are
// to be treated as read-only, as route snapshots are.
//
// A nil BrokerAddrs counts as empty (no master: kept). Java drops a group
// whose map is null, but a route this server builds or decodes from its own
// encoding never has a null map: the encoder writes {} for nil.
func FilterByZone(d *TopicRouteData, zone string) *TopicRouteData {
	out := &TopicRouteData{
		OrderTopicConf:            d.OrderTopicConf,
		TopicQueueMappingByBroker: d.TopicQueueMappingByBroker,
		BrokerDatas:               make([]BrokerData, 0, len(d.BrokerDatas)),
	}
	var removedNames map[string]struct{}
	var removedAddrs map[string]struct{}
	for _, group := range d.BrokerDatas {
		_, hasMaster := group.BrokerAddrs[MasterID]
		if !hasMaster || (group.ZoneName != "" && strings.EqualFold(group.ZoneName, zone)) {
			out.BrokerDatas = append(out.BrokerDatas, group)
			continue
		}
		if removedNames == nil {
			removedNames = map[string]struct{}{}
			removedAddrs = map[string]struct{}{}
		}
		removedNames[group.BrokerName] = struct{}{}
		for _, addr := range group.BrokerAddrs {
			removedAddrs[addr] = struct{}{}
		}
	}

	out.QueueDatas = make([]QueueData, 0, len(d.QueueDatas))
	for _, q := range d.QueueDatas {
		if _, removed := removedNames[q.BrokerName]; !removed {
			out.QueueDatas = append(out.QueueDatas, q)
		}
	}

	if d.FilterServerTable != nil {
		out.FilterServerTable = make(map[string][]string, len(d.FilterServerTable))
		for addr, servers := range d.FilterServerTable {
			if _, removed := removedAddrs[addr]; !removed {
				out.FilterServerTable[addr] = servers
			}
		}
	}
	return out
}
