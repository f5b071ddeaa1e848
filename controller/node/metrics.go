package node

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/raftnet"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Metrics are the node's collectors under rocketmq_controller_, in their own
// registry (Registry) for the side port's /metrics.
type Metrics struct {
	Registry          *prometheus.Registry
	role              prometheus.Gauge
	leaderChanges     prometheus.Counter
	elections         *prometheus.CounterVec
	requests          *prometheus.CounterVec
	commitSeconds     prometheus.Histogram
	notices           prometheus.Counter
	heartbeatsDropped prometheus.Counter
	namesrvNotices    *prometheus.CounterVec
	raftRefused       *prometheus.CounterVec
	refused           *prometheus.CounterVec
}

func newMetrics(n *Node) *Metrics {
	m := &Metrics{Registry: prometheus.NewRegistry()}
	f := func(c prometheus.Collector) { m.Registry.MustRegister(c) }
	m.role = prometheus.NewGauge(prometheus.GaugeOpts{Name: "rocketmq_controller_role",
		Help: "1 while this node leads and serves (barrier committed), 0 otherwise."})
	m.leaderChanges = prometheus.NewCounter(prometheus.CounterOpts{Name: "rocketmq_controller_leader_changes_total",
		Help: "Leadership transitions seen by this node."})
	m.elections = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rocketmq_controller_elections_total",
		Help: "Master elections by trigger and result (the response code name)."}, []string{"trigger", "result"})
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rocketmq_controller_requests_total",
		Help: "Controller requests by request code and response code."}, []string{"code", "result"})
	m.commitSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "rocketmq_controller_commit_seconds",
		Help: "Time from Raft Apply to the entry applied on the leader.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14)})
	m.notices = prometheus.NewCounter(prometheus.CounterOpts{Name: "rocketmq_controller_role_change_notices_total",
		Help: "NOTIFY_BROKER_ROLE_CHANGED notices written to brokers."})
	m.heartbeatsDropped = prometheus.NewCounter(prometheus.CounterOpts{Name: "rocketmq_controller_heartbeats_dropped_total",
		Help: "Heartbeats of new members dropped past controllerMaxHeartbeatEntries."})
	m.namesrvNotices = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rocketmq_controller_namesrv_notices_total",
		Help: "Election notices to the NameServers of namesrvAddr (code 5001), by result: sent, unsupported (a Java NameServer), failed."}, []string{"result"})
	for _, result := range []string{noticeSent, noticeUnsupported, noticeFailed} {
		m.namesrvNotices.WithLabelValues(result)
	}
	m.raftRefused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rocketmq_controller_raft_refused_total",
		Help: "Connections to the Raft port closed before Raft read them, by reason: not_a_peer (not from a listed peer's host), tls (no mutual TLS handshake with the group's CA), busy (too many handshakes)."}, []string{"reason"})
	for _, reason := range raftnet.Reasons {
		m.raftRefused.WithLabelValues(reason)
	}
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "rocketmq_controller_requests_refused_total",
		Help: "Requests refused before the state or the log (bounds.go), by request code and reason: bound (a name, address or list too long), missing (a heartbeat field), header (a heartbeat header that does not decode), limit (controllerMaxBrokerSets, controllerMaxBrokerIdsPerSet); one-way heartbeats included."},
		[]string{"code", "reason"})
	for _, c := range []prometheus.Collector{m.role, m.leaderChanges, m.elections, m.requests, m.commitSeconds, m.notices, m.heartbeatsDropped, m.namesrvNotices, m.raftRefused, m.refused} {
		f(c)
	}
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rocketmq_controller_live_brokers",
		Help: "Members in this node's heartbeat table."}, func() float64 { return float64(n.live.size()) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rocketmq_controller_raft_last_index",
		Help: "Last Raft log index of this node."}, func() float64 { return raftStat(n, "last_log_index") }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rocketmq_controller_raft_snapshot_index",
		Help: "Raft index of this node's latest snapshot."}, func() float64 { return raftStat(n, "last_snapshot_index") }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rocketmq_controller_log_bytes",
		Help: "Size of this node's Raft log and stable store file (raft.db)."}, func() float64 { return float64(fileBytes(filepath.Join(n.storeDir, "raft.db"))) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rocketmq_controller_snapshot_bytes",
		Help: "Size of the snapshots this node keeps."}, func() float64 { return float64(treeBytes(filepath.Join(n.storeDir, "snapshots"))) }))
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rocketmq_controller_raft_term",
		Help: "Current Raft term of this node."}, func() float64 { return raftStat(n, "term") }))
	return m
}

func fileBytes(path string) int64 {
	info, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return info.Size()
}

// treeBytes sums the regular files under dir (a few snapshot folders).
func treeBytes(dir string) int64 {
	var total int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

func raftStat(n *Node, key string) float64 {
	if n.raft == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(n.raft.Stats()[key], 64)
	return v
}

func (m *Metrics) request(code int32, resp *remoting.Command) {
	result := "none"
	if resp != nil {
		result = strconv.Itoa(int(resp.Code))
	}
	m.requests.WithLabelValues(strconv.Itoa(int(code)), result).Inc()
}

func (m *Metrics) election(trigger string, res *controller.Result[wire.ElectMasterResponse], err error) {
	result := "error"
	switch {
	case errors.Is(err, errNotServing):
		result = "not_leader"
	case err == nil:
		result = strconv.Itoa(res.Code)
	}
	m.elections.WithLabelValues(trigger, result).Inc()
}
