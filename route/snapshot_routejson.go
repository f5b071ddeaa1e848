package route

import (
	"slices"
	"unique"
)

// RouteQuery says how a route answer is encoded.
type RouteQuery struct {
	// Standard selects the standard JSON flavour (request version >=
	// VersionV4_9_4 or acceptStandardJsonOnly), plain otherwise.
	Standard bool
	// OrderTopicConf is the KV value ORDER_TOPIC_CONFIG/topic when the
	// daemon's orderMessageEnable is on; "" for none.
	OrderTopicConf string
}

// RouteJSON appends the GET_ROUTEINFO_BY_TOPIC body of topic to dst, byte for
// byte what EncodeTopicRouteData writes for PickupTopicRouteData, and says
// whether there is a route (dst is returned unchanged when not). It takes no
// lock and, in the common case, allocates nothing and encodes nothing: the
// answer is assembled from JSON fragments cached on the immutable records
// (each group's BrokerData, each topic's queueDatas array, each static
// mapping), so a registration that changes one group re-encodes that group
// once instead of invalidating every route that names it.
func (m *Manager) RouteJSON(dst []byte, topic string, q RouteQuery) ([]byte, bool) {
	s := m.current.Load()
	entry, ok := s.topics.get(topic)
	if !ok {
		return dst, false
	}
	if len(s.filters.servers) > 0 {
		return s.encodeRoute(dst, topic, q) // filter servers: per-route table
	}
	start := len(dst)
	queueDatas := entry.encodedQueueDatas(q.Standard)
	cached := &entry.brokers[encodingIndex(q.Standard)]
	if c := cached.Load(); c != nil && c.routesVersion == s.routesVersion {
		// The groups, mappings, filters and settings are those the cache
		// was built under: the brokers part is what the loop below writes,
		// without a lookup per queue data.
		dst = slices.Grow(dst, len(c.json)+len(queueDatas)+len(q.OrderTopicConf)+64)
		return s.finishRouteJSON(append(dst, c.json...), topic, q, queueDatas), true
	}
	// One allocation for the whole answer: a group's BrokerData is at most twice as long as its QueueData.
	dst = slices.Grow(dst, 3*len(queueDatas)+len(q.OrderTopicConf)+64)
	dst = append(dst, `{"brokerDatas":[`...)
	found := false
	for i := range entry.queueDatas {
		group, ok := s.groups.get(entry.queueDatas[i].BrokerName)
		if !ok {
			continue
		}
		if s.cfg.SupportActingMaster && len(group.data.BrokerAddrs) > 0 && !group.hasMaster() {
			return s.encodeRoute(dst[:start], topic, q) // acting-master rewrite: per-route groups
		}
		if found {
			dst = append(dst, ',')
		}
		dst = append(dst, group.encodedJSON(q.Standard)...)
		found = true
	}
	if !found {
		return dst[:start], false
	}
	dst = append(dst, `],"filterServerTable":{}`...)
	cached.Store(&brokerDatasJSON{routesVersion: s.routesVersion, json: unique.Make(string(dst[start:])).Value()})
	return s.finishRouteJSON(dst, topic, q, queueDatas), true
}

// finishRouteJSON writes what follows the brokerDatas and the filter
// servers in a route: the order config, the queue datas and the topic's
// static mapping.
func (s *snapshot) finishRouteJSON(dst []byte, topic string, q RouteQuery, queueDatas string) []byte {
	if q.OrderTopicConf != "" {
		dst = appendJSONString(append(dst, `,"orderTopicConf":`...), q.OrderTopicConf, q.Standard)
	}
	dst = append(append(dst, `,"queueDatas":`...), queueDatas...)
	if mapping := s.mappings[topic]; mapping != nil {
		dst = append(append(dst, `,"topicQueueMappingByBroker":`...), mapping.encodedJSON(q.Standard)...)
	}
	return append(dst, '}')
}

// encodeRoute is the general path of RouteJSON: build (or reuse) the route
// and encode it whole.
func (s *snapshot) encodeRoute(dst []byte, topic string, q RouteQuery) ([]byte, bool) {
	route := s.routeOf(topic)
	if route == nil {
		return dst, false
	}
	if q.OrderTopicConf != "" {
		withOrder := *route
		withOrder.OrderTopicConf = q.OrderTopicConf
		route = &withOrder
	}
	return EncodeTopicRouteData(dst, route, q.Standard), true
}
