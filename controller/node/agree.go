package node

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/ratelog"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Liveness the group agrees on (docs/controller.md): each node keeps its
// own heartbeat table, and the leader alone elects; before it elects for a
// silent master it asks every other node what it holds of that broker
// (wire.CodeGetBrokerLiveness) and takes the newest heartbeat. A broker is
// silent only when no node of a quorum, the leader included, heard it
// within its timeout.

// Limits of the liveness questions.
const (
	// livenessAskTimeout bounds one question to one node, dial and answer
	// (answered from memory on the node's event loop, so a live node
	// answers in a round trip): a node that does not answer within it
	// counts as not having heard the broker.
	livenessAskTimeout = 500 * time.Millisecond
	// livenessLogInterval paces the lines about nodes that did not answer.
	livenessLogInterval = time.Minute
	// closeRecheckPause is the wait before the second question after a
	// connection close that the other nodes answered only with heartbeats
	// older than the close: a killed broker's connections to every node
	// close at once, and a node asked before it handled its own close still
	// holds the broker's last heartbeat; after the pause it has dropped it,
	// while a live broker that closed one connection is still held.
	closeRecheckPause = 200 * time.Millisecond
	// refreshMaxQuestions bounds the questions of one inactive-master scan
	// about the members the leader does not hear (refreshUnheard).
	refreshMaxQuestions = 16
)

// livenessAsker holds the leader's connections to the other nodes'
// controller ports, one per address, opened at the first question.
type livenessAsker struct {
	mu      sync.Mutex
	clients map[string]*remoting.Client
	// unanswered paces the lines about nodes that did not answer.
	unanswered ratelog.Limiter
}

func newLivenessAsker() *livenessAsker {
	return &livenessAsker{clients: map[string]*remoting.Client{}, unanswered: ratelog.Limiter{Interval: livenessLogInterval}}
}

func (a *livenessAsker) client(n *Node, addr string) *remoting.Client {
	a.mu.Lock()
	defer a.mu.Unlock()
	c, ok := a.clients[addr]
	if !ok {
		c = n.client(addr, livenessAskTimeout, livenessAskTimeout)
		a.clients[addr] = c
	}
	return c
}

func (a *livenessAsker) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for addr, c := range a.clients {
		_ = c.Close()
		delete(a.clients, addr)
	}
}

// peerAnswer is one node's answer, its ages turned into times on this
// node's clock.
type peerAnswer struct {
	id      string
	entries map[controller.BrokerKey]controller.HeartbeatEntry
}

// getBrokerLiveness answers 5020 on any node, leader or not, from its own
// table: the bounded list of keys asked, and for each held one the age of
// its last heartbeat here.
func (n *Node) getBrokerLiveness(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	q, err := wire.DecodeBrokerLivenessRequest(req.Body)
	if err != nil {
		return n.refuse(req, refusedBound, err)
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.Body = (&wire.BrokerLivenessResponse{Brokers: n.live.report(q.Brokers)}).Encode()
	return resp
}

// askPeers asks every other current peer at once what it holds of keys and
// returns the answers that came within livenessAskTimeout.
func (n *Node) askPeers(keys []controller.BrokerKey) []peerAnswer {
	q := wire.BrokerLivenessRequest{Brokers: make([]wire.BrokerKeyJSON, 0, len(keys))}
	for _, k := range keys {
		q.Brokers = append(q.Brokers, wire.BrokerKeyJSON{ClusterName: k.ClusterName, BrokerName: k.BrokerName, BrokerID: k.BrokerID})
	}
	body := q.Encode()
	var (
		mu      sync.Mutex
		answers []peerAnswer
		wg      sync.WaitGroup
	)
	for _, p := range n.peerList() {
		if p.ID == n.self.ID {
			continue
		}
		wg.Add(1)
		go func(p config.Peer) {
			defer wg.Done()
			if a, ok := n.askPeer(p, body); ok {
				mu.Lock()
				answers = append(answers, a)
				mu.Unlock()
			}
		}(p)
	}
	wg.Wait()
	return answers
}

// askPeer is one question to one node; false when it did not answer in
// time. A node that answers anything else than a readable success (a Java
// controller's 3, a refusal under ACL, a port that demands TLS) answered
// without having heard: it counts toward the quorum, so a misconfigured
// signature or useTLS cannot stop every election, and the line about it
// says what to fix.
func (n *Node) askPeer(p config.Peer, body []byte) (peerAnswer, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), livenessAskTimeout)
	defer cancel()
	sent := nowMillis()
	resp, err := n.asker.client(n, p.Addr).Invoke(ctx, remoting.NewRequest(wire.CodeGetBrokerLiveness, nil, body))
	var got *wire.BrokerLivenessResponse
	if err == nil && resp.Code == remoting.SUCCESS {
		got, err = wire.DecodeBrokerLivenessResponse(resp.Body)
	}
	if got == nil {
		n.asker.unanswered.Log(n.log, logrus.WarnLevel, func() logrus.Fields {
			f := logrus.Fields{"peer": p.ID, "addr": p.Addr}
			if err != nil {
				f[logrus.ErrorKey] = err.Error()
			} else {
				f["code"], f["remark"] = resp.Code, resp.Remark
			}
			return f
		}, "a controller node did not answer the liveness question (code 5020; with ACL, sign with innerClientAuthenticationCredentials or keep aclAnonymousRouteRead; with tls.server.mode=enforcing, set useTLS): counted as not having heard the broker", time.Now())
		// A port that demands TLS this node does not speak (useTLS off)
		// is a live node that cannot be asked: answered, not heard.
		if resp == nil && !errors.Is(err, remoting.ErrTLSRequired) {
			return peerAnswer{}, false
		}
		return peerAnswer{id: p.ID}, true
	}
	a := peerAnswer{id: p.ID, entries: make(map[controller.BrokerKey]controller.HeartbeatEntry, len(got.Brokers))}
	for _, e := range got.Brokers {
		// The heartbeat was at least AgeMillis before the node answered,
		// hence before now: counted from the moment the question left, it
		// is never taken for newer than it was.
		a.entries[controller.BrokerKey{ClusterName: e.ClusterName, BrokerName: e.BrokerName, BrokerID: e.BrokerID}] =
			controller.HeartbeatEntry{BrokerAddr: e.BrokerAddr, LastUpdateMillis: sent - e.AgeMillis, HeartbeatTimeoutMill: e.HeartbeatTimeoutMillis,
				Epoch: e.Epoch, MaxOffset: e.MaxOffset, ConfirmOffset: e.ConfirmOffset, ElectionPriority: e.ElectionPriority}
	}
	return a, true
}

// quorum is the majority of the current peers.
func (n *Node) quorum() int { return len(n.peerList())/2 + 1 }

// groupSilent decides, on the leader, whether master is silent for the
// group: it asks every other node about the set's members (master first),
// takes over every newer heartbeat another node holds, and says true only
// when no node of a quorum heard the master within its timeout and the
// grace after gaining the lead has passed for it. Network calls: run it
// off the event loop (the elector's goroutine).
func (n *Node) groupSilent(master controller.BrokerKey, members []int64, job electJob, fields logrus.Fields) bool {
	keys := []controller.BrokerKey{master}
	for _, id := range members {
		if id != master.BrokerID && len(keys) < wire.LivenessMaxKeys {
			keys = append(keys, controller.BrokerKey{ClusterName: master.ClusterName, BrokerName: master.BrokerName, BrokerID: id})
		}
	}
	answers := n.askPeers(keys)
	if job.trigger == triggerConnClosed && heardOnlyBefore(answers, master, job.seenAt) {
		select {
		case <-n.stop:
			return false
		case <-time.After(closeRecheckPause):
		}
		answers = n.askPeers(keys)
	}
	heardBy, answered := n.takeOver(answers, &master)
	timeout := job.timeoutMillis
	if timeout == 0 {
		timeout = answered
	}
	entry := n.log.WithFields(fields).WithFields(logrus.Fields{"brokerId": master.BrokerID, "answered": len(answers) + 1, "quorum": n.quorum()})
	if heardBy != "" || n.live.Alive(master.ClusterName, master.BrokerName, master.BrokerID) {
		entry.WithField("heardBy", heardBy).Info("master still heard within its timeout by a controller node: no election")
		return false
	}
	if len(answers)+1 < n.quorum() {
		entry.Warn("master not heard, but fewer than a quorum of controller nodes answered: no election now (the inactive-master scan asks again)")
		return false
	}
	if left := n.graceLeft(job, n.timeoutOf(master, timeout)); left > 0 {
		entry.WithField("graceLeftMillis", left).Info("master not heard, but this node gained the lead less than controllerLeaderGraceMillis (or the broker's heartbeat timeout) ago: no election yet (the inactive-master scan asks again)")
		return false
	}
	return true
}

// takeOver adopts every heartbeat the answers hold within its timeout that
// is newer than this node's. It returns a node that heard master within its
// timeout ("" when none did, or master is nil) and master's timeout as an
// answer held it (0 when none did).
func (n *Node) takeOver(answers []peerAnswer, master *controller.BrokerKey) (heardBy string, timeout int64) {
	now := nowMillis()
	for _, a := range answers {
		for key, e := range a.entries {
			fresh := e.LastUpdateMillis+e.HeartbeatTimeoutMill >= now
			if master != nil && key == *master {
				timeout = e.HeartbeatTimeoutMill
				if fresh {
					heardBy = a.id
				}
			}
			if fresh && n.live.adopt(key, e) {
				n.log.WithFields(logrus.Fields{"brokerName": key.BrokerName, "brokerId": key.BrokerID, "from": a.id,
					"ageMillis": now - e.LastUpdateMillis}).Debug("heartbeat taken over from another controller node")
			}
		}
	}
	return heardBy, timeout
}

// refreshUnheard asks, on the leader, the other nodes about the registered
// members this node does not hear and takes over what they heard: brokers
// behind one address shared by the nodes heartbeat to one node each, and
// the leader's checks (an in-sync set's members alive, the master a
// registration names, the election's candidates) read its own table. At
// most refreshMaxQuestions questions of wire.LivenessMaxKeys members a
// scan; nothing is asked while this node hears every member.
func (n *Node) refreshUnheard() {
	var keys []controller.BrokerKey
	n.fsm.Read(func(s *controller.State) {
		for _, name := range s.BrokerNames() {
			ri, ok := s.ReplicaInfo(name)
			if !ok {
				continue
			}
			for _, id := range ri.IDs() {
				if len(keys) < refreshMaxQuestions*wire.LivenessMaxKeys && !n.live.Alive(ri.ClusterName, name, id) {
					keys = append(keys, controller.BrokerKey{ClusterName: ri.ClusterName, BrokerName: name, BrokerID: id})
				}
			}
		}
	})
	for len(keys) > 0 {
		batch := keys[:min(len(keys), wire.LivenessMaxKeys)]
		keys = keys[len(batch):]
		n.takeOver(n.askPeers(batch), nil)
	}
}

// heardOnlyBefore says whether some answer holds master within its timeout
// and none holds a heartbeat of it from at or after since.
func heardOnlyBefore(answers []peerAnswer, master controller.BrokerKey, since int64) bool {
	now, held := nowMillis(), false
	for _, a := range answers {
		e, ok := a.entries[master]
		if !ok || e.LastUpdateMillis+e.HeartbeatTimeoutMill < now {
			continue
		}
		if e.LastUpdateMillis >= since {
			return false
		}
		held = true
	}
	return held
}

// timeoutOf is master's heartbeat timeout: known (from the event or an
// answer), else the one this node holds, else the longest it holds of any
// member, else the default a heartbeat without one takes.
func (n *Node) timeoutOf(master controller.BrokerKey, known int64) int64 {
	if known > 0 {
		return known
	}
	if e, ok := n.live.entry(master); ok {
		return e.HeartbeatTimeoutMill
	}
	if longest, ok := n.live.longestTimeout(); ok {
		return longest
	}
	return controller.DefaultHeartbeatTimeoutMillis
}

// graceLeft is how long, in milliseconds, this node must still wait after
// gaining the lead before electing for a broker of that timeout: the
// broker must have had a heartbeat period to be heard again by this node as
// leader (controllerLeaderGraceMillis, at most the broker's timeout). A
// connection close this node saw while leading is first-hand and needs no
// grace.
func (n *Node) graceLeft(job electJob, timeout int64) int64 {
	led := n.ledSince.Load()
	if job.trigger == triggerConnClosed && job.seenAt >= led {
		return 0
	}
	return max(led+min(timeout, n.leaderGrace)-nowMillis(), 0)
}

// scanAfterGrace runs the inactive-master scan once the grace after gaining
// the lead has passed for the brokers this node holds
// (controllerLeaderGraceMillis, or the longest timeout held when shorter):
// a master that died while no node led is
// elected then, not at the next scanInactiveMasterInterval.
func (n *Node) scanAfterGrace(term uint64) {
	wait, ok := n.live.longestTimeout()
	if !ok {
		wait = controller.DefaultHeartbeatTimeoutMillis
	}
	wait = min(wait, n.leaderGrace)
	timer := time.NewTimer(time.Duration(wait)*time.Millisecond + expiryMinWait)
	defer timer.Stop()
	select {
	case <-n.stop:
	case <-timer.C:
		if n.servingTerm.Load() == term {
			n.scanInactiveMasters()
		}
	}
}
