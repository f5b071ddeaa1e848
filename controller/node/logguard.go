package node

import (
	"sync/atomic"
	"time"

	"github.com/hashicorp/raft"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/internal/ratelog"
)

// logGuard is the raft.LogStore hashicorp/raft writes through: it refuses a
// batch holding an entry checkEntry refuses before any of it is stored. In
// appendEntries hashicorp stores the entries before it decodes their
// configurations (raft.go, v1.8.0), so a refused batch is answered
// Success=false and nothing of it reaches the disk or the FSM; a leader's
// own batch refused makes it step down (it never writes one: its entries
// are encoded here).
type logGuard struct {
	raft.LogStore
	log     *logrus.Entry
	refused atomic.Uint64
	pace    ratelog.Limiter
}

// newLogGuard wraps store and counts its refusals on reg as
// rocketmq_controller_refused_entries_total.
func newLogGuard(store raft.LogStore, log *logrus.Entry, reg prometheus.Registerer) *logGuard {
	g := &logGuard{LogStore: store, log: log}
	reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "rocketmq_controller_refused_entries_total",
		Help: "Raft log entries (and InstallSnapshot configurations) refused before they were appended: a configuration or command this node cannot decode, or an unknown log type."},
		func() float64 { return float64(g.refused.Load()) }))
	return g
}

func (g *logGuard) StoreLog(e *raft.Log) error { return g.StoreLogs([]*raft.Log{e}) }

func (g *logGuard) StoreLogs(logs []*raft.Log) error {
	if err := g.check(logs); err != nil {
		return err
	}
	return g.LogStore.StoreLogs(logs)
}

// check refuses logs if one entry does not pass checkEntry: counted, and
// logged at most once a second (a stranger can send them).
func (g *logGuard) check(logs []*raft.Log) error {
	for _, e := range logs {
		if err := checkEntry(e); err != nil {
			g.refused.Add(1)
			g.pace.Log(g.log, logrus.WarnLevel, func() logrus.Fields {
				return logrus.Fields{"index": e.Index, "term": e.Term, "type": e.Type.String(), "error": err.Error()}
			}, "raft entry refused before it was appended: this node cannot decode it", time.Now())
			return err
		}
	}
	return nil
}

func (g *logGuard) refusedCount() uint64 { return g.refused.Load() }
