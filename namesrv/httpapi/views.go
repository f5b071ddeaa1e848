package httpapi

import (
	"bufio"
	"encoding/json"
	"net/http"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/mqversion"
	"github.com/gonamesrv/gonamesrv/namesrv/metrics"
	"github.com/gonamesrv/gonamesrv/route"
)

// Paging of /v1/topics and /v1/brokers.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	_ = enc.Encode(v)
}

// writeError answers {"error": msg}.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// ClusterView is one cluster of /v1/clusters.
type ClusterView struct {
	Name    string            `json:"name"`
	Brokers []BrokerGroupView `json:"brokers"`
}

// BrokerGroupView is one broker name: its addresses by broker id.
type BrokerGroupView struct {
	BrokerName string            `json:"brokerName"`
	Zone       string            `json:"zone,omitempty"`
	Addrs      map[string]string `json:"addrs"` // broker id -> address
}

func clusterViews(info route.ClusterInfo) []ClusterView {
	names := make([]string, 0, len(info.ClusterAddrTable))
	for name := range info.ClusterAddrTable {
		names = append(names, name)
	}
	sort.Strings(names)
	views := make([]ClusterView, 0, len(names))
	for _, name := range names {
		view := ClusterView{Name: name, Brokers: []BrokerGroupView{}}
		for _, brokerName := range info.ClusterAddrTable[name] {
			group := BrokerGroupView{BrokerName: brokerName, Addrs: map[string]string{}}
			if data, ok := info.BrokerAddrTable[brokerName]; ok {
				group.Zone = data.ZoneName
				for id, addr := range data.BrokerAddrs {
					group.Addrs[strconv.FormatInt(id, 10)] = addr
				}
			}
			view.Brokers = append(view.Brokers, group)
		}
		views = append(views, view)
	}
	return views
}

func clusters(src *Source, w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"clusters": clusterViews(src.Routes.ClusterInfo())})
}

// BrokerView is one live broker of /v1/brokers.
type BrokerView struct {
	Cluster                  string          `json:"cluster"`
	BrokerName               string          `json:"brokerName"`
	BrokerAddr               string          `json:"brokerAddr"`
	BrokerID                 int64           `json:"brokerId"`
	Role                     string          `json:"role"` // master, slave, or unknown (id not in its group)
	Version                  int32           `json:"version"`
	VersionName              string          `json:"versionName"` // Java's MQVersion name, e.g. V5_3_3
	Zone                     string          `json:"zone,omitempty"`
	HAServerAddr             string          `json:"haServerAddr,omitempty"`
	DataVersion              DataVersionView `json:"dataVersion"`
	HeartbeatTimeoutMillis   int64           `json:"heartbeatTimeoutMillis"`
	SinceLastRegisterMillis  int64           `json:"sinceLastRegisterMillis"`
	SinceLastHeartbeatMillis int64           `json:"sinceLastHeartbeatMillis"`
	TopicCount               int             `json:"topicCount"`
	ConnectionID             uint64          `json:"connectionId"`
	ConnectionRemote         string          `json:"connectionRemote,omitempty"`
	WritePermWiped           bool            `json:"writePermWiped"`
}

// DataVersionView is a DataVersion with its Java field names.
type DataVersionView struct {
	Counter      int64 `json:"counter"`
	StateVersion int64 `json:"stateVersion"`
	Timestamp    int64 `json:"timestamp"`
}

func brokerView(src *Source, v route.LiveBrokerView, nowMillis int64) BrokerView {
	role := "slave"
	switch {
	case v.BrokerID == route.MasterID:
		role = "master"
	case v.BrokerID < 0:
		role = "unknown"
	}
	return BrokerView{
		Cluster: v.Cluster, BrokerName: v.BrokerName, BrokerAddr: v.BrokerAddr, BrokerID: v.BrokerID, Role: role,
		Version: v.Version, VersionName: mqversion.Name(v.Version), Zone: v.ZoneName, HAServerAddr: v.HAServerAddr,
		DataVersion:            DataVersionView{v.DataVersion.Counter, v.DataVersion.StateVersion, v.DataVersion.Timestamp},
		HeartbeatTimeoutMillis: v.HeartbeatTimeoutMillis, SinceLastRegisterMillis: max(0, nowMillis-v.LastRegisterMillis),
		SinceLastHeartbeatMillis: max(0, nowMillis-v.LastUpdateMillis), TopicCount: v.TopicCount,
		ConnectionID: uint64(v.Conn), ConnectionRemote: src.RemoteOf(v.Conn), WritePermWiped: v.WritePermWiped,
	}
}

// page reads ?offset= and ?limit=; a bad value is an error.
func page(r *http.Request) (offset, limit int, err error) {
	offset, limit = 0, DefaultPageLimit
	if s := r.URL.Query().Get("offset"); s != "" {
		if offset, err = strconv.Atoi(s); err != nil || offset < 0 {
			return 0, 0, errBadParam("offset", s)
		}
	}
	if s := r.URL.Query().Get("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > MaxPageLimit {
			return 0, 0, errBadParam("limit", s)
		}
	}
	return offset, limit, nil
}

type paramError struct{ name, value string }

func (e paramError) Error() string {
	if e.name == "limit" {
		return "limit=" + strconv.Quote(e.value) + " must be a number from 1 to " + strconv.Itoa(MaxPageLimit)
	}
	return e.name + "=" + strconv.Quote(e.value) + " must be a non-negative number"
}

func errBadParam(name, value string) error { return paramError{name, value} }

func brokers(src *Source, w http.ResponseWriter, r *http.Request) {
	offset, limit, err := page(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	by, desc, err := sortColumn(r, brokerSorts)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	cluster := r.URL.Query().Get("cluster")
	now := src.nowMillis()
	all := []BrokerView{}
	for _, v := range src.Routes.LiveBrokers() {
		if cluster == "" || v.Cluster == cluster {
			all = append(all, brokerView(src, v, now))
		}
	}
	slices.SortStableFunc(all, groupOrder)
	sortBrokers(all, by, desc)
	views := all[min(offset, len(all)):min(offset+limit, len(all))]
	writeJSON(w, http.StatusOK, map[string]any{"brokers": views, "total": len(all), "offset": offset, "limit": limit})
}

func broker(src *Source, w http.ResponseWriter, r *http.Request) {
	addr := r.PathValue("addr")
	found := src.Routes.LiveBroker(addr)
	if len(found) == 0 {
		writeError(w, http.StatusNotFound, "no live broker at "+addr)
		return
	}
	now := src.nowMillis()
	views := make([]BrokerView, len(found))
	for i, v := range found {
		views[i] = brokerView(src, v, now)
	}
	if len(views) == 1 {
		writeJSON(w, http.StatusOK, views[0])
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"brokers": views}) // one address in several clusters
}

// TopicView is one topic of /v1/topics.
type TopicView struct {
	Topic          string   `json:"topic"`
	BrokerNames    []string `json:"brokerNames"`
	BrokerCount    int      `json:"brokerCount"`
	ReadQueueNums  int32    `json:"readQueueNums"`
	WriteQueueNums int32    `json:"writeQueueNums"`
	Writable       bool     `json:"writable"` // some broker name takes writes
	// WritableBrokers is how many of BrokerNames take writes; fewer than
	// BrokerCount is a topic writable on only some of them.
	WritableBrokers int `json:"writableBrokers"`
}

// topics is a page of topics: ?q= in the name, ?cluster=, ?system=false
// leaves out the system topics, ?sort= and ?order= (views_sort.go).
func topics(src *Source, w http.ResponseWriter, r *http.Request) {
	offset, limit, err := page(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	by, desc, err := sortColumn(r, topicSorts)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	q := r.URL.Query()
	withSystem := true
	if s := q.Get("system"); s != "" {
		if withSystem, err = strconv.ParseBool(s); err != nil {
			writeError(w, http.StatusBadRequest, "system="+strconv.Quote(s)+" must be true or false")
			return
		}
	}
	summaries, total := src.Routes.TopicPage(route.TopicFilter{Cluster: q.Get("cluster"), Contains: q.Get("q"),
		NoSystem: !withSystem, SortBy: by, Desc: desc, Offset: offset, Limit: limit})
	views := make([]TopicView, len(summaries))
	for i, s := range summaries {
		views[i] = TopicView{s.Topic, s.BrokerNames, len(s.BrokerNames), s.ReadQueueNums, s.WriteQueueNums, s.Writable, s.WritableBrokers}
	}
	writeJSON(w, http.StatusOK, map[string]any{"topics": views, "total": total, "offset": offset, "limit": limit})
}

// RouteView is a TopicRouteData with its Java field names.
type RouteView struct {
	OrderTopicConf    string              `json:"orderTopicConf,omitempty"`
	QueueDatas        []QueueDataView     `json:"queueDatas"`
	BrokerDatas       []BrokerGroupView   `json:"brokerDatas"`
	FilterServerTable map[string][]string `json:"filterServerTable"`
}

// QueueDataView is one QueueData, with its permission spelled out.
type QueueDataView struct {
	BrokerName     string `json:"brokerName"`
	ReadQueueNums  int32  `json:"readQueueNums"`
	WriteQueueNums int32  `json:"writeQueueNums"`
	Perm           int32  `json:"perm"`
	PermText       string `json:"permText"` // Java's PermName.perm2String, e.g. RW-
	TopicSysFlag   int32  `json:"topicSysFlag"`
}

// topicRoute is one topic's route; ?format=java, the bytes a Java client
// gets, is a heavy view (heavy.go): it can be as large as the topic is wide.
func (s *Server) topicRoute(src *Source, w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("format") == "java" {
		s.heavy(routeEstimate, javaRoute)(src, w, r)
		return
	}
	topic := r.PathValue("topic")
	data, ok := src.Routes.PickupTopicRouteData(topic)
	if !ok {
		writeError(w, http.StatusNotFound, "No topic route info in name server for the topic: "+topic)
		return
	}
	writeJSON(w, http.StatusOK, routeView(data, src.OrderTopicConf(topic)))
}

// javaRoute is the bytes a Java client of today (version >= V4_9_4) gets on the wire.
func javaRoute(src *Source, w http.ResponseWriter, r *http.Request) {
	topic := r.PathValue("topic")
	body, ok := src.Routes.RouteJSON(nil, topic, route.RouteQuery{Standard: true, OrderTopicConf: src.OrderTopicConf(topic)})
	if !ok {
		writeError(w, http.StatusNotFound, "No topic route info in name server for the topic: "+topic)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(body)
}

func routeView(data *route.TopicRouteData, orderConf string) RouteView {
	view := RouteView{OrderTopicConf: orderConf, QueueDatas: []QueueDataView{}, BrokerDatas: []BrokerGroupView{},
		FilterServerTable: data.FilterServerTable}
	if view.FilterServerTable == nil {
		view.FilterServerTable = map[string][]string{}
	}
	for _, qd := range data.QueueDatas {
		view.QueueDatas = append(view.QueueDatas, QueueDataView{qd.BrokerName, qd.ReadQueueNums, qd.WriteQueueNums,
			qd.Perm, route.PermString(qd.Perm), qd.TopicSysFlag})
	}
	for _, bd := range data.BrokerDatas {
		group := BrokerGroupView{BrokerName: bd.BrokerName, Zone: bd.ZoneName, Addrs: map[string]string{}}
		for id, addr := range bd.BrokerAddrs {
			group.Addrs[strconv.FormatInt(id, 10)] = addr
		}
		view.BrokerDatas = append(view.BrokerDatas, group)
	}
	return view
}

// kv is a page of the KV store (?namespace= for one namespace, ?offset=
// and ?limit= over its entries sorted by namespace and key, total the
// entries there are), in the shape namespace -> key -> value.
func kv(src *Source, w http.ResponseWriter, r *http.Request) {
	offset, limit, err := page(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	only := r.URL.Query().Get("namespace")
	all := src.KV()
	type entry struct{ namespace, key string }
	var entries []entry
	for namespace, keys := range all {
		if only != "" && namespace != only {
			continue
		}
		for key := range keys {
			entries = append(entries, entry{namespace, key})
		}
	}
	sort.Slice(entries, func(i, j int) bool {
		if entries[i].namespace != entries[j].namespace {
			return entries[i].namespace < entries[j].namespace
		}
		return entries[i].key < entries[j].key
	})
	out := map[string]map[string]string{}
	for _, e := range entries[min(offset, len(entries)):min(offset+limit, len(entries))] {
		if out[e.namespace] == nil {
			out[e.namespace] = map[string]string{}
		}
		out[e.namespace][e.key] = all[e.namespace][e.key]
	}
	writeJSON(w, http.StatusOK, map[string]any{"namespaces": out, "total": len(entries), "offset": offset, "limit": limit})
}

func configView(src *Source, w http.ResponseWriter, _ *http.Request) {
	view := map[string]any{"config": src.Config()}
	if src.PendingRestart != nil {
		view["pendingRestart"] = src.PendingRestart()
	}
	writeJSON(w, http.StatusOK, view)
}

// StatusView is /v1/status.
type StatusView struct {
	Version       string     `json:"version"`
	GoVersion     string     `json:"goVersion"`
	Addr          string     `json:"addr"`
	StartedMillis int64      `json:"startedMillis"`
	UptimeSeconds float64    `json:"uptimeSeconds"`
	Ready         bool       `json:"ready"`
	NotReadyWhy   string     `json:"notReadyReason,omitempty"`
	Counts        CountsView `json:"counts"`
}

// CountsView is route.Counts with JSON names.
type CountsView struct {
	Topics       int `json:"topics"`
	QueueDatas   int `json:"queueDatas"`
	BrokerGroups int `json:"brokerGroups"`
	LiveBrokers  int `json:"liveBrokers"`
	Clusters     int `json:"clusters"`
}

func countsView(c route.Counts) CountsView {
	return CountsView{c.Topics, c.QueueDatas, c.BrokerGroups, c.LiveBrokers, c.Clusters}
}

func status(src *Source, w http.ResponseWriter, _ *http.Request) {
	ready, why := src.Ready()
	writeJSON(w, http.StatusOK, StatusView{
		Version: metrics.Version, GoVersion: runtime.Version(), Addr: src.Addr, StartedMillis: src.Started.UnixMilli(),
		UptimeSeconds: time.Since(src.Started).Seconds(), Ready: ready, NotReadyWhy: why, Counts: countsView(src.Routes.Counts()),
	})
}

// debugView is the whole registration state, as nsqlookupd's /debug: every
// cluster, live broker and topic with its queue data. The topics are
// encoded and written one by one, so the answer is never held whole: a
// reader that does not read holds the copies of the tables (debugEstimate)
// and a write buffer, not the dump.
func debugView(src *Source, w http.ResponseWriter, _ *http.Request) {
	now := src.nowMillis()
	live := src.Routes.LiveBrokers()
	brokers := make([]BrokerView, len(live))
	for i, v := range live {
		brokers[i] = brokerView(src, v, now)
	}
	names, table := src.Routes.TopicQueueDatas()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	out := jsonStream{w: bufio.NewWriterSize(w, debugWriteBuffer)}
	out.raw(`{"brokers":`)
	out.value(brokers)
	out.raw(`,"clusters":`)
	out.value(clusterViews(src.Routes.ClusterInfo()))
	out.raw(`,"counts":`)
	out.value(countsView(src.Routes.Counts()))
	out.raw(`,"topics":[`)
	for i, name := range names {
		if i > 0 {
			out.raw(",")
		}
		qds := make([]QueueDataView, 0, len(table[name]))
		for _, qd := range table[name] {
			qds = append(qds, QueueDataView{qd.BrokerName, qd.ReadQueueNums, qd.WriteQueueNums, qd.Perm, route.PermString(qd.Perm), qd.TopicSysFlag})
		}
		delete(table, name)
		out.value(topicDump{QueueDatas: qds, Topic: name})
		if out.err != nil {
			return // the reader went away or stalled past WriteTimeout
		}
	}
	out.raw("]}\n")
	out.flush()
}

// debugWriteBuffer is what the dump gathers before each write.
const debugWriteBuffer = 32 << 10

// topicDump is one topic of the dump, its fields in the order a map's
// encoding gave them.
type topicDump struct {
	QueueDatas []QueueDataView `json:"queueDatas"`
	Topic      string          `json:"topic"`
}

// jsonStream writes JSON in pieces, keeping the first error.
type jsonStream struct {
	w   *bufio.Writer
	err error
}

func (s *jsonStream) raw(text string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(text)
	}
}

func (s *jsonStream) value(v any) {
	if s.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		s.err = err
		return
	}
	_, s.err = s.w.Write(data)
}

func (s *jsonStream) flush() {
	if s.err == nil {
		s.err = s.w.Flush()
	}
}

func stats(src *Source, w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"intervalMillis": metrics.StatsInterval.Milliseconds(), "samples": src.Stats.Samples()})
}
