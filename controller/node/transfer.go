package node

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/raft"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/config"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Bounds of a leadership transfer (wire.CodeTransferControllerLeader, the
// side port's POST /v1/controller/leader, a stopping leader's hand-off).
const (
	// TransferTimeout bounds one transfer: Raft's hand-over (which Raft
	// itself gives up after raftElectionTimeoutMillis) and the wait until
	// the new leader serves (its barrier committed).
	TransferTimeout = 10 * time.Second
	// GracefulTransferTimeout bounds the hand-off of a stopping leader: past
	// it the node stops all the same and the group elects as after a crash.
	GracefulTransferTimeout = 5 * time.Second
	// transferProbeEvery is how often the old leader asks the new one
	// whether it serves yet.
	transferProbeEvery = 10 * time.Millisecond
	// transferProbeTimeout bounds one such question (dial and answer).
	transferProbeTimeout = 500 * time.Millisecond
	// transferForwardSlack is what a forwarded transfer waits beyond
	// TransferTimeout for the leader's answer to travel back.
	transferForwardSlack = 2 * time.Second
)

// Why a transfer is refused, beyond errNotServing (this node does not lead).
var (
	// ErrUnknownTarget: the target id is not a voter of the group.
	ErrUnknownTarget = errors.New("unknown controller node id")
	// ErrTransferBusy: another transfer of this leader is running.
	ErrTransferBusy = errors.New("a leadership transfer is already running on this leader")
)

// transferState lets one transfer run at a time on a node.
type transferState struct {
	running sync.Mutex
	// target is the node a running transfer hands the lead to (nil
	// without one, or when Raft picks): while the election it starts
	// leaves no leader known, this node's CONTROLLER_NOT_LEADER names the
	// target, so a client that asks it is sent on instead of left with
	// no leader named.
	target atomic.Pointer[config.Peer]
}

// leaderOrTarget is the leader, or while none is known the target of a
// transfer this node runs.
func (n *Node) leaderOrTarget() (config.Peer, bool) {
	if leader, ok := n.Leader(); ok {
		return leader, true
	}
	if target := n.transferState.target.Load(); target != nil {
		return *target, true
	}
	return config.Peer{}, false
}

// TransferError is a transfer refused by the leader a follower forwarded it
// to: the leader's answer code and remark.
type TransferError struct {
	Code   int32
	Remark string
}

func (e *TransferError) Error() string {
	return fmt.Sprintf("controller leader answered %d: %s", e.Code, e.Remark)
}

// TransferLeader moves the lead to target ("" lets Raft pick the most
// up-to-date voter) and returns once the new leader serves. On a follower it
// forwards the request to the leader it knows (5021, signed with this node's
// credentials), so the side port of any node works; without a known leader
// it returns errNotServing.
func (n *Node) TransferLeader(ctx context.Context, target string) (*wire.TransferLeaderResponse, error) {
	if n.Serving() {
		return n.transfer(ctx, target)
	}
	leader, ok := n.Leader()
	if !ok || leader.ID == n.self.ID || n.draining.Load() {
		return nil, errNotServing
	}
	return n.forwardTransfer(ctx, leader, target)
}

// transfer runs the hand-over on this node, which must be Raft's leader.
func (n *Node) transfer(ctx context.Context, target string) (*wire.TransferLeaderResponse, error) {
	if !n.transferState.running.TryLock() {
		return nil, ErrTransferBusy
	}
	defer n.transferState.running.Unlock()
	if n.raft.State() != raft.Leader {
		return nil, errNotServing
	}
	res := &wire.TransferLeaderResponse{OldLeaderID: n.self.ID, OldLeaderAddress: n.self.Addr}
	var to *raft.Server
	if target != "" {
		server, err := n.voter(target)
		if err != nil {
			return nil, err
		}
		if server.ID == raft.ServerID(n.self.ID) {
			// Already leads: nothing moves, and nothing stopped serving.
			res.NewLeaderID, res.NewLeaderAddress = n.self.ID, n.self.Addr
			return res, nil
		}
		to = &server
		if peer, ok := n.peer(server.ID); ok {
			n.transferState.target.Store(&peer)
			defer n.transferState.target.Store(nil)
		}
	}
	started := time.Now()
	var future raft.Future
	if to != nil {
		future = n.raft.LeadershipTransferToServer(to.ID, to.Address)
	} else {
		future = n.raft.LeadershipTransfer()
	}
	if err := future.Error(); err != nil {
		return nil, fmt.Errorf("leadership transfer: %w", err)
	}
	leader, err := n.awaitServingLeader(ctx)
	if err != nil {
		return nil, err
	}
	res.NewLeaderID, res.NewLeaderAddress = leader.ID, leader.Addr
	res.WindowMillis = time.Since(started).Milliseconds()
	n.log.WithFields(logrus.Fields{"newLeader": leader.ID, "target": target, "windowMillis": res.WindowMillis}).
		Info("controller leadership transferred; the new leader serves")
	return res, nil
}

// voter is the group's voter whose id is id, or ErrUnknownTarget naming
// the voters.
func (n *Node) voter(id string) (raft.Server, error) {
	future := n.raft.GetConfiguration()
	if err := future.Error(); err != nil {
		return raft.Server{}, fmt.Errorf("controller group configuration: %w", err)
	}
	var ids []string
	for _, s := range future.Configuration().Servers {
		if s.Suffrage != raft.Voter {
			continue
		}
		if string(s.ID) == id {
			return s, nil
		}
		ids = append(ids, string(s.ID))
	}
	slices.Sort(ids)
	return raft.Server{}, fmt.Errorf("%w %q: the voters are %s", ErrUnknownTarget, id, strings.Join(ids, ", "))
}

// awaitServingLeader waits until a node other than this one leads and
// answers 1005 with isLeader=true (its barrier committed), or ctx ends.
func (n *Node) awaitServingLeader(ctx context.Context) (config.Peer, error) {
	clients := map[string]*remoting.Client{}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	for {
		if n.Serving() {
			return config.Peer{}, errors.New("leadership transfer: the lead came back to this node")
		}
		if leader, ok := n.Leader(); ok && leader.ID != n.self.ID {
			c := clients[leader.Addr]
			if c == nil {
				c = n.client(leader.Addr, transferProbeTimeout, transferProbeTimeout)
				clients[leader.Addr] = c
			}
			if serves(ctx, c) {
				return leader, nil
			}
		}
		select {
		case <-ctx.Done():
			return config.Peer{}, fmt.Errorf("leadership transfer: no other node serves as leader: %w", ctx.Err())
		case <-n.stop:
			return config.Peer{}, errors.New("leadership transfer: the node is stopping")
		case <-time.After(transferProbeEvery):
		}
	}
}

// serves asks c's node whether it leads and serves (1005's isLeader).
func serves(ctx context.Context, c *remoting.Client) bool {
	ctx, cancel := context.WithTimeout(ctx, transferProbeTimeout)
	defer cancel()
	resp, err := c.Invoke(ctx, remoting.NewRequest(wire.CodeGetMetadataInfo, nil, nil))
	if err != nil || resp.Code != remoting.SUCCESS {
		return false
	}
	var md wire.GetMetaDataResponse
	return remoting.DecodeHeader(resp, &md) == nil && md.IsLeader
}

// forwardTransfer sends 5021 to the leader and reads its answer.
func (n *Node) forwardTransfer(ctx context.Context, leader config.Peer, target string) (*wire.TransferLeaderResponse, error) {
	c := n.client(leader.Addr, transferProbeTimeout, TransferTimeout+transferForwardSlack)
	defer c.Close()
	req := remoting.NewRequest(wire.CodeTransferControllerLeader, remoting.EncodeHeader(&wire.TransferLeaderRequest{TargetID: target}), nil)
	resp, err := c.Invoke(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("leadership transfer forwarded to the leader %s (%s): %w", leader.ID, leader.Addr, err)
	}
	if resp.Code == controller.CodeNotLeader {
		return nil, errNotServing
	}
	if resp.Code != remoting.SUCCESS {
		return nil, &TransferError{Code: resp.Code, Remark: resp.Remark}
	}
	var res wire.TransferLeaderResponse
	if err := remoting.DecodeHeader(resp, &res); err != nil {
		return nil, fmt.Errorf("leadership transfer answer of %s: %w", leader.Addr, err)
	}
	return &res, nil
}

// transferLeaderRequest serves 5021 on the leader; a follower answers
// CONTROLLER_NOT_LEADER naming the leader, as for the state requests.
func (n *Node) transferLeaderRequest(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h wire.TransferLeaderRequest
	if err := remoting.DecodeHeader(req, &h); err != nil {
		return headerError(req, err)
	}
	if len(h.TargetID) > wire.MaxNodeIDBytes {
		return n.refuse(req, refusedBound, fmt.Errorf("targetId is %d bytes, at most %d", len(h.TargetID), wire.MaxNodeIDBytes))
	}
	if !n.Serving() {
		return n.notLeader(req)
	}
	ctx, cancel := context.WithTimeout(context.Background(), TransferTimeout)
	defer cancel()
	res, err := n.transfer(ctx, h.TargetID)
	if err != nil {
		code, remark := transferRefusal(err)
		if code == controller.CodeNotLeader {
			return n.notLeader(req)
		}
		n.refusals.Warn(n.log, logrus.Fields{"target": h.TargetID}, err, "controller leadership transfer failed")
		return remoting.NewResponse(req, code, remark)
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.ExtFields = remoting.EncodeHeader(res)
	return resp
}

// transferRefusal is the answer code and remark of a failed transfer:
// CONTROLLER_NOT_LEADER, CONTROLLER_INVALID_REQUEST for an unknown target,
// SYSTEM_BUSY while another runs, SYSTEM_ERROR otherwise.
func transferRefusal(err error) (int32, string) {
	var forwarded *TransferError
	switch {
	case errors.As(err, &forwarded):
		return forwarded.Code, forwarded.Remark
	case errors.Is(err, errNotServing):
		return controller.CodeNotLeader, controller.RemarkNotLeader
	case errors.Is(err, ErrUnknownTarget):
		return controller.CodeInvalidRequest, err.Error()
	case errors.Is(err, ErrTransferBusy):
		return remoting.SYSTEM_BUSY, err.Error()
	}
	return remoting.SYSTEM_ERROR, err.Error()
}

// handOff is a stopping leader's transfer (graceful stop): the group keeps
// a serving leader instead of waiting out an election timeout. Bounded by
// GracefulTransferTimeout; a single-node group, a follower or a node that
// is down has nothing to hand off.
func (n *Node) handOff(ctx context.Context) {
	if n.down.Load() != nil || n.raft.State() != raft.Leader || n.voterCount() < 2 {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, GracefulTransferTimeout)
	defer cancel()
	if _, err := n.transfer(ctx, ""); err != nil {
		n.log.WithError(err).Warn("stopping leader: leadership transfer failed; the group elects after its election timeout")
	}
}

// voterCount is how many voters the group's configuration has.
func (n *Node) voterCount() int {
	future := n.raft.GetConfiguration()
	if future.Error() != nil {
		return 0
	}
	count := 0
	for _, s := range future.Configuration().Servers {
		if s.Suffrage == raft.Voter {
			count++
		}
	}
	return count
}
