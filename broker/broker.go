package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/broker/admin"
	"github.com/gonamesrv/gonamesrv/broker/agent"
	"github.com/gonamesrv/gonamesrv/broker/replicas"
	"github.com/gonamesrv/gonamesrv/broker/subgroup"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/internal/mqversion"
	"github.com/gonamesrv/gonamesrv/internal/portguard"
	"github.com/gonamesrv/gonamesrv/namesrv/acl"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Broker is one route-only broker: topic store, admin server, registration
// agent and, for a slave, the copy of its master's topic table. Build it with
// New, run it with Start, stop it with Shutdown.
type Broker struct {
	cfg    Config
	log    *logrus.Entry
	store  *topicconfig.Store
	server *remoting.Server
	// port registers handlers on server behind their codes' access
	// classes (access.go); acl decides them.
	port     portguard.Guard
	acl      *acl.Checker
	aclClose sync.Once
	boot     time.Time

	agent      atomic.Pointer[agent.Agent] // set by Start
	masterAddr atomic.Pointer[string]      // learnt from registration answers
	slave      *slaveSync                  // nil for a master
	replicas   *replicas.Manager           // controller mode only
	agentStart sync.Once                   // controller mode: on the first role
	started    atomic.Bool

	// epochFlow is replicas for request callbacks, which may run before
	// Start sets it (epochs.go).
	epochFlow atomic.Pointer[replicas.Manager]
}

// New loads the topic table from <storePathRootDir>/config/topics.json (over
// the system topics) and prepares the admin server; nothing listens yet.
func New(cfg Config, log *logrus.Entry) (*Broker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	log = log.WithFields(logrus.Fields{"cluster": cfg.BrokerClusterName, "brokerName": cfg.BrokerName, "brokerId": cfg.BrokerID})
	file := topicconfig.NewFile(topicconfig.TopicsFilePath(cfg.StorePathRootDir))
	store := topicconfig.NewStore(file, topicconfig.SystemTopics(cfg.systemTopicOptions()), nil)
	if err := store.Load(); err != nil {
		return nil, fmt.Errorf("start broker %s: %w", cfg.BrokerName, err)
	}
	groups := subgroup.NewTable(subgroup.NewFile(subgroup.FilePath(cfg.StorePathRootDir)), nil)
	if err := groups.Load(); err != nil {
		return nil, fmt.Errorf("start broker %s: %w", cfg.BrokerName, err)
	}
	checker, err := portguard.NewChecker(cfg.ACLKeys(), log.WithField("component", "acl"))
	if err != nil {
		return nil, fmt.Errorf("start broker %s: %w: %w", cfg.BrokerName, ErrBrokerConfig, err)
	}
	b := &Broker{cfg: cfg, log: log, store: store, boot: time.Now(), acl: checker}
	b.server = remoting.NewServer(remoting.ServerConfig{
		Addr:          net.JoinHostPort(cfg.BindAddress, strconv.Itoa(cfg.ListenPort)),
		NumEventLoops: 1,
		SlowWorkers:   2,
		Logger:        log,
		TLS:           cfg.TLSKeys().Options(),
	})
	b.port = portguard.Guard{Port: b.server, Checker: checker, Classes: accessClasses}
	b.register(b.port, groups)
	if cfg.BrokerID != route.MasterID || cfg.EnableControllerMode {
		b.slave = newSlaveSync(store, b.MasterAddr, cfg.SlaveSyncPeriod, log)
		b.slave.clientConfig = cfg.Security.clientConfig
	}
	return b, nil
}

// register attaches every handler of the port but the controller mode's
// (startControllerMode) to port.
func (b *Broker) register(port portguard.Registrar, groups *subgroup.Table) {
	handlers := admin.New(b.store, b, b.runtimeInfo, b.log)
	if b.cfg.EnableControllerMode {
		handlers.ServeEpochCache(b.epochCache)
	}
	handlers.Register(port)
	admin.RegisterConfig(port, newOnlineConfig(b), b.log)
	admin.RegisterHAStatus(port, b.haStatus)
	admin.NewGroupHandlers(groups, b.store, b.cfg.BrokerName, b.log).Register(port)
}

// Store returns the topic table.
func (b *Broker) Store() *topicconfig.Store { return b.store }

// Agent returns the registration agent; nil before Start.
func (b *Broker) Agent() *agent.Agent { return b.agent.Load() }

// Addr returns the address announced to NameServers (brokerIP1:port); valid
// after Start.
func (b *Broker) Addr() string {
	if a := b.agent.Load(); a != nil {
		return b.announcedAddr()
	}
	return ""
}

func (b *Broker) announcedAddr() string {
	port := b.cfg.ListenPort
	if tcp, ok := b.server.Addr().(*net.TCPAddr); ok {
		port = tcp.Port
	}
	return net.JoinHostPort(b.cfg.BrokerIP1, strconv.Itoa(port))
}

// MasterAddr returns the master address the NameServers last reported ("" if none).
func (b *Broker) MasterAddr() string {
	if p := b.masterAddr.Load(); p != nil {
		return *p
	}
	return ""
}

// TopicsChanged forwards admin changes to the agent (admin.TopicsChangedNotifier).
func (b *Broker) TopicsChanged(configs ...route.TopicConfig) {
	if a := b.agent.Load(); a != nil {
		a.TopicsChanged(configs...)
	}
}

// Start opens the admin port, then registers with every NameServer and keeps
// registering on the period.
func (b *Broker) Start() error {
	if !b.started.CompareAndSwap(false, true) {
		return fmt.Errorf("start broker %s: %w", b.cfg.BrokerName, ErrBrokerState)
	}
	if err := b.server.Start(); err != nil {
		return fmt.Errorf("start broker %s: %w", b.cfg.BrokerName, err)
	}
	addr := b.announcedAddr()
	a := agent.New(b.cfg.agentConfig(addr), b.store, b.cfg.Dialer(b.log), b.onRegistered, b.log)
	b.agent.Store(a)
	if b.cfg.EnableControllerMode {
		if err := b.startControllerMode(addr); err != nil {
			return fmt.Errorf("start broker %s: %w", b.cfg.BrokerName, err)
		}
	} else {
		a.Start()
	}
	if b.slave != nil {
		b.slave.start()
	}
	b.log.WithFields(logrus.Fields{"brokerAddr": addr, "nameServers": b.cfg.NamesrvAddr, "topics": b.store.Len()}).
		Info("route-only broker started (no message store)")
	return nil
}

// startControllerMode starts the controller flow fenced: the agent starts
// registering with the NameServers only on the first role the controller
// gives (as id 0 with stateVersion = masterEpoch, or as the controller id).
func (b *Broker) startControllerMode(addr string) error {
	rc := b.cfg.controllerConfig()
	client, err := b.cfg.Security.clientConfig(b.log)
	if err != nil {
		return err
	}
	rc.TLS = client.TLS
	m, err := replicas.New(rc, replicas.Identity{ClusterName: b.cfg.BrokerClusterName,
		BrokerName: b.cfg.BrokerName, BrokerAddr: addr}, b.onRole, b.log)
	if err != nil {
		return err
	}
	b.replicas = m
	b.epochFlow.Store(m)
	m.Register(b.port)
	m.Start()
	return nil
}

// onRole re-registers at once under the new role.
func (b *Broker) onRole(r replicas.Role) {
	a := b.agent.Load()
	a.SetRole(agent.Role{BrokerID: r.RegisterID(), StateVersion: int64(r.MasterEpoch)})
	master := "" // a master copies topics from nobody
	if !r.Master {
		master = r.MasterAddr
	}
	b.masterAddr.Store(&master)
	if b.slave != nil && master != "" {
		b.slave.wake()
	}
	b.agentStart.Do(a.Start)
}

// onRegistered applies the first answer of each registration round (Java
// BrokerController.handleRegisterBrokerResult): master address for a slave,
// order flags from ORDER_TOPIC_CONFIG.
func (b *Broker) onRegistered(result agent.Result) {
	if old := b.MasterAddr(); old != result.MasterAddr {
		master := result.MasterAddr
		b.masterAddr.Store(&master)
		b.log.WithField("masterAddr", master).Info("master address changed")
		if b.slave != nil {
			b.slave.wake()
		}
	}
	if len(result.OrderTopics) == 0 {
		return
	}
	topics := make([]string, 0, len(result.OrderTopics))
	for topic := range result.OrderTopics {
		topics = append(topics, topic)
	}
	if _, err := b.store.MarkOrder(topics); err != nil {
		b.log.WithError(err).Warn("marking order topics failed")
	}
}

// Shutdown unregisters from every NameServer, stops the slave copy and closes
// the admin port.
func (b *Broker) Shutdown(ctx context.Context) error {
	defer b.aclClose.Do(b.acl.Close) // stops following the accounts file
	if !b.started.Load() {
		return nil
	}
	var errs []error
	if b.replicas != nil {
		b.replicas.Stop()
	}
	if b.slave != nil {
		b.slave.stop()
	}
	if a := b.agent.Load(); a != nil {
		if err := a.Stop(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	if err := b.server.Shutdown(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("shutdown broker %s: %w", b.cfg.BrokerName, err)
	}
	b.log.Info("broker stopped")
	return nil
}

// RemotingDialer opens real remoting clients to NameServers.
func RemotingDialer(log *logrus.Entry) agent.Dialer {
	return func(addr string) (agent.Invoker, error) {
		return remoting.NewClient(addr, remoting.ClientConfig{Logger: log}), nil
	}
}

// runtimeInfo is what a route-only broker can say to GET_BROKER_RUNTIME_INFO:
// its version and role, and zero traffic (it stores no messages).
func (b *Broker) runtimeInfo() map[string]string {
	master := b.cfg.BrokerID == route.MasterID
	if b.replicas != nil { // controller mode: the role the controller gave
		role, ok := b.replicas.Role()
		master = ok && role.Master
	}
	active := strconv.FormatBool(master)
	info := map[string]string{
		"brokerVersionDesc": mqversion.Name(remoting.CurrentVersion),
		"brokerVersion":     strconv.Itoa(remoting.CurrentVersion),
		"brokerActive":      active,
		"bootTimestamp":     strconv.FormatInt(b.boot.UnixMilli(), 10),
		"routeOnly":         "true",
		"topicCount":        strconv.Itoa(b.store.Len()),
		"putTps":            "0.0 0.0 0.0",
		"getTransferredTps": "0.0 0.0 0.0",
	}
	for _, key := range []string{
		"msgPutTotalYesterdayMorning", "msgPutTotalTodayMorning", "msgPutTotalTodayNow",
		"msgGetTotalYesterdayMorning", "msgGetTotalTodayMorning", "msgGetTotalTodayNow",
		"sendThreadPoolQueueSize", "pullThreadPoolQueueSize", "ackThreadPoolQueueSize",
		"sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueHeadWaitTimeMills",
		"ackThreadPoolQueueHeadWaitTimeMills", "pageCacheLockTimeMills",
		"timerReadBehind", "timerOffsetBehind", "timerCongestNum",
	} {
		info[key] = "0"
	}
	info["timerEnqueueTps"] = "0.0"
	info["timerDequeueTps"] = "0.0"
	return info
}

// slaveSync copies the master's topic table into a slave's store on a period
// and whenever the master address changes (Java SlaveSynchronize.syncTopicConfig).
type slaveSync struct {
	store      *topicconfig.Store
	masterAddr func() string
	period     time.Duration
	log        *logrus.Entry
	// clientConfig signs the copy's requests and turns TLS on as the
	// broker's NameServer calls (security.go): a master with aclEnable
	// answers only signed reads. nil: plain and unsigned.
	clientConfig func(*logrus.Entry) (remoting.ClientConfig, error)

	wakeCh   chan struct{} // capacity 1
	stopCh   chan struct{}
	done     chan struct{}
	stopOnce sync.Once
	client   *remoting.Client // to the current master; owned by the loop
	lastSeen route.DataVersion
}

func newSlaveSync(store *topicconfig.Store, masterAddr func() string, period time.Duration, log *logrus.Entry) *slaveSync {
	if period <= 0 {
		period = 60 * time.Second
	}
	return &slaveSync{
		store: store, masterAddr: masterAddr, period: period, log: log,
		wakeCh: make(chan struct{}, 1), stopCh: make(chan struct{}), done: make(chan struct{}),
	}
}

func (s *slaveSync) start() { go s.run() }

func (s *slaveSync) wake() {
	select {
	case s.wakeCh <- struct{}{}:
	default:
	}
}

func (s *slaveSync) stop() {
	s.stopOnce.Do(func() {
		close(s.stopCh)
		<-s.done
	})
}

func (s *slaveSync) run() {
	defer close(s.done)
	ticker := time.NewTicker(s.period)
	defer ticker.Stop()
	defer func() {
		if s.client != nil {
			s.client.Close()
		}
	}()
	for {
		select {
		case <-s.stopCh:
			return
		case <-ticker.C:
		case <-s.wakeCh:
		}
		if err := s.syncOnce(); err != nil {
			s.log.WithError(err).Warn("copying the master's topic config failed; retried next period")
		}
	}
}

// syncOnce fetches GET_ALL_TOPIC_CONFIG from the master and, when the
// master's version moved, makes the local table equal to it.
func (s *slaveSync) syncOnce() error {
	master := s.masterAddr()
	if master == "" {
		return nil
	}
	if s.client == nil || s.client.Addr() != master {
		if s.client != nil {
			s.client.Close()
		}
		s.client = nil
		cfg := remoting.ClientConfig{Logger: s.log}
		if s.clientConfig != nil {
			var err error
			if cfg, err = s.clientConfig(s.log); err != nil {
				return fmt.Errorf("client to master %s: %w", master, err)
			}
		}
		s.client = remoting.NewClient(master, cfg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	req := remoting.NewRequest(remoting.GET_ALL_TOPIC_CONFIG, map[string]string{}, nil)
	req.Language = remoting.JAVA
	resp, err := s.client.Invoke(ctx, req)
	if err != nil {
		return fmt.Errorf("GET_ALL_TOPIC_CONFIG from master %s: %w", master, err)
	}
	if resp.Code != remoting.SUCCESS {
		return fmt.Errorf("GET_ALL_TOPIC_CONFIG from master %s: code %d (%s)", master, resp.Code, resp.Remark)
	}
	wrapper, err := route.DecodeTopicConfigSerializeWrapper(resp.Body)
	if err != nil {
		return fmt.Errorf("decode master %s topic config: %w", master, err)
	}
	if wrapper.DataVersion == s.lastSeen {
		return nil
	}
	changed, err := s.store.ReplaceAll(wrapper.TopicConfigTable)
	if err != nil {
		return fmt.Errorf("store master %s topic config: %w", master, err)
	}
	s.lastSeen = wrapper.DataVersion
	s.log.WithFields(logrus.Fields{"masterAddr": master, "topics": len(wrapper.TopicConfigTable), "changed": changed}).
		Info("topic config copied from master")
	return nil
}
