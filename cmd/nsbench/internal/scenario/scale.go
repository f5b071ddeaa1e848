package scenario

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/proc"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Scenario names of the scale run.
const (
	ScenarioScaleQuiet    = "scale quiet"
	ScenarioScaleRefresh  = "scale re-registering"
	ScenarioScaleLists    = "scale lists"
	ScenarioScaleExpiry   = "scale expiry"
	ScenarioScaleClients  = "scale clients"
	ScenarioScaleBigBody  = "scale big body"
	scaleQueryWorkers     = 256
	scaleExpiryGrace      = 10 * time.Second
	scaleExpiryExtraScans = 2
)

// FactScalePeak names the peak memory of the layout in use: after the cold
// registration, the route queries, the re-registrations, the lists and the
// expiry, before the 60,000-topic broker joins.
const FactScalePeak = "peak resident memory with the 100,000-topic layout in use, before the 60,000-topic phase (VmHWM)"

// ScaleSpec sizes the scale run (ScaleDefaults: the figures).
type ScaleSpec struct {
	Layout load.LayoutSpec
	// Refresh is the period at which every broker re-registers in the
	// re-registering phase (on average: each waits a uniform 0-2x Refresh).
	Refresh time.Duration
	// ExpireBrokers is how many brokers expire at once.
	ExpireBrokers int
	// ExpiryTimeout is the heartbeat timeout the expiring brokers register
	// with; ScanInterval is the NameServer's scanNotActiveBrokerInterval.
	ExpiryTimeout, ScanInterval time.Duration
	// Clients connections each send one route query per ClientPeriod, from
	// the local addresses Sources (several: ephemeral ports run out).
	Clients      int
	ClientPeriod time.Duration
	Sources      []string
	// BigTopics is the topic count of the one-broker body sent whole,
	// compressed and split into frames of SplitSize topics.
	BigTopics int
	SplitSize int
}

// ScaleDefaults is the scale: 100 clusters of 10 brokers, 1,000
// topics per cluster on all 10 of its brokers, 8 queues (100,000 topics,
// 1,000,000 queue datas); 50,000 clients each asking every 30 s; a
// 60,000-topic body; Java's default split of 800 topics per frame.
var ScaleDefaults = ScaleSpec{
	Layout:  load.LayoutSpec{Clusters: 100, BrokersPerCluster: 10, TopicsPerCluster: 1000, QueueNums: 8},
	Refresh: 30 * time.Second, ExpireBrokers: 100, ExpiryTimeout: 3 * time.Second, ScanInterval: 5 * time.Second,
	Clients: 50000, ClientPeriod: 30 * time.Second, Sources: []string{"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"},
	BigTopics: 60000, SplitSize: 800,
}

// Scale measures a NameServer at a large scale, one phase after the other
// on one server (so memory figures come first): cold registration and
// memory, route queries quiet and while every broker re-registers, the big
// lists, the expiry of many brokers at once, a 60,000-topic body in its
// three forms, and finally many client connections.
func Scale(e *Env, spec ScaleSpec, routeLoad Load) (Result, error) {
	var result Result
	if err := e.scaleClients(&result, spec); err != nil {
		return result, err
	}
	server, err := e.Start(report.TargetNamesrv, spec.Layout)
	if err != nil {
		return result, err
	}
	regs := load.NewRegistrations(load.NewLayout(spec.Layout))
	empty := server.ResidentBytes()
	began := time.Now()
	s, err := e.seedOn(server, spec.Layout, regs, routeLoad.Conns)
	if err != nil {
		return result, err
	}
	defer s.close()
	cold := time.Since(began)
	e.scaleMemory(&result, s, spec, empty, cold)

	steps := []func() error{
		func() error {
			return e.scalePhase(&result, s, ScenarioScaleQuiet, load.RouteStream(s.layout, s.pipes, routeLoad.InFlight))
		},
		func() error {
			window := e.Window
			window.Measure = max(window.Measure, spec.Refresh)
			return e.scalePhaseIn(&result, s, ScenarioScaleRefresh, window,
				load.RouteStream(s.layout, s.pipes, routeLoad.InFlight),
				load.RegisterStream(regs, s.brokers, load.RegisterUnchanged, load.UniformPause(2*spec.Refresh)))
		},
		func() error { return e.scaleLists(&result, s) },
		func() error { return e.scaleExpiry(&result, s, spec, routeLoad) },
		func() error {
			result.fact(FactScalePeak, mib(peakResident(s.server.PID)), "MiB")
			return nil
		},
		func() error { return e.scaleBigBody(&result, s, spec) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return result, err
		}
	}
	result.fact("peak resident memory of the whole run (VmHWM)", mib(peakResident(s.server.PID)), "MiB")
	return result, nil
}

// scaleMemory records the cold registration and the memory it took.
func (e *Env) scaleMemory(result *Result, s *seeded, spec ScaleSpec, empty int64, cold time.Duration) {
	loaded := s.server.ResidentBytes()
	peak := peakResident(s.server.PID)
	l := spec.Layout
	topics := l.Clusters * l.TopicsPerCluster
	brokers := l.Clusters * l.BrokersPerCluster
	queueDatas := topics * l.BrokersPerCluster
	grown := float64(loaded - empty)
	result.fact("cold registration of every broker (dial and register, 4 at a time)", cold.Seconds(), "s")
	result.fact("registration body per broker", float64(s.regs.BodySize(0)), "bytes")
	result.fact("resident memory, empty", mib(empty), "MiB")
	result.fact("resident memory, every broker registered", mib(loaded), "MiB")
	result.fact("peak resident memory after the cold registration (VmHWM)", mib(peak), "MiB")
	result.fact("bytes per topic over the empty server", grown/float64(topics), "bytes")
	result.fact("bytes per broker over the empty server", grown/float64(brokers), "bytes")
	result.fact("bytes per queue data over the empty server", grown/float64(queueDatas), "bytes")
}

// peakResident is the process's VmHWM, 0 when unknown.
func peakResident(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	peak, err := proc.PeakResidentBytes(pid)
	if err != nil {
		return 0
	}
	return peak
}

func (e *Env) scalePhase(result *Result, s *seeded, name string, streams ...load.Stream) error {
	return e.scalePhaseIn(result, s, name, e.Window, streams...)
}

// scalePhaseIn measures streams against s in window and labels them name.
func (e *Env) scalePhaseIn(result *Result, s *seeded, name string, window load.Window, streams ...load.Stream) error {
	window.ServerPID = s.server.PID
	m, err := load.Run(e.Ctx, window, streams...)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	for i := range m.Phases {
		e.label(&m.Phases[i], s, name)
	}
	result.Phases = append(result.Phases, m.Phases...)
	return nil
}

// scaleLists measures the three big answers one at a time from one
// client, after checking each once in full.
func (e *Env) scaleLists(result *Result, s *seeded) error {
	l := s.layout
	wantTopics := l.TopicCount()
	cluster := l.Clusters[0]
	lists := []struct {
		op  string
		req func() *remoting.Command
		// check decodes the answer body and says what is wrong.
		check func(body []byte) string
	}{
		{"GET_ALL_TOPIC_LIST_FROM_NAMESERVER", func() *remoting.Command {
			return load.AdminRequest(remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil)
		}, topicCount(wantTopics)},
		{"GET_TOPICS_BY_CLUSTER", func() *remoting.Command {
			return load.AdminRequest(remoting.GET_TOPICS_BY_CLUSTER, map[string]string{"cluster": cluster.Name})
		}, topicCount(len(cluster.Topics))},
		{"GET_BROKER_CLUSTER_INFO", func() *remoting.Command {
			return load.AdminRequest(remoting.GET_BROKER_CLUSTER_INFO, nil)
		}, brokerCount(len(l.Brokers()))},
	}
	for _, list := range lists {
		resp, err := s.clients[0].Invoke(e.Ctx, list.req())
		if err != nil {
			return fmt.Errorf("%s: %w", list.op, err)
		}
		if kind := load.ExpectSuccess(resp); kind != "" {
			return fmt.Errorf("%s: %s %q: %w", list.op, kind, resp.Remark, load.ErrBadAnswer)
		}
		if wrong := list.check(resp.Body); wrong != "" {
			return fmt.Errorf("%s: %s: %w", list.op, wrong, load.ErrBadAnswer)
		}
		result.fact(list.op+" answer body", float64(len(resp.Body)), "bytes")
		size := len(resp.Body)
		stream := load.Stream{Op: list.op, Clients: s.clients[:1], InFlight: 1,
			NewSource: func(int, *rand.Rand) load.Source {
				return func() (*remoting.Command, load.Check) {
					return list.req(), func(resp *remoting.Command) string {
						if kind := load.ExpectSuccess(resp); kind != "" {
							return kind
						}
						if len(resp.Body) != size {
							return "answer size changed"
						}
						return ""
					}
				}
			}}
		if err := e.scalePhase(result, s, ScenarioScaleLists, stream); err != nil {
			return err
		}
	}
	return nil
}

func topicCount(want int) func([]byte) string {
	return func(body []byte) string {
		list, err := route.DecodeTopicList(body)
		if err != nil {
			return "undecodable topic list"
		}
		if len(list.TopicList) != want {
			return fmt.Sprintf("%d topics, want %d", len(list.TopicList), want)
		}
		return ""
	}
}

func brokerCount(want int) func([]byte) string {
	return func(body []byte) string {
		info, err := route.DecodeClusterInfo(body)
		if err != nil {
			return "undecodable cluster info"
		}
		if len(info.BrokerAddrTable) != want {
			return fmt.Sprintf("%d brokers, want %d", len(info.BrokerAddrTable), want)
		}
		return ""
	}
}

// scaleExpiry has spec.ExpireBrokers brokers (the first clusters) register
// again with a short heartbeat timeout and go silent, and measures route
// queries for the other clusters' topics while the scan removes them.
func (e *Env) scaleExpiry(result *Result, s *seeded, spec ScaleSpec, routeLoad Load) error {
	brokers := s.layout.Brokers()[:spec.ExpireBrokers]
	expiredClusters := (spec.ExpireBrokers + spec.Layout.BrokersPerCluster - 1) / spec.Layout.BrokersPerCluster
	for _, b := range brokers {
		resp, err := s.brokers[b.Index].Invoke(e.Ctx, s.regs.ExpiringRequest(b, load.FirstVersion, spec.ExpiryTimeout))
		if err != nil {
			return fmt.Errorf("%s: register %s to expire: %w", ScenarioScaleExpiry, b.Name, err)
		}
		if kind := load.ExpectSuccess(resp); kind != "" {
			return fmt.Errorf("%s: register %s to expire: %s: %w", ScenarioScaleExpiry, b.Name, kind, load.ErrSeedRefused)
		}
	}
	window := e.Window
	window.Warmup = 0
	window.Measure = spec.ExpiryTimeout + time.Duration(scaleExpiryExtraScans)*spec.ScanInterval
	route := load.RouteStreamOf(s.layout, s.pipes[:routeLoad.Conns], routeLoad.InFlight, func(c int) bool { return c >= expiredClusters })
	if err := e.scalePhaseIn(result, s, ScenarioScaleExpiry, window, route); err != nil {
		return err
	}
	left := len(s.layout.Brokers()) - spec.ExpireBrokers
	deadline := time.Now().Add(scaleExpiryGrace)
	for {
		resp, err := s.clients[0].Invoke(e.Ctx, load.AdminRequest(remoting.GET_BROKER_CLUSTER_INFO, nil))
		if err != nil {
			return fmt.Errorf("%s: %w", ScenarioScaleExpiry, err)
		}
		wrong := brokerCount(left)(resp.Body)
		if wrong == "" {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: after the scans: %s: %w", ScenarioScaleExpiry, wrong, load.ErrBadAnswer)
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.Log.WithFields(logrus.Fields{"expired": spec.ExpireBrokers, "left": left}).Info("brokers expired")
	return nil
}

// scaleBigBody registers one broker with spec.BigTopics topics: first in
// one JSON frame (the topics are new), then a new data version of the same
// table in one JSON frame, in one compressed frame, and split into frames
// of spec.SplitSize topics; for each, the body size, the time to the last
// answer and the server's CPU.
func (e *Env) scaleBigBody(result *Result, s *seeded, spec ScaleSpec) error {
	big := load.NewBigBroker(spec.BigTopics, spec.Layout.QueueNums)
	conn, err := load.DialBroker(e.Ctx, s.server.Addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	compressed, err := big.Compressed(12)
	if err != nil {
		return err
	}
	forms := []struct {
		name string
		reqs []*remoting.Command
	}{
		{"one JSON frame, new topics", []*remoting.Command{big.Plain(10)}},
		{"one JSON frame, new data version", []*remoting.Command{big.Plain(11)}},
		{"one compressed frame, new data version", []*remoting.Command{compressed}},
		{fmt.Sprintf("split into frames of %d topics, new data version", spec.SplitSize), big.Split(13, spec.SplitSize)},
	}
	for _, form := range forms {
		bytes := 0
		for _, req := range form.reqs {
			bytes += len(req.Body)
		}
		cpuBefore := load.ProcessCPU(s.server.PID)
		began := time.Now()
		for _, req := range form.reqs {
			resp, err := conn.Invoke(e.Ctx, req)
			if err != nil {
				return fmt.Errorf("%s %s: %w", ScenarioScaleBigBody, form.name, err)
			}
			if kind := load.ExpectSuccess(resp); kind != "" {
				return fmt.Errorf("%s %s: %s %q: %w", ScenarioScaleBigBody, form.name, kind, resp.Remark, load.ErrSeedRefused)
			}
		}
		took := time.Since(began)
		cpu := load.ProcessCPU(s.server.PID) - cpuBefore
		prefix := fmt.Sprintf("%d-topic registration, %s (%d frame(s))", spec.BigTopics, form.name, len(form.reqs))
		result.fact(prefix+": body", float64(bytes), "bytes")
		result.fact(prefix+": time to the last answer", float64(took.Microseconds())/1000, "ms")
		result.fact(prefix+": server CPU", float64(cpu.Microseconds())/1000, "ms")
	}
	return nil
}

// scaleClients opens spec.Clients connections to a fresh NameServer with
// one cluster of the layout (the same route answers; the big tables' garbage
// collection would swing the resident memory by more than the connections
// take), each sending one route query per spec.ClientPeriod, and reports
// the server's CPU share and memory per connection.
func (e *Env) scaleClients(result *Result, spec ScaleSpec) error {
	small := spec.Layout
	small.Clusters = 1
	s, err := e.seed(report.TargetNamesrv, small, load.NewRegistrations(load.NewLayout(small)), 1)
	if err != nil {
		return fmt.Errorf("%s: %w", ScenarioScaleClients, err)
	}
	defer s.close()
	time.Sleep(settle)
	before := s.server.ResidentBytes()
	conns, err := load.OpenFrom(e.Ctx, s.server.Addr, spec.Clients, spec.Sources)
	if err != nil {
		return fmt.Errorf("%s: %w", ScenarioScaleClients, err)
	}
	defer load.CloseConns(conns)
	topic, _ := s.layout.Topic(s.layout.TopicCount() - 1)
	cpuBefore := load.ProcessCPU(s.server.PID)
	phase, err := load.QueryEach(e.Ctx, conns, load.RouteRequest(topic), spec.ClientPeriod, scaleQueryWorkers)
	cpu := load.ProcessCPU(s.server.PID) - cpuBefore
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("%s: %w", ScenarioScaleClients, err)
	}
	time.Sleep(settle)
	after := s.server.ResidentBytes()
	phase.ServerCPUCores = cpu.Seconds() / phase.Seconds
	if phase.Requests > 0 {
		phase.ServerCPUMicrosPerOp = float64(cpu.Microseconds()) / float64(phase.Requests)
	}
	e.label(&phase, s, ScenarioScaleClients)
	result.Phases = append(result.Phases, phase)
	result.fact(fmt.Sprintf("%d client connections (one cluster loaded): server memory growth", spec.Clients), mib(after-before), "MiB")
	result.fact(fmt.Sprintf("%d client connections: bytes per connection", spec.Clients), float64(after-before)/float64(spec.Clients), "bytes")
	result.fact(fmt.Sprintf("%d client connections, one query each per %v: server CPU", spec.Clients, spec.ClientPeriod), phase.ServerCPUCores*100, "% of a core")
	return nil
}
