package node

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/latest"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Limits of the election notices to NameServers (namesrvAddr).
const (
	// namesrvNoticeTimeout bounds one notice: dial and answer.
	namesrvNoticeTimeout = 3 * time.Second
	// namesrvNoticeSets bounds the sets whose notice waits for one
	// NameServer; a set's newer election replaces its waiting one, and a
	// new set past the bound is dropped (its master's registration still
	// reaches that NameServer).
	namesrvNoticeSets = 4096
	// namesrvNoticeLogInterval paces each NameServer's lines about failed
	// or unsupported notices.
	namesrvNoticeLogInterval = time.Minute
)

// Results of rocketmq_controller_namesrv_notices_total.
const (
	noticeSent        = "sent"
	noticeUnsupported = "unsupported"
	noticeFailed      = "failed"
)

func (m *Metrics) namesrvNotice(result string) { m.namesrvNotices.WithLabelValues(result).Inc() }

// ObserveElections gives fn each set's election as this node applies it,
// and every set's last election now (raftfsm.FSM.Observe). fn runs on
// raft's apply goroutine: it must not block.
func (n *Node) ObserveElections(fn func(controller.Election)) { n.fsm.Observe(fn) }

// namesrvNotifier sends, while this node leads, each election to every
// NameServer of namesrvAddr (wire.CodeNotifyNamesrvMasterElected): one
// goroutine per NameServer, each draining its own mailbox, so one slow or
// dead NameServer delays no other and never the apply path. A notice is
// sent once, never retried: a NameServer that misses it learns the master
// from its registration (stateVersion newer than the last election seen).
type namesrvNotifier struct {
	n       *Node
	targets []*namesrvTarget
	wg      sync.WaitGroup
	done    chan struct{}
}

type namesrvTarget struct {
	addr   string
	box    *latest.Mailbox[string, controller.Election]
	client *remoting.Client
	// failed and unsupported pace the lines of notices not delivered and
	// of a NameServer (a Java one) that does not know the code.
	failed, unsupported ratelog.Limiter
	dropped             ratelog.Limiter
}

// newNamesrvNotifier returns nil when namesrvAddr lists nobody.
func newNamesrvNotifier(n *Node, namesrvAddr string) *namesrvNotifier {
	addrs := strings.FieldsFunc(namesrvAddr, func(r rune) bool { return r == ';' })
	t := &namesrvNotifier{n: n, done: make(chan struct{})}
	for _, addr := range addrs {
		if addr = strings.TrimSpace(addr); addr == "" {
			continue
		}
		t.targets = append(t.targets, &namesrvTarget{addr: addr,
			box:    latest.New[string, controller.Election](namesrvNoticeSets),
			client: n.client(addr, namesrvNoticeTimeout, namesrvNoticeTimeout),
			failed: ratelog.Limiter{Interval: namesrvNoticeLogInterval}, unsupported: ratelog.Limiter{Interval: namesrvNoticeLogInterval},
			dropped: ratelog.Limiter{Interval: namesrvNoticeLogInterval}})
	}
	if len(t.targets) == 0 {
		return nil
	}
	return t
}

// start runs the senders and observes the FSM.
func (t *namesrvNotifier) start() {
	for _, target := range t.targets {
		t.wg.Add(1)
		go t.run(target)
	}
	t.n.fsm.Observe(t.applied)
}

// applied queues an applied election when this node leads (followers apply
// the same entry; only the leader tells the NameServers).
func (t *namesrvNotifier) applied(e controller.Election) {
	if t.n.raft == nil || t.n.raft.State() != raft.Leader {
		return
	}
	t.queue(e)
}

// queue puts e in every NameServer's mailbox.
func (t *namesrvNotifier) queue(e controller.Election) {
	for _, target := range t.targets {
		if !target.box.Put(e.BrokerName, e) {
			target.dropped.Log(t.n.log, logrus.WarnLevel, func() logrus.Fields {
				return logrus.Fields{"namesrvAddr": target.addr, "brokerName": e.BrokerName, "limit": namesrvNoticeSets}
			}, "election notice dropped: too many sets wait for this NameServer", time.Now())
		}
	}
}

// leading re-sends every set's last election after this node gained the
// lead: the previous leader may have died between a commit and its notices.
func (t *namesrvNotifier) leading() {
	var all []controller.Election
	t.n.fsm.Read(func(s *controller.State) { all = s.Elections() })
	for _, e := range all {
		t.queue(e)
	}
}

func (t *namesrvNotifier) run(target *namesrvTarget) {
	defer t.wg.Done()
	target.box.Serve(t.done, func(e controller.Election) { t.send(target, e) })
}

func (t *namesrvNotifier) send(target *namesrvTarget, e controller.Election) {
	h := wire.NotifyNamesrvMasterElectedRequest{ClusterName: e.ClusterName, BrokerName: e.BrokerName,
		MasterAddress: e.MasterAddr, MasterBrokerID: e.MasterBrokerID, MasterEpoch: e.MasterEpoch, Identity: e.Identity}
	ctx, cancel := context.WithTimeout(context.Background(), namesrvNoticeTimeout)
	defer cancel()
	resp, err := target.client.Invoke(ctx, remoting.NewRequest(wire.CodeNotifyNamesrvMasterElected, remoting.EncodeHeader(&h), nil))
	fields := func() logrus.Fields {
		f := logrus.Fields{"namesrvAddr": target.addr, "brokerName": e.BrokerName, "masterEpoch": e.MasterEpoch}
		if err != nil {
			f[logrus.ErrorKey] = err.Error()
		} else {
			f["code"], f["remark"] = resp.Code, resp.Remark
		}
		return f
	}
	switch {
	case err != nil:
		t.n.metrics.namesrvNotice(noticeFailed)
		target.failed.Log(t.n.log, logrus.WarnLevel, fields, "election notice to a NameServer not delivered (its route follows the master's registration)", time.Now())
	case resp.Code == remoting.REQUEST_CODE_NOT_SUPPORTED:
		t.n.metrics.namesrvNotice(noticeUnsupported)
		target.unsupported.Log(t.n.log, logrus.InfoLevel, fields, "NameServer does not know election notices (a Java one?): its route follows the master's registration", time.Now())
	case resp.Code != remoting.SUCCESS:
		t.n.metrics.namesrvNotice(noticeFailed)
		target.failed.Log(t.n.log, logrus.WarnLevel, fields, "NameServer refused an election notice", time.Now())
	default:
		t.n.metrics.namesrvNotice(noticeSent)
		t.n.log.WithFields(fields()).Debug("election notice sent to a NameServer")
	}
}

func (t *namesrvNotifier) close() {
	close(t.done)
	t.wg.Wait()
	for _, target := range t.targets {
		target.client.Close()
	}
}
