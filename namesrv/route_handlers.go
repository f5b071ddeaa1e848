package namesrv

import (
	"strings"
	"time"

	"github.com/gonamesrv/gonamesrv/namesrv/kvconfig"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// faqURL ends the TOPIC_NOT_EXIST remark exactly as Java's FAQUrl.suggestTodo does.
const faqURL = "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."

// getRouteInfoByTopic answers where a topic lives (GET_ROUTEINFO_BY_TOPIC, 105).
// It runs on the event loop: the route comes from an immutable snapshot, as
// cached bytes when nothing changed since the last query of the same flavour.
func (ns *NameServer) getRouteInfoByTopic(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	cfg := ns.settings.Get()
	if cfg.NeedWaitForService && time.Since(ns.startedAt) < time.Duration(cfg.WaitSecondsForService)*time.Second {
		return systemError(req, "name server not ready")
	}
	var h getRouteInfoRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	var orderConf string
	if cfg.OrderMessageEnable {
		orderConf, _ = ns.kv.Get(kvconfig.OrderTopicConfigNamespace, h.Topic)
	}
	standard := req.Version >= route.VersionV4_9_4 || h.AcceptStandardJSONOnly

	if h.ZoneMode && strings.TrimSpace(h.ZoneName) != "" {
		body, found := ns.zoneFilteredRoute(h.Topic, h.ZoneName, orderConf)
		if !found {
			return topicNotExist(req, h.Topic)
		}
		resp := success(req)
		resp.Body = body
		return resp
	}
	buf := ns.answerBuffers.Lend()
	body, found := ns.routes.RouteJSON(*buf, h.Topic, route.RouteQuery{Standard: standard, OrderTopicConf: orderConf})
	if !found {
		ns.answerBuffers.Return(buf)
		return topicNotExist(req, h.Topic)
	}
	resp := success(req)
	resp.SetLentBody(body, buf, &ns.answerBuffers)
	return resp
}

// topicNotExist is Java's answer for a topic without a route.
func topicNotExist(req *remoting.Command, topic string) *remoting.Command {
	return remoting.NewResponse(req, remoting.TOPIC_NOT_EXIST, "No topic route info in name server for the topic: "+topic+faqURL)
}

// zoneFilteredRoute applies the zone filter of protocol.md 2.6.1 and, like
// Java, encodes the result plain whatever the client asked for (quirk Q3).
func (ns *NameServer) zoneFilteredRoute(topic, zone, orderConf string) ([]byte, bool) {
	data, ok := ns.routes.PickupTopicRouteData(topic)
	if !ok {
		return nil, false
	}
	filtered := route.FilterByZone(data, zone)
	if orderConf != "" {
		filtered.OrderTopicConf = orderConf
	}
	return route.EncodeTopicRouteData(nil, filtered, false), true
}

// getBrokerClusterInfo answers with every broker group and cluster (106),
// always in the plain encoding (quirk Q2).
func (ns *NameServer) getBrokerClusterInfo(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	resp := success(req)
	resp.Body = ns.routes.ClusterInfoJSON() // shared, cached until the tables change
	return resp
}

// topicListResponse answers a topic list query with its encoded body, which
// the route manager caches until the tables change (it is shared: never
// modified), or "disable" when the switch that gates it is off.
func topicListResponse(req *remoting.Command, enabled bool, encoded func() []byte) *remoting.Command {
	if !enabled {
		return systemError(req, "disable")
	}
	resp := success(req)
	resp.Body = encoded()
	return resp
}

func (ns *NameServer) getAllTopicList(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return topicListResponse(req, ns.settings.Get().EnableAllTopicList, ns.routes.AllTopicListJSON)
}

func (ns *NameServer) getTopicsByCluster(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	if !ns.settings.Get().EnableTopicList {
		return systemError(req, "disable")
	}
	var h getTopicsByClusterRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	return topicListResponse(req, true, func() []byte { return ns.routes.TopicsByClusterJSON(h.Cluster) })
}

func (ns *NameServer) getSystemTopicList(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return topicListResponse(req, true, ns.routes.SystemTopicListJSON)
}

func (ns *NameServer) getUnitTopicList(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return topicListResponse(req, ns.settings.Get().EnableTopicList, ns.routes.UnitTopicListJSON)
}

func (ns *NameServer) getHasUnitSubTopicList(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return topicListResponse(req, ns.settings.Get().EnableTopicList, ns.routes.HasUnitSubTopicListJSON)
}

func (ns *NameServer) getHasUnitSubUnUnitTopicList(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return topicListResponse(req, ns.settings.Get().EnableTopicList, ns.routes.HasUnitSubUnUnitTopicListJSON)
}

// getBrokerMemberGroup lists one group's members (901). Java answers code 0
// with the remark "not set any response code" (quirk Q5); we keep it so the
// recorded answers match byte for byte.
func (ns *NameServer) getBrokerMemberGroup(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h getBrokerMemberGroupRequestHeader
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return systemError(req, err.Error())
	}
	group := route.GetBrokerMemberGroupResponseBody{BrokerMemberGroup: route.BrokerMemberGroup{
		Cluster:     h.ClusterName,
		BrokerName:  h.BrokerName,
		BrokerAddrs: ns.routes.BrokerMemberGroup(h.ClusterName, h.BrokerName),
	}}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "not set any response code")
	resp.Body = route.EncodeGetBrokerMemberGroupResponseBody(nil, &group)
	return resp
}
