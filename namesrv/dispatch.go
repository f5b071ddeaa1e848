package namesrv

import (
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// requestClass groups request codes by what they do, so that admission limits,
// authentication or allow-lists can later be attached per class in this one
// table (design.md, "coming next").
type requestClass int

const (
	classRouteRead  requestClass = iota // clients polling routes and lists
	classBrokerCtl                      // brokers registering, heartbeating, leaving
	classAdminRead                      // operators reading config and state
	classAdminWrite                     // operators changing config and state
)

// handlerSpec is one row of the dispatch table.
type handlerSpec struct {
	code  int32
	class requestClass
	// slow handlers take the route writer lock, write files, decode large
	// bodies or scan every topic (the topic lists: ~60-80 ms at 100,000
	// topics, which would hold up every connection of the event loop): they
	// run on the bounded worker pool, never on the event loop.
	slow    bool
	handler remoting.Handler
}

// handlerTable is the NameServer's whole dispatch table: every request code of
// protocol.md section 2. Codes not listed get REQUEST_CODE_NOT_SUPPORTED from
// the remoting server.
func (ns *NameServer) handlerTable() []handlerSpec {
	return []handlerSpec{
		{remoting.PUT_KV_CONFIG, classAdminWrite, true, ns.putKVConfig},
		{remoting.GET_KV_CONFIG, classAdminRead, false, ns.getKVConfig},
		{remoting.DELETE_KV_CONFIG, classAdminWrite, true, ns.deleteKVConfig},
		{remoting.GET_KVLIST_BY_NAMESPACE, classAdminRead, true, ns.getKVListByNamespace},

		{remoting.REGISTER_BROKER, classBrokerCtl, true, ns.registerBroker},
		{remoting.UNREGISTER_BROKER, classBrokerCtl, false, ns.unregisterBroker},
		{remoting.REGISTER_TOPIC_IN_NAMESRV, classBrokerCtl, true, ns.registerTopic},
		{remoting.QUERY_DATA_VERSION, classBrokerCtl, false, ns.queryDataVersion},
		{remoting.BROKER_HEARTBEAT, classBrokerCtl, false, ns.brokerHeartbeat},
		// Ours: a standalone controller's election notice (docs/controller.md).
		{wire.CodeNotifyNamesrvMasterElected, classBrokerCtl, true, ns.notifyNamesrvMasterElected},

		{remoting.GET_ROUTEINFO_BY_TOPIC, classRouteRead, false, ns.getRouteInfoByTopic},
		{remoting.GET_BROKER_CLUSTER_INFO, classRouteRead, false, ns.getBrokerClusterInfo},
		{remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, classRouteRead, true, ns.getAllTopicList},
		{remoting.GET_TOPICS_BY_CLUSTER, classRouteRead, true, ns.getTopicsByCluster},
		{remoting.GET_SYSTEM_TOPIC_LIST_FROM_NS, classRouteRead, false, ns.getSystemTopicList},
		{remoting.GET_UNIT_TOPIC_LIST, classRouteRead, true, ns.getUnitTopicList},
		{remoting.GET_HAS_UNIT_SUB_TOPIC_LIST, classRouteRead, true, ns.getHasUnitSubTopicList},
		{remoting.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST, classRouteRead, true, ns.getHasUnitSubUnUnitTopicList},
		{remoting.GET_BROKER_MEMBER_GROUP, classRouteRead, false, ns.getBrokerMemberGroup},

		{remoting.WIPE_WRITE_PERM_OF_BROKER, classAdminWrite, true, ns.wipeWritePermOfBroker},
		{remoting.ADD_WRITE_PERM_OF_BROKER, classAdminWrite, true, ns.addWritePermOfBroker},
		{remoting.DELETE_TOPIC_IN_NAMESRV, classAdminWrite, true, ns.deleteTopicInNamesrv},
		{remoting.UPDATE_NAMESRV_CONFIG, classAdminWrite, true, ns.updateNamesrvConfig},
		{remoting.GET_NAMESRV_CONFIG, classAdminRead, false, ns.getNamesrvConfig},
	}
}

// bodyCodes are the request codes that carry a body (a topic table, a
// topic's route, a DataVersion, config properties). Every other code of the
// table takes its arguments in the header: a body sent with one is refused
// before its signature is checked, so a peer cannot make the server compute
// an HMAC over megabytes it would then ignore.
var bodyCodes = map[int32]bool{
	remoting.REGISTER_BROKER:           true,
	remoting.REGISTER_TOPIC_IN_NAMESRV: true,
	remoting.QUERY_DATA_VERSION:        true,
	remoting.UPDATE_NAMESRV_CONFIG:     true,
}

// quickHandlers are tried on the event loop before the slow handler of
// their code (remoting.TryFirst), while its class is unguarded: they have
// no access check of their own.
func (ns *NameServer) quickHandlers() map[int32]remoting.Handler {
	return map[int32]remoting.Handler{remoting.REGISTER_BROKER: ns.quickRegisterBroker,
		remoting.GET_KVLIST_BY_NAMESPACE: ns.quickKVList}
}

// adminPool is the worker pool of the slow admin writes (KV and config
// changes, perm changes, topic deletes), apart from the default pool of the
// brokers' registrations: an operator draining a broker's write permission
// during a registration storm is answered at once, not behind 10,000 queued
// registrations or SYSTEM_BUSY. Two workers: the writes fsync files or take
// the route writer lock, so more would only wait.
const (
	adminPool        = "admin"
	adminPoolWorkers = 2
	adminPoolQueue   = 1000
)

// handleOptions says where a handler runs: on the event loop, the admin
// pool (slow admin writes), the list pool (topic lists, and the KV list of a
// namespace not encoded since its last change) or the default pool (other
// slow handlers).
func (spec handlerSpec) handleOptions() []remoting.HandleOption {
	switch {
	case !spec.slow:
		return nil
	case spec.class == classAdminWrite:
		return []remoting.HandleOption{remoting.SlowIn(adminPool)}
	case spec.class == classRouteRead, spec.class == classAdminRead:
		return []remoting.HandleOption{remoting.SlowIn(listPool)}
	default:
		return []remoting.HandleOption{remoting.Slow()}
	}
}

func (ns *NameServer) registerHandlers() {
	quick := ns.quickHandlers()
	for _, spec := range ns.handlerTable() {
		opts := spec.handleOptions()
		if q, ok := quick[spec.code]; ok && spec.slow && !ns.acl.Guards(aclClasses[spec.class]) {
			opts = append(opts, remoting.TryFirst(q))
		}
		ns.server.Handle(spec.code, ns.guarded(spec), opts...)
	}
	// The fast path answers from the frame's bytes: route reads always (with
	// ACL on, those fastRouteAdmitted admits), broker control only while it
	// is unguarded (ACL off).
	ns.registerKVSync() // ours, checked by the handlers themselves (kv_sync.go)
	ns.routeReadGuarded = ns.acl.Guards(aclClasses[classRouteRead])
	ns.server.HandleFastRoute(ns.fastRoute)
	if !ns.acl.Guards(aclClasses[classBrokerCtl]) {
		ns.server.HandleFastHeartbeat(ns.fastHeartbeat)
		ns.server.HandleFastDataVersion(ns.fastDataVersion)
	}
}

// success answers code 0 with no remark.
func success(req *remoting.Command) *remoting.Command {
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}

// systemError answers SYSTEM_ERROR with the remark an operator reads.
func systemError(req *remoting.Command, remark string) *remoting.Command {
	return remoting.NewResponse(req, remoting.SYSTEM_ERROR, remark)
}

// withExt attaches a response header: Java writes "extFields":{} even when
// every field of an attached header is null, and peers' recorded answers show it.
func withExt(resp *remoting.Command, header any) *remoting.Command {
	resp.ExtFields = remoting.EncodeHeader(header)
	return resp
}
