package replicas

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/controller"
	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// Identity is who the broker is to the controller.
type Identity struct {
	ClusterName string
	BrokerName  string
	BrokerAddr  string // brokerIP1:listenPort
}

// Role is what the controller made the broker.
type Role struct {
	Master       bool
	ControllerID int64 // this broker's controller-assigned id
	MasterID     int64
	MasterAddr   string
	MasterEpoch  int32
}

// RegisterID is the brokerId to register with the NameServers: 0 as master,
// the controller id as slave.
func (r Role) RegisterID() int64 {
	if r.Master {
		return 0
	}
	return r.ControllerID
}

// Manager runs the controller-mode flow of one broker. onRole is called (from
// the manager's goroutine) on every role change with a higher masterEpoch.
type Manager struct {
	cfg    Config
	self   Identity
	onRole func(Role)
	log    *logrus.Entry
	start  time.Time
	slaves *slaveTable

	mu           sync.Mutex
	clients      map[string]*remoting.Client
	controllers  []string
	leader       string
	controllerID int64 // 0 until registered
	masterID     int64 // 0 = none known
	masterAddr   string
	masterEpoch  int32
	sss          []int64
	sssEpoch     int32
	master       bool
	epochs       epochLog // for GET_BROKER_EPOCH_CACHE

	notices   chan notice
	stop      chan struct{}
	done      chan struct{}
	once      sync.Once
	startOnce sync.Once
}

// notice is a NOTIFY_BROKER_ROLE_CHANGED handed from the server callback to the loop.
type notice struct {
	header wire.NotifyBrokerRoleChangedRequest
	sss    *wire.SyncStateSet
}

// New prepares the flow; nothing is sent before Start.
func New(cfg Config, self Identity, onRole func(Role), log *logrus.Entry) (*Manager, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	return &Manager{
		cfg: cfg, self: self, onRole: onRole, log: log.WithField("component", "replicas"), start: time.Now(),
		slaves: newSlaveTable(), clients: map[string]*remoting.Client{},
		notices: make(chan notice, 16), stop: make(chan struct{}), done: make(chan struct{}),
	}, nil
}

// Register adds the requests a controller-mode broker serves: the
// controller's NOTIFY_BROKER_ROLE_CHANGED (1008) and its slaves'
// BROKER_HEARTBEAT (904), which the master's in-sync check reads. Both
// callbacks only decode and hand over; they never block.
func (m *Manager) Register(srv portguard.Registrar) {
	srv.Handle(wire.CodeNotifyBrokerRoleChanged, m.handleNotice)
	srv.Handle(wire.CodeBrokerHeartbeat, m.handleSlaveHeartbeat)
}

func (m *Manager) handleNotice(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var n notice
	if err := remoting.DecodeHeader(req, &n.header); err != nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
	}
	if len(req.Body) > 0 {
		sss, err := wire.DecodeSyncStateSet(req.Body)
		if err != nil {
			return remoting.NewResponse(req, remoting.SYSTEM_ERROR, err.Error())
		}
		n.sss = sss
	}
	select {
	case m.notices <- n:
	default:
		// The loop is behind; GET_REPLICA_INFO polling catches up.
		m.log.Warn("role change notice dropped: queue full")
	}
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}

func (m *Manager) handleSlaveHeartbeat(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	var h wire.BrokerHeartbeatRequest
	if err := remoting.DecodeHeader(req, &h); err != nil || h.BrokerID == nil || h.MaxOffset == nil {
		return remoting.NewResponse(req, remoting.SYSTEM_ERROR, "BROKER_HEARTBEAT to a broker needs brokerName, brokerId and maxOffset")
	}
	m.slaves.saw(*h.BrokerID, *h.MaxOffset, time.Now())
	return remoting.NewResponse(req, remoting.SUCCESS, "")
}

// Offset is the simulated commit log's max offset: simulatedOffsetRate bytes
// for every second since the broker started.
func (m *Manager) Offset() int64 {
	return int64(time.Since(m.start).Seconds() * float64(m.cfg.SimulatedOffsetRate))
}

// Role returns the current role; ok is false while fenced.
func (m *Manager) Role() (Role, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.roleLocked(), m.masterID != 0
}

func (m *Manager) roleLocked() Role {
	return Role{Master: m.master, ControllerID: m.controllerID, MasterID: m.masterID, MasterAddr: m.masterAddr, MasterEpoch: m.masterEpoch}
}

// Start runs the flow in its own goroutines.
func (m *Manager) Start() {
	m.startOnce.Do(func() { go m.run() })
}

// Stop ends the flow and closes the controller connections.
func (m *Manager) Stop() {
	m.once.Do(func() {
		close(m.stop)
		m.startOnce.Do(func() { close(m.done) }) // never started: nothing to wait for
		<-m.done
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, c := range m.clients {
			_ = c.Close()
		}
	})
}

// sleep waits d or until Stop; false means stopped.
func (m *Manager) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-m.stop:
		return false
	case <-t.C:
		return true
	}
}

func (m *Manager) run() {
	defer close(m.done)
	for !m.startBasic() {
		m.log.WithField("retryIn", retryInterval).Warn("controller-mode start incomplete; retrying")
		if !m.sleep(retryInterval) {
			return
		}
	}
	m.log.WithField("role", m.describe()).Info("controller-mode start done")
	first := func(period time.Duration) *time.Ticker { return time.NewTicker(min(firstTaskDelay, period)) }
	replica := first(m.cfg.SyncBrokerMetadataPeriod)
	check := first(m.cfg.CheckSyncStateSetPeriod)
	metadata := first(m.cfg.SyncControllerMetadataPeriod)
	defer replica.Stop()
	defer check.Stop()
	defer metadata.Stop()
	hbDone := make(chan struct{})
	go func() { defer close(hbDone); m.heartbeatLoop() }()
	defer func() { <-hbDone }()
	for {
		select {
		case <-m.stop:
			return
		case n := <-m.notices:
			m.applyNotice(n)
		case <-replica.C:
			replica.Reset(m.cfg.SyncBrokerMetadataPeriod)
			m.syncReplicaInfo()
		case <-check.C:
			check.Reset(m.cfg.CheckSyncStateSetPeriod)
			m.checkSyncStateSet()
		case <-metadata.C:
			metadata.Reset(m.cfg.SyncControllerMetadataPeriod)
			if err := m.findLeader(); err != nil {
				m.log.WithError(err).Warn("controller leader not found")
			}
		}
	}
}

// startBasic is one try of the start sequence: leader, register, one
// heartbeat, an election when the set has no master.
func (m *Manager) startBasic() bool {
	var err error
	for i := 0; i < leaderTries; i++ {
		if err = m.findLeader(); err == nil {
			break
		}
		if !m.sleep(time.Second) {
			return false
		}
	}
	if err != nil {
		m.log.WithError(err).Warn("no controller names a leader")
		return false
	}
	for i := 0; i < registerTries; i++ {
		if err = m.register(); err == nil {
			break
		}
		m.log.WithError(err).Warn("registering with the controller failed")
		if !m.sleep(time.Duration(rand.IntN(1000)) * time.Millisecond) { // spread racing brokers
			return false
		}
	}
	if err != nil {
		return false
	}
	m.sendHeartbeats()
	if _, ok := m.Role(); ok {
		return true
	}
	if err := m.elect(); err != nil {
		m.log.WithError(err).Warn("election asked for by this broker did not give a master")
		return false
	}
	return true
}

// client returns the connection to addr, opening it the first time.
func (m *Manager) client(addr string) *remoting.Client {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.clients[addr]
	if !ok {
		c = remoting.NewClient(addr, remoting.ClientConfig{RequestTimeout: callTimeout, Logger: m.log,
			Sign: aclsign.Signer(m.cfg.Credentials), TLS: m.cfg.TLS})
		m.clients[addr] = c
	}
	return c
}

func (m *Manager) invoke(addr string, code int32, header any, body []byte) (*remoting.Command, error) {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	req := remoting.NewRequest(code, remoting.EncodeHeader(header), body)
	req.Language = remoting.JAVA
	resp, err := m.client(addr).Invoke(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("code %d to %s: %w", code, addr, err)
	}
	return resp, nil
}

// callLeader sends a request to the leader; a not-leader answer makes it
// look the leader up again for the next call.
func (m *Manager) callLeader(code int32, header any, body []byte) (*remoting.Command, error) {
	m.mu.Lock()
	leader := m.leader
	m.mu.Unlock()
	if leader == "" {
		if err := m.findLeader(); err != nil {
			return nil, err
		}
		m.mu.Lock()
		leader = m.leader
		m.mu.Unlock()
	}
	resp, err := m.invoke(leader, code, header, body)
	if err != nil {
		return nil, err
	}
	if resp.Code == controller.CodeNotLeader {
		m.mu.Lock()
		m.leader, _ = resp.Ext(wire.LeaderAddressExt)
		m.mu.Unlock()
		return nil, fmt.Errorf("%w: code %d: %s is not the leader", ErrController, code, leader)
	}
	return resp, nil
}

func mustSucceed(resp *remoting.Command, code int32) error {
	if resp.Code != remoting.SUCCESS {
		return fmt.Errorf("%w: code %d answered %d (%s)", ErrController, code, resp.Code, resp.Remark)
	}
	return nil
}

// findLeader asks each controller's CONTROLLER_GET_METADATA_INFO; the first
// that names a leader address wins.
func (m *Manager) findLeader() error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	addrs, err := m.cfg.ControllerAddrs(ctx)
	cancel()
	if err != nil {
		return err
	}
	m.mu.Lock()
	m.controllers = addrs
	m.mu.Unlock()
	var errs []string
	for _, addr := range addrs {
		resp, err := m.invoke(addr, wire.CodeGetMetadataInfo, struct{}{}, nil)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		var md wire.GetMetaDataResponse
		if err := remoting.DecodeHeader(resp, &md); err != nil || md.ControllerLeaderAddress == "" {
			errs = append(errs, addr+" names no leader")
			continue
		}
		m.mu.Lock()
		m.leader = md.ControllerLeaderAddress
		m.mu.Unlock()
		return nil
	}
	return fmt.Errorf("%w: no leader among %v: %v", ErrController, addrs, errs)
}

// register is Java's register(): metadata file -> REGISTER_BROKER; temp
// file -> APPLY_BROKER_ID; nothing -> GET_NEXT_BROKER_ID first.
func (m *Manager) register() error {
	path, tempPath := m.cfg.StorePathBrokerIdentity, m.cfg.StorePathBrokerIdentity+"-temp"
	meta, haveMeta, err := ReadMetadata(path, false)
	if err != nil {
		return err
	}
	if !haveMeta {
		temp, haveTemp, err := ReadMetadata(tempPath, true)
		if err != nil {
			return err
		}
		if haveTemp {
			if err := temp.fits(m.self.ClusterName, m.self.BrokerName, tempPath); err != nil {
				return err
			}
		} else {
			if temp, err = m.nextID(tempPath); err != nil {
				return err
			}
		}
		resp, err := m.callLeader(wire.CodeApplyBrokerID, &wire.ApplyBrokerIDRequest{ClusterName: m.self.ClusterName,
			BrokerName: m.self.BrokerName, AppliedBrokerID: temp.BrokerID, RegisterCheckCode: temp.RegisterCheckCode}, nil)
		if err == nil {
			err = mustSucceed(resp, wire.CodeApplyBrokerID)
		}
		if err != nil {
			// The id went to another broker (or the call failed): start over.
			return fmt.Errorf("apply broker id %d: %w", temp.BrokerID, fmt.Errorf("%w; %v", err, removeFile(tempPath)))
		}
		meta = Metadata{ClusterName: temp.ClusterName, BrokerName: temp.BrokerName, BrokerID: temp.BrokerID}
		if err := WriteMetadata(path, meta); err != nil {
			return err
		}
		if err := removeFile(tempPath); err != nil {
			return err
		}
		m.log.WithFields(logrus.Fields{"controllerId": meta.BrokerID, "file": path}).Info("broker id assigned by the controller")
	}
	if err := meta.fits(m.self.ClusterName, m.self.BrokerName, path); err != nil {
		return err
	}
	m.mu.Lock()
	m.controllerID = meta.BrokerID
	m.mu.Unlock()
	return m.registerToController()
}

// nextID asks GET_NEXT_BROKER_ID and writes the temp file with check code
// "brokerAddr;epochMillis".
func (m *Manager) nextID(tempPath string) (Metadata, error) {
	resp, err := m.callLeader(wire.CodeGetNextBrokerID, &wire.GetNextBrokerIDRequest{ClusterName: m.self.ClusterName, BrokerName: m.self.BrokerName}, nil)
	if err != nil {
		return Metadata{}, err
	}
	if err := mustSucceed(resp, wire.CodeGetNextBrokerID); err != nil {
		return Metadata{}, err
	}
	var next wire.GetNextBrokerIDResponse
	if err := remoting.DecodeHeader(resp, &next); err != nil {
		return Metadata{}, fmt.Errorf("next broker id answer: %w", err)
	}
	temp := Metadata{ClusterName: m.self.ClusterName, BrokerName: m.self.BrokerName, BrokerID: next.NextBrokerID,
		RegisterCheckCode: m.self.BrokerAddr + ";" + strconv.FormatInt(time.Now().UnixMilli(), 10)}
	return temp, WriteMetadata(tempPath, temp)
}

// registerToController sends CONTROLLER_REGISTER_BROKER and adopts the
// master it names.
func (m *Manager) registerToController() error {
	m.mu.Lock()
	id := m.controllerID
	m.mu.Unlock()
	resp, err := m.callLeader(wire.CodeRegisterBroker, &wire.RegisterBrokerRequest{ClusterName: m.self.ClusterName,
		BrokerName: m.self.BrokerName, BrokerID: id, BrokerAddress: m.self.BrokerAddr, InvokeTime: time.Now().UnixMilli()}, nil)
	if err != nil {
		return err
	}
	if err := mustSucceed(resp, wire.CodeRegisterBroker); err != nil {
		return err
	}
	var h wire.RegisterBrokerResponse
	if err := remoting.DecodeHeader(resp, &h); err != nil {
		return fmt.Errorf("register answer: %w", err)
	}
	if h.MasterBrokerID != nil && h.MasterAddress != nil && h.MasterEpoch != nil {
		m.changeRole(*h.MasterBrokerID, *h.MasterAddress, *h.MasterEpoch, decodeSSS(resp.Body))
	}
	return nil
}

func decodeSSS(body []byte) *wire.SyncStateSet {
	if len(body) == 0 {
		return nil
	}
	sss, err := wire.DecodeSyncStateSet(body)
	if err != nil {
		return nil
	}
	return sss
}

// elect asks CONTROLLER_ELECT_MASTER for this broker; an answer naming a
// master (0, or 2011 master still exists) changes the role.
func (m *Manager) elect() error {
	m.mu.Lock()
	id := m.controllerID
	m.mu.Unlock()
	resp, err := m.callLeader(wire.CodeElectMaster, &wire.ElectMasterRequest{ClusterName: m.self.ClusterName,
		BrokerName: m.self.BrokerName, BrokerID: id, InvokeTime: time.Now().UnixMilli()}, nil)
	if err != nil {
		return err
	}
	var h wire.ElectMasterResponse
	if err := remoting.DecodeHeader(resp, &h); err != nil {
		return fmt.Errorf("elect answer: %w", err)
	}
	if h.MasterBrokerID == nil || h.MasterAddress == nil || *h.MasterAddress == "" || h.MasterEpoch == nil {
		return fmt.Errorf("%w: no master after election (code %d, %s)", ErrController, resp.Code, resp.Remark)
	}
	var sss *wire.SyncStateSet
	if len(resp.Body) > 0 {
		if body, err := decodeElectBody(resp.Body); err == nil && h.SyncStateSetEpoch != nil {
			sss = &wire.SyncStateSet{SyncStateSet: body, SyncStateSetEpoch: *h.SyncStateSetEpoch}
		}
	}
	m.changeRole(*h.MasterBrokerID, *h.MasterAddress, *h.MasterEpoch, sss)
	return nil
}

// syncReplicaInfo polls CONTROLLER_GET_REPLICA_INFO: a higher masterEpoch
// changes the role, or asks for an election when the set has no master;
// the same epoch as master adopts a newer in-sync set.
func (m *Manager) syncReplicaInfo() {
	resp, err := m.callLeader(wire.CodeGetReplicaInfo, &wire.GetReplicaInfoRequest{BrokerName: m.self.BrokerName}, nil)
	if err != nil {
		m.log.WithError(err).Warn("GET_REPLICA_INFO failed")
		return
	}
	if resp.Code == controller.CodeBrokerMetadataNotExist {
		if err := m.registerToController(); err != nil {
			m.log.WithError(err).Warn("re-registering with the controller failed")
		}
		return
	}
	if err := mustSucceed(resp, wire.CodeGetReplicaInfo); err != nil {
		m.log.WithError(err).Warn("GET_REPLICA_INFO refused")
		return
	}
	var h wire.GetReplicaInfoResponse
	if err := remoting.DecodeHeader(resp, &h); err != nil || h.MasterEpoch == nil {
		m.log.WithError(err).Warn("GET_REPLICA_INFO answer unreadable")
		return
	}
	sss := decodeSSS(resp.Body)
	m.mu.Lock()
	epoch, master := m.masterEpoch, m.master
	m.mu.Unlock()
	switch {
	case *h.MasterEpoch > epoch && h.MasterBrokerID != nil && h.MasterAddress != nil && *h.MasterAddress != "":
		m.changeRole(*h.MasterBrokerID, *h.MasterAddress, *h.MasterEpoch, sss)
	case *h.MasterEpoch > epoch: // a newer epoch without a master: the old one was cleared
		if err := m.elect(); err != nil {
			m.log.WithError(err).Warn("the set has no master; election failed")
		}
	case *h.MasterEpoch == epoch && master && sss != nil:
		m.adoptSyncStateSet(sss)
	}
}

func (m *Manager) applyNotice(n notice) {
	if n.header.MasterAddress == "" {
		return
	}
	m.changeRole(n.header.MasterBrokerID, n.header.MasterAddress, n.header.MasterEpoch, n.sss)
}

// changeRole is Java's changeBrokerRole: only a higher masterEpoch counts.
func (m *Manager) changeRole(masterID int64, masterAddr string, epoch int32, sss *wire.SyncStateSet) {
	m.mu.Lock()
	if epoch <= m.masterEpoch {
		m.mu.Unlock()
		if sss != nil {
			m.adoptSyncStateSet(sss)
		}
		return
	}
	m.masterEpoch, m.masterID, m.masterAddr = epoch, masterID, masterAddr
	m.epochs.add(epoch, m.Offset())
	m.master = masterID == m.controllerID
	if sss != nil && sss.SyncStateSetEpoch > m.sssEpoch {
		m.sss, m.sssEpoch = sss.SyncStateSet, sss.SyncStateSetEpoch
	}
	role := m.roleLocked()
	m.mu.Unlock()
	m.log.WithFields(logrus.Fields{"master": role.Master, "controllerId": role.ControllerID, "masterId": masterID,
		"masterAddr": masterAddr, "masterEpoch": epoch}).Info("broker role changed")
	if m.onRole != nil {
		m.onRole(role)
	}
	if role.Master {
		m.checkSyncStateSet()
	}
}

func (m *Manager) adoptSyncStateSet(sss *wire.SyncStateSet) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if sss.SyncStateSetEpoch > m.sssEpoch {
		m.sss, m.sssEpoch = wire.SortedIDs(sss.SyncStateSet), sss.SyncStateSetEpoch
	}
}

func (m *Manager) describe() string {
	r, ok := m.Role()
	switch {
	case !ok:
		return "fenced"
	case r.Master:
		return fmt.Sprintf("master (controller id %d, epoch %d)", r.ControllerID, r.MasterEpoch)
	default:
		return fmt.Sprintf("slave %d of %d at %s (epoch %d)", r.ControllerID, r.MasterID, r.MasterAddr, r.MasterEpoch)
	}
}
