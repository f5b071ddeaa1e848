package node

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/javaprops"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// PoolName is the remoting worker pool the state requests run on: they wait
// for a Raft commit (up to controllerCommitTimeoutMillis), which must never
// happen on an event loop. Its size is controllerThreadPoolNums workers and
// controllerRequestThreadPoolQueueCapacity queued requests (Java's).
const PoolName = "controller"

// Pool is the remoting pool size the node's configuration asks for; the
// caller puts it in ServerConfig.Pools under PoolName.
func (n *Node) Pool() remoting.PoolSize {
	cfg := n.Config()
	return remoting.PoolSize{Workers: cfg.ControllerThreadPoolNums, Queue: cfg.ControllerRequestQueueCap}
}

// route is one entry of the dispatch table: onPool handlers may wait for a
// commit; the others answer from memory on the event loop.
type route struct {
	code   int32
	onPool bool
	handle func(n *Node, conn *remoting.Conn, req *remoting.Command) *remoting.Command
}

// routes is the controller's one dispatch table; accessClasses
// (access.go) is each code's access class.
var routes = []route{
	{wire.CodeAlterSyncStateSet, true, (*Node).alterSyncStateSet},
	{wire.CodeElectMaster, true, (*Node).electMasterRequest},
	{wire.CodeRegisterBroker, true, (*Node).registerBroker},
	{wire.CodeGetReplicaInfo, true, (*Node).getReplicaInfo},
	{wire.CodeGetMetadataInfo, false, (*Node).getMetadata},
	{wire.CodeGetSyncStateData, true, (*Node).getSyncStateData},
	{wire.CodeUpdateControllerConfig, true, (*Node).updateConfig}, // writes configStorePath
	{wire.CodeGetControllerConfig, false, (*Node).getConfig},
	{wire.CodeCleanBrokerData, true, (*Node).cleanBrokerData},
	{wire.CodeGetNextBrokerID, true, (*Node).getNextBrokerID},
	{wire.CodeApplyBrokerID, true, (*Node).applyBrokerID},
	{wire.CodeBrokerHeartbeat, false, (*Node).brokerHeartbeat},
	{wire.CodeGetBrokerLiveness, false, (*Node).getBrokerLiveness},           // from memory (agree.go)
	{wire.CodeTransferControllerLeader, true, (*Node).transferLeaderRequest}, // waits for the new leader (transfer.go)
	{wire.CodeAddControllerPeer, true, (*Node).addControllerPeer},            // waits for the configuration's commit
	{wire.CodeRemoveControllerPeer, true, (*Node).removeControllerPeer},      // membership.go
}

// Register puts the dispatch table on srv (whose ServerConfig.Pools must
// hold PoolName, see Pool), each code behind checker's check of its class
// (accessClasses; nil checks none), and the connection-close trigger.
func (n *Node) Register(srv *remoting.Server, checker *acl.Checker) {
	n.setACL(checker)
	for _, r := range routes {
		handle := r.handle
		checked := guard(checker, r.code, func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
			return handle(n, conn, req)
		})
		h := func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
			resp := checked(conn, req)
			n.metrics.request(req.Code, resp)
			return resp
		}
		if r.onPool {
			srv.Handle(r.code, h, remoting.SlowIn(PoolName))
		} else {
			srv.Handle(r.code, h)
		}
	}
	srv.OnClose(func(conn *remoting.Conn) { n.connClosed(conn.ID()) })
}

// errNotServing says a state request reached a node that does not lead (or
// lost the lead before its entry committed).
var errNotServing = errors.New("not the serving controller leader")

// propose validates on the leader's state with the node's liveness and,
// when the result has events, commits them; the answer waits for the commit.
func propose[H any](n *Node, validate func(*controller.State, controller.Liveness) *controller.Result[H]) (*controller.Result[H], error) {
	if !n.Serving() {
		return nil, errNotServing
	}
	n.writeMu.Lock()
	var res *controller.Result[H]
	n.fsm.Read(func(s *controller.State) { res = validate(s, n.live) })
	if len(res.Events) == 0 {
		n.writeMu.Unlock()
		return res, nil
	}
	pending, err := n.commit(res.Events)
	if pending == nil {
		n.writeMu.Unlock()
		return res, err
	}
	// The answer said the commit timed out, but the entry may still commit:
	// the next write must not validate before it is applied or refused, or
	// two answers could contradict the log (Java releases its thread here).
	go func() {
		<-pending
		n.writeMu.Unlock()
	}()
	return res, err
}

// commit appends one entry and waits for it to apply, at most
// controllerCommitTimeoutMillis (Java waits 5 s). When the wait times out it
// also returns a channel closed once the entry is applied or refused.
func (n *Node) commit(events []controller.Event) (<-chan struct{}, error) {
	entry, err := controller.EncodeEntry(events)
	if err != nil {
		return nil, err
	}
	timeout := n.commitTimeout()
	started := time.Now()
	future := n.raft.Apply(entry, timeout)
	done, resolved := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(resolved)
		if err := future.Error(); err != nil {
			done <- err
			return
		}
		if resp, ok := future.Response().(error); ok && resp != nil {
			done <- resp
			return
		}
		done <- nil
	}()
	var pending <-chan struct{}
	select {
	case err = <-done:
	case <-time.After(timeout):
		err, pending = fmt.Errorf("raft commit not done after %s", timeout), resolved
	}
	n.metrics.commitSeconds.Observe(time.Since(started).Seconds())
	if errors.Is(err, raft.ErrNotLeader) || errors.Is(err, raft.ErrLeadershipLost) || errors.Is(err, raft.ErrEnqueueTimeout) ||
		errors.Is(err, raft.ErrLeadershipTransferInProgress) {
		return pending, fmt.Errorf("%w: %w", errNotServing, err)
	}
	return pending, err
}

// read answers a read from the leader's state, after VerifyLeader has
// heard from a quorum that this node still leads: a leader deposed while
// paused or cut off must not answer from its stale state (Java's DLedger
// controller does). With processReadEvent a Barrier commits first as well
// (Java's empty read event).
func read[H any](n *Node, fn func(*controller.State, controller.Liveness) *controller.Result[H]) (*controller.Result[H], error) {
	if !n.Serving() {
		return nil, errNotServing
	}
	if err := n.raft.VerifyLeader().Error(); err != nil {
		return nil, fmt.Errorf("%w: %w", errNotServing, err)
	}
	if n.Config().ProcessReadEvent {
		if err := n.raft.Barrier(n.commitTimeout()).Error(); err != nil {
			return nil, fmt.Errorf("%w: %w", errNotServing, err)
		}
	}
	var res *controller.Result[H]
	n.fsm.Read(func(s *controller.State) { res = fn(s, n.live) })
	return res, nil
}

// answer turns a result, or the error of getting it, into the response.
func answer[H any](n *Node, req *remoting.Command, res *controller.Result[H], err error) *remoting.Command {
	if errors.Is(err, errNotServing) {
		return n.notLeader(req)
	}
	if err != nil {
		n.log.WithError(err).WithField("code", req.Code).Warn("controller request failed")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	resp := remoting.NewResponse(req, int32(res.Code), res.Remark)
	resp.ExtFields = remoting.EncodeHeader(&res.Header)
	resp.Body = res.Body
	return resp
}

// notLeader is CONTROLLER_NOT_LEADER with Java's remark and, beyond Java,
// the leader's address in wire.LeaderAddressExt (during a transfer this
// node runs, the target's while no leader is known: transfer.go).
func (n *Node) notLeader(req *remoting.Command) *remoting.Command {
	resp := remoting.NewResponse(req, controller.CodeNotLeader, controller.RemarkNotLeader)
	if leader, ok := n.leaderOrTarget(); ok {
		resp.SetExt(wire.LeaderAddressExt, leader.Addr)
	}
	return resp
}

func headerError(req *remoting.Command, err error) *remoting.Command {
	return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
}

func (n *Node) alterSyncStateSet(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h wire.AlterSyncStateSetRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return headerError(req, err)
	}
	if err := n.checkRequest(&h); err != nil {
		return n.refuse(req, refusedBound, err)
	}
	body, err := wire.DecodeSyncStateSet(req.Body)
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	res, err := propose(n, func(s *controller.State, live controller.Liveness) *controller.Result[wire.AlterSyncStateSetResponse] {
		return s.AlterSyncStateSet(&h, body, live)
	})
	return answer(n, req, res, err)
}

func (n *Node) electMasterRequest(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	h := wire.NewElectMasterRequest()
	if err := remoting.DecodeHeader(req, h); err != nil {
		return headerError(req, err)
	}
	if err := n.checkRequest(h); err != nil {
		return n.refuse(req, refusedBound, err)
	}
	trigger := triggerBroker
	if h.DesignateElect {
		trigger = triggerAdmin
	}
	res, err := n.electMaster(h, trigger)
	return answer(n, req, res, err)
}

// electMaster runs one election and, when it elected, notifies the members.
func (n *Node) electMaster(h *wire.ElectMasterRequest, trigger string) (*controller.Result[wire.ElectMasterResponse], error) {
	res, err := propose(n, func(s *controller.State, live controller.Liveness) *controller.Result[wire.ElectMasterResponse] {
		return s.ElectMaster(h, controller.ElectConfig{EnableElectUncleanMaster: n.Config().EnableElectUncleanMaster}, live)
	})
	n.metrics.election(trigger, res, err)
	if err == nil && res.Code == controller.CodeSuccess {
		n.log.WithFields(logrus.Fields{"brokerName": h.BrokerName, "trigger": trigger,
			"master": *res.Header.MasterBrokerID, "masterEpoch": *res.Header.MasterEpoch}).Info("elected a new master")
		if n.Config().NotifyBrokerRoleChanged {
			n.notifier.roleChanged(h.BrokerName, &res.Header)
		}
	}
	return res, err
}

// byHeader decodes req's header into an H, runs do on the state through
// run (propose for a write, read for a read) and answers the result.
func byHeader[H, R any](n *Node, req *remoting.Command,
	run func(*Node, func(*controller.State, controller.Liveness) *controller.Result[R]) (*controller.Result[R], error),
	do func(*controller.State, *H, controller.Liveness) *controller.Result[R]) *remoting.Command {
	var h H
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return headerError(req, err)
	}
	if err := n.checkRequest(&h); err != nil {
		return n.refuse(req, refusedBound, err)
	}
	res, err := run(n, func(s *controller.State, live controller.Liveness) *controller.Result[R] { return do(s, &h, live) })
	return answer(n, req, res, err)
}

// noLiveness adapts a state method that does not read the liveness.
func noLiveness[H, R any](do func(*controller.State, *H) *controller.Result[R]) func(*controller.State, *H, controller.Liveness) *controller.Result[R] {
	return func(s *controller.State, h *H, _ controller.Liveness) *controller.Result[R] { return do(s, h) }
}

func (n *Node) registerBroker(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return byHeader(n, req, propose[wire.RegisterBrokerResponse], (*controller.State).RegisterBroker)
}

func (n *Node) getReplicaInfo(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return byHeader(n, req, read[wire.GetReplicaInfoResponse], noLiveness((*controller.State).GetReplicaInfo))
}

func (n *Node) getSyncStateData(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var names []string
	if len(req.Body) > 0 {
		var err error
		if names, err = wire.DecodeBrokerNames(req.Body); err != nil {
			return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
		}
	}
	if len(names) == 0 {
		// Java answers createResponseCommand(null): code 1 with this remark.
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, remarkNoResponseCode)
	}
	if err := checkBrokerNames(names); err != nil {
		return n.refuse(req, refusedBound, err)
	}
	res, err := read(n, func(s *controller.State, live controller.Liveness) *controller.Result[struct{}] {
		return s.GetSyncStateData(names, live)
	})
	return answer(n, req, res, err)
}

func (n *Node) cleanBrokerData(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return byHeader(n, req, propose[struct{}], (*controller.State).CleanBrokerData)
}

func (n *Node) getNextBrokerID(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return byHeader(n, req, read[wire.GetNextBrokerIDResponse], noLiveness((*controller.State).GetNextBrokerID))
}

func (n *Node) applyBrokerID(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	return byHeader(n, req, propose[wire.ApplyBrokerIDResponse], n.applyBrokerIDWithin)
}

// getMetadata answers 1005 on any node, in DLedger's format: peers as
// "id:addr;" each, sorted by id.
func (n *Node) getMetadata(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	h := wire.GetMetaDataResponse{Group: n.group, IsLeader: n.Serving(), Peers: n.members.Load().text}
	if leader, ok := n.Leader(); ok {
		h.ControllerLeaderID, h.ControllerLeaderAddress = leader.ID, leader.Addr
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.ExtFields = remoting.EncodeHeader(&h)
	return resp
}

// peersText is DLedger's "id:addr;" list, or JRaft's "rpcAddr;" with the
// JRaft keys (what each Java controller answers).
func peersText(peers []config.Peer, jraft bool) string {
	var b strings.Builder
	for _, p := range peers {
		if jraft {
			b.WriteString(p.Addr + ";")
		} else {
			b.WriteString(p.ID + ":" + p.Addr + ";")
		}
	}
	return b.String()
}

// brokerHeartbeat feeds the local heartbeat table (904, usually oneway). A
// heartbeat without its names, or with one past its bound, is refused (a
// one-way one dropped), counted and logged rate-limited.
func (n *Node) brokerHeartbeat(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h wire.BrokerHeartbeatRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return n.refuse(req, refusedHeader, err)
	}
	if err := checkHeartbeatFields(&h); err != nil {
		return n.refuse(req, refusedMissing, err)
	}
	if err := n.checkRequest(&h); err != nil {
		return n.refuse(req, refusedBound, err)
	}
	ok, full := n.live.observe(&h, conn.ID())
	if full {
		n.metrics.heartbeatsDropped.Inc()
		n.heartbeatFull.Log(n.log, logrus.WarnLevel, func() logrus.Fields {
			return logrus.Fields{"brokerName": h.BrokerName, "controllerMaxHeartbeatEntries": n.live.max}
		}, "heartbeat table full: heartbeat of a new member dropped", time.Now())
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, fmt.Sprintf(
			"heartbeat table full (controllerMaxHeartbeatEntries is %d): a new member's heartbeat is refused", n.live.max))
	}
	if !ok {
		return remoting.NewResponse(req, controller.CodeInvalidRequest, controller.RemarkHeartbeatNoBrokerID)
	}
	return remoting.NewResponse(req, remoting.SUCCESS, remarkHeartbeatSuccess)
}

func (n *Node) getConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.Body = n.Config().Properties()
	return resp
}

// updateConfig applies UPDATE_CONTROLLER_CONFIG to this node only (not
// replicated), written to configStorePath: see the README. Only the keys
// config.OnlineKeys may change; Java's black list keeps Java's answer.
func (n *Node) updateConfig(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	props, err := javaprops.Parse(req.Body)
	if err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	n.cfgUpdate.Lock()
	defer n.cfgUpdate.Unlock()
	old := n.Config()
	black := old.BlackList()
	for key := range props {
		if slices.Contains(black, key) {
			return remoting.NewResponse(req, remoting.NO_PERMISSION, remarkBlackList)
		}
	}
	// All or nothing: a key not changeable online, an unknown key or a
	// bad value refuses the whole request (config/online.go), and a file
	// that cannot be written leaves the node as it was.
	cfg, err := old.Update(props)
	if err != nil {
		n.refusals.Warn(n.log, nil, err, "controller config update refused")
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	n.cfg.Store(cfg)
	n.log.WithFields(logrus.Fields{"keys": len(props), "configStorePath": cfg.StorePath()}).
		Info("controller config updated (this node; written to configStorePath)")
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}
