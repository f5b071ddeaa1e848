// Package baseline is the zero-work server the NameServer is measured
// against: the same remoting server (gnet event loops, the same frame split
// and header codec), answering every request with precomputed answers of
// the size the real NameServer gives for the same seeded data. What the
// NameServer costs beyond the baseline is the cost of its own work.
package baseline

import (
	"context"
	"fmt"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// topicNotExistRemark is the real server's remark for an unknown topic,
// so that answer has the real size too.
const topicNotExistRemark = "No topic route info in name server for the topic: %s\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."

// answers holds the precomputed answers; it is read-only once built.
type answers struct {
	// routeByTopic is the answer to a route query per topic.
	routeByTopic     map[string]*remoting.Command
	register         *remoting.Command
	heartbeat        *remoting.Command
	queryDataVersion *remoting.Command
	other            *remoting.Command
}

// newAnswers encodes the layout's answers the way the NameServer would.
func newAnswers(l *load.Layout) *answers {
	a := &answers{routeByTopic: make(map[string]*remoting.Command, l.TopicCount())}
	byCluster := make([]*remoting.Command, len(l.Clusters))
	for c := range l.Clusters {
		byCluster[c] = &remoting.Command{Body: route.EncodeTopicRouteData(nil, l.RouteData(c), true)}
	}
	for i := range l.TopicCount() {
		topic, c := l.Topic(i)
		a.routeByTopic[topic] = byCluster[c]
	}
	a.register = &remoting.Command{ExtFields: map[string]string{}}
	a.heartbeat = &remoting.Command{}
	a.queryDataVersion = &remoting.Command{ExtFields: map[string]string{"changed": "false"},
		Body: route.EncodeDataVersion(nil, load.BodyDataVersion(load.FirstVersion))}
	a.other = &remoting.Command{}
	return a
}

// answer copies the precomputed answer to req into a fresh response (the
// server stamps opaque and flags on it, so templates are never shared). The
// request's body goes back to the server's pool, as the NameServer's
// registration handler hands it back: without that every 2 MB registration
// frame would be a fresh allocation, and the baseline would measure its own
// garbage collection instead of reading frames.
func (a *answers) answer(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
	req.ReleaseBody()
	template := a.other
	switch req.Code {
	case remoting.GET_ROUTEINFO_BY_TOPIC:
		topic := req.ExtFields["topic"]
		found, ok := a.routeByTopic[topic]
		if !ok {
			return remoting.NewResponse(req, remoting.TOPIC_NOT_EXIST, fmt.Sprintf(topicNotExistRemark, topic))
		}
		template = found
	case remoting.REGISTER_BROKER:
		template = a.register
	case remoting.BROKER_HEARTBEAT:
		template = a.heartbeat
	case remoting.QUERY_DATA_VERSION:
		template = a.queryDataVersion
	}
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	resp.ExtFields, resp.Body = template.ExtFields, template.Body
	return resp
}

// Server is a running baseline.
type Server struct {
	remoting *remoting.Server
}

// Start listens on addr (port 0 picks one) and answers for the data of
// spec. Every request is answered on the event loop, registrations
// included: reading their frames is all the baseline does with them.
func Start(addr string, spec load.LayoutSpec, log *logrus.Entry) (*Server, error) {
	cfg := remoting.DefaultServerConfig()
	cfg.Addr = addr
	cfg.Logger = log
	srv := remoting.NewServer(cfg)
	srv.HandleDefault(newAnswers(load.NewLayout(spec)).answer)
	if err := srv.Start(); err != nil {
		return nil, fmt.Errorf("baseline on %s: %w", addr, err)
	}
	return &Server{remoting: srv}, nil
}

// Addr is the address the baseline listens on.
func (s *Server) Addr() string { return s.remoting.Addr().String() }

// shutdownTimeout bounds a baseline's stop; it holds no state worth waiting for.
const shutdownTimeout = 5 * time.Second

// Shutdown stops the server; see remoting.Server.Shutdown.
func (s *Server) Shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	return s.remoting.Shutdown(ctx)
}
