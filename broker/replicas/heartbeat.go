package replicas

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// sendHeartbeats sends BROKER_HEARTBEAT one-way to every controller and, as
// a slave, to its master (whose in-sync check reads it), with the masterEpoch,
// the simulated offset and the election priority.
func (m *Manager) sendHeartbeats() {
	m.mu.Lock()
	id, epoch, controllers := m.controllerID, m.masterEpoch, append([]string(nil), m.controllers...)
	if !m.master && m.masterAddr != "" && m.masterAddr != m.self.BrokerAddr {
		controllers = append(controllers, m.masterAddr)
	}
	m.mu.Unlock()
	offset, timeout, priority := m.Offset(), m.cfg.ControllerHeartBeatTimeout.Milliseconds(), m.cfg.BrokerElectionPriority
	h := &wire.BrokerHeartbeatRequest{ClusterName: m.self.ClusterName, BrokerAddr: m.self.BrokerAddr, BrokerName: m.self.BrokerName,
		BrokerID: &id, Epoch: &epoch, MaxOffset: &offset, ConfirmOffset: &offset, HeartbeatTimeoutMills: &timeout, ElectionPriority: &priority}
	ext := remoting.EncodeHeader(h)
	ctx, cancel := context.WithTimeout(context.Background(), m.cfg.BrokerHeartbeatInterval)
	defer cancel()
	var wg sync.WaitGroup
	for _, addr := range controllers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := remoting.NewRequest(wire.CodeBrokerHeartbeat, ext, nil)
			req.Language = remoting.JAVA
			// A controller that is down is fine: the others hear it.
			if err := m.client(addr).InvokeOneway(ctx, req); err != nil {
				m.log.WithError(err).WithField("to", addr).Debug("heartbeat not sent")
			}
		}()
	}
	wg.Wait()
}

// heartbeatLoop sends heartbeats every brokerHeartbeatInterval until Stop,
// apart from the request loop so a slow controller call never delays them.
func (m *Manager) heartbeatLoop() {
	t := time.NewTicker(m.cfg.BrokerHeartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.sendHeartbeats()
		}
	}
}

// checkSyncStateSet is the master's in-sync check: itself plus the slaves
// that heartbeated within haMaxTimeSlaveNotCatchup with an offset within
// haMaxGapNotInSync of its own. A set that differs from the controller's is
// reported with CONTROLLER_ALTER_SYNC_STATE_SET.
func (m *Manager) checkSyncStateSet() {
	m.mu.Lock()
	if !m.master {
		m.mu.Unlock()
		return
	}
	id, epoch, sss, sssEpoch := m.controllerID, m.masterEpoch, m.sss, m.sssEpoch
	m.mu.Unlock()
	want := wire.SortedIDs(append(m.slaves.inSync(m.Offset(), m.cfg.HaMaxGapNotInSync, time.Now().Add(-m.cfg.HaMaxTimeSlaveNotCatchup)), id))
	if slices.Equal(want, wire.SortedIDs(sss)) {
		return
	}
	body := (&wire.SyncStateSet{SyncStateSet: want, SyncStateSetEpoch: sssEpoch}).Encode()
	resp, err := m.callLeader(wire.CodeAlterSyncStateSet, &wire.AlterSyncStateSetRequest{BrokerName: m.self.BrokerName,
		MasterBrokerID: id, MasterEpoch: epoch, InvokeTime: time.Now().UnixMilli()}, body)
	if err == nil {
		err = mustSucceed(resp, wire.CodeAlterSyncStateSet)
	}
	if err != nil {
		m.log.WithError(err).WithFields(logrus.Fields{"from": sss, "to": want}).Warn("in-sync set change not accepted")
		return
	}
	if got := decodeSSS(resp.Body); got != nil {
		m.adoptSyncStateSet(got)
		m.log.WithFields(logrus.Fields{"syncStateSet": got.SyncStateSet, "syncStateSetEpoch": got.SyncStateSetEpoch}).Info("in-sync set changed")
	}
}

// decodeElectBody reads the syncStateSet of ElectMasterResponseBody. Its
// brokerMemberGroup has fastjson's unquoted long keys, which encoding/json
// refuses, so only the "syncStateSet" array is parsed.
func decodeElectBody(body []byte) ([]int64, error) {
	const key = `"syncStateSet":`
	i := bytes.LastIndex(body, []byte(key))
	if i < 0 {
		return nil, fmt.Errorf("elect answer body has no syncStateSet: %q", body)
	}
	rest := body[i+len(key):]
	end := bytes.IndexByte(rest, ']')
	if end < 0 {
		return nil, fmt.Errorf("elect answer body's syncStateSet is not closed: %q", body)
	}
	var ids []int64
	if err := json.Unmarshal(rest[:end+1], &ids); err != nil {
		return nil, fmt.Errorf("elect answer body's syncStateSet: %w", err)
	}
	return wire.SortedIDs(ids), nil
}

// slaveTable holds the last heartbeat each slave sent its master.
type slaveTable struct {
	mu   sync.Mutex
	seen map[int64]slaveBeat
}

type slaveBeat struct {
	offset int64
	at     time.Time
}

func newSlaveTable() *slaveTable { return &slaveTable{seen: map[int64]slaveBeat{}} }

func (s *slaveTable) saw(id, offset int64, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[id] = slaveBeat{offset: offset, at: at}
}

// inSync returns the slaves heard since `since` whose offset is at most
// maxGap behind masterOffset.
func (s *slaveTable) inSync(masterOffset, maxGap int64, since time.Time) []int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []int64
	for id, b := range s.seen {
		if b.at.After(since) && masterOffset-b.offset <= maxGap {
			ids = append(ids, id)
		}
	}
	return ids
}
