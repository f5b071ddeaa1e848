package node

import (
	"github.com/prometheus/client_golang/prometheus"
)

// A node is down once its state machine met an entry it could not decode
// or apply (raftfsm's OnFailure): its state is no longer the group's. It
// then stops serving and stops Raft, as a crash would have, but the process
// lives on: embedded, the NameServer keeps serving routes. Raft is stopped,
// not left running as a follower, because a node that cannot apply must
// not lead (hashicorp/raft has no "vote but never stand" mode): the others
// elect a leader among themselves, and this node's store is left as it was
// for the operator (docs/operations.md, damaged controller store).

// fail marks the node down with err; the first failure wins. It runs on
// raft's apply goroutine, so Raft is stopped by watchFailure, not here.
func (n *Node) fail(err error) {
	if !n.down.CompareAndSwap(nil, &err) {
		return
	}
	n.serving.Store(false)
	n.metrics.role.Set(0)
	n.log.WithError(err).Error("controller down: its state stopped at an entry it cannot apply; Raft stops, the process goes on")
	close(n.failed)
}

// Down is the error that stopped the node, nil while it runs.
func (n *Node) Down() error {
	if err := n.down.Load(); err != nil {
		return *err
	}
	return nil
}

// Failed is closed once the node is down (Down says why).
func (n *Node) Failed() <-chan struct{} { return n.failed }

// watchFailure stops Raft once the node is down.
func (n *Node) watchFailure() {
	defer n.wg.Done()
	select {
	case <-n.stop:
	case <-n.failed:
		if err := n.stopRaft(); err != nil {
			n.log.WithError(err).Warn("stop Raft of the failed controller")
		}
		n.log.WithField("down", n.Down().Error()).Warn("controller Raft stopped: this node no longer votes nor leads")
	}
}

// registerUp adds rocketmq_controller_up to the node's registry.
func (n *Node) registerUp() {
	n.metrics.Registry.MustRegister(UpGauge(func() bool { return n.Down() == nil }))
}

// UpGauge is rocketmq_controller_up: 1 while up() says the controller runs,
// 0 once it is down (a store refused at start, an entry it cannot apply).
// A NameServer whose embedded controller did not start exports it alone.
func UpGauge(up func() bool) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "rocketmq_controller_up",
		Help: "1 while this controller node runs, 0 once it is down: its store refused at start, or an entry it cannot apply (the log says which)."},
		func() float64 {
			if up() {
				return 1
			}
			return 0
		})
}
