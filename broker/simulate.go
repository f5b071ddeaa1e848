package broker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/broker/agent"
	"github.com/gonamesrv/gonamesrv/broker/topicconfig"
	"github.com/gonamesrv/gonamesrv/route"
)

// SimulatedTopicPrefix starts the names of the topics simulated brokers carry;
// topic j is the same name on every simulated broker, so each such route lists
// every simulated broker, the heavy case for a NameServer.
const SimulatedTopicPrefix = "SimTopic-"

// Simulation is a set of simulated brokers in one process: each has its own
// name (<brokerName>-<i>), announced address (brokerIP1:listenPort+i), topic
// table in memory and NameServer connections, but no listener. It exists to
// load-test NameServers with many brokers.
type Simulation struct {
	agents []*agent.Agent
}

// StartSimulation starts count simulated masters with topicsPerBroker topics
// each (plus the system topics) registering like cfg says.
func StartSimulation(cfg Config, count, topicsPerBroker int, log *logrus.Entry) (*Simulation, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if count <= 0 || topicsPerBroker < 0 {
		return nil, fmt.Errorf("%w: simulate %d brokers with %d topics", ErrBrokerConfig, count, topicsPerBroker)
	}
	if log == nil {
		log = logrus.NewEntry(logrus.StandardLogger())
	}
	sim := &Simulation{}
	for i := range count {
		member := cfg
		member.BrokerName = cfg.BrokerName + "-" + strconv.Itoa(i)
		member.BrokerID = route.MasterID
		topics := topicconfig.SystemTopics(member.systemTopicOptions())
		for j := range topicsPerBroker {
			topics = append(topics, route.NewTopicConfig(SimulatedTopicPrefix+strconv.Itoa(j)))
		}
		store := topicconfig.NewStore(nil, topics, nil)
		addr := net.JoinHostPort(member.BrokerIP1, strconv.Itoa(member.ListenPort+i))
		memberLog := log.WithField("brokerName", member.BrokerName)
		a := agent.New(member.agentConfig(addr), store, member.Dialer(memberLog), nil, memberLog)
		a.Start()
		sim.agents = append(sim.agents, a)
	}
	log.WithFields(logrus.Fields{"brokers": count, "topicsPerBroker": topicsPerBroker}).Info("simulated brokers started")
	return sim, nil
}

// Len returns the number of simulated brokers.
func (s *Simulation) Len() int { return len(s.agents) }

// Shutdown unregisters every simulated broker.
func (s *Simulation) Shutdown(ctx context.Context) error {
	errs := make([]error, len(s.agents))
	done := make(chan int, len(s.agents))
	for i, a := range s.agents {
		go func() {
			errs[i] = a.Stop(ctx)
			done <- i
		}()
	}
	for range s.agents {
		<-done
	}
	return errors.Join(errs...)
}
