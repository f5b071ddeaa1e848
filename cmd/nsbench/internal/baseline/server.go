// Package baseline is the zero-work server the NameServer is measured
// against: gnet event loops (one per CPU, as the NameServer runs them) and
// the same framing, answering every request with a precomputed answer of
// the size the real NameServer gives for the same seeded data, found from
// the header's bytes (code, opaque, flag, topic) without decoding it, its
// opaque patched in. What the NameServer costs beyond the baseline is the
// cost of its own work: header decoding and dispatch included.
package baseline

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/panjf2000/gnet/v2"
	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// topicNotExistRemark is the real server's remark for an unknown topic,
// so that answer has the real size too.
const topicNotExistRemark = "No topic route info in name server for the topic: %s\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."

// answers holds the precomputed answers as templates (load.Template: the
// frame with the opaque cut out); it is read-only once built.
type answers struct {
	// routeByTopic is the answer to a route query per topic.
	routeByTopic     map[string]*encodings
	register         encodings
	heartbeat        encodings
	queryDataVersion encodings
	other            encodings
}

// encodings is one answer in both header encodings, indexed by serialize
// type (remoting.JSON, remoting.ROCKETMQ): a server answers a request in
// the request's encoding.
type encodings [2]load.Template

// newAnswers encodes the layout's answers the way the NameServer would.
func newAnswers(l *load.Layout) *answers {
	a := &answers{routeByTopic: make(map[string]*encodings, l.TopicCount())}
	byCluster := make([]*encodings, len(l.Clusters))
	for c := range l.Clusters {
		t := responseTemplates(remoting.SUCCESS, "", nil, route.EncodeTopicRouteData(nil, l.RouteData(c), true))
		byCluster[c] = &t
	}
	for i := range l.TopicCount() {
		topic, c := l.Topic(i)
		a.routeByTopic[topic] = byCluster[c]
	}
	a.register = responseTemplates(remoting.SUCCESS, "", map[string]string{}, nil)
	a.heartbeat = responseTemplates(remoting.SUCCESS, "", nil, nil)
	a.queryDataVersion = responseTemplates(remoting.SUCCESS, "", map[string]string{"changed": "false"},
		route.EncodeDataVersion(nil, load.BodyDataVersion(load.FirstVersion)))
	a.other = responseTemplates(remoting.SUCCESS, "", nil, nil)
	return a
}

// responseTemplates is an answer of code with remark, ext and body, as the
// server writes it to a JSON and to a binary request.
func responseTemplates(code int32, remark string, ext map[string]string, body []byte) encodings {
	var e encodings
	for _, st := range []remoting.SerializeType{remoting.JSON, remoting.ROCKETMQ} {
		resp := remoting.NewResponse(&remoting.Command{SerializeType: st}, code, remark)
		resp.ExtFields, resp.Body = ext, body
		e[st] = load.MustTemplate(resp)
	}
	return e
}

// byCode is the answer to a request other than a route query.
func (a *answers) byCode(code int64) *encodings {
	switch code {
	case remoting.REGISTER_BROKER:
		return &a.register
	case remoting.BROKER_HEARTBEAT:
		return &a.heartbeat
	case remoting.QUERY_DATA_VERSION:
		return &a.queryDataVersion
	}
	return &a.other
}

// pick finds the answer to the request whose frame (length field included)
// starts frame: all of it, or for a large frame its header. The header is
// scanned for code, opaque, flag and topic; a header the scan cannot read
// (an escaped topic, say) is decoded.
func (a *answers) pick(frame []byte) (answer *load.Template, opaque int32, oneway bool, err error) {
	header := frame[8 : 8+int(binary.BigEndian.Uint32(frame[4:])&0xFFFFFF)]
	switch st := remoting.SerializeType(frame[4]); st {
	case remoting.JSON:
		code, ok1 := scanInt(header, codeKey)
		value, ok2 := scanInt(header, opaqueKey)
		flag, ok3 := scanInt(header, flagKey)
		if ok1 && ok2 && ok3 && value == int64(int32(value)) {
			if code != remoting.GET_ROUTEINFO_BY_TOPIC {
				return &a.byCode(code)[st], int32(value), int32(flag)&onewayBit != 0, nil
			}
			if topic, ok := scanTopic(header); ok {
				if found, ok := a.routeByTopic[string(topic)]; ok {
					return &found[st], int32(value), int32(flag)&onewayBit != 0, nil
				}
			}
		}
	case remoting.ROCKETMQ:
		if code, value, flag, ext, ok := scanBinary(header); ok {
			if code != remoting.GET_ROUTEINFO_BY_TOPIC {
				return &a.byCode(int64(code))[st], value, flag&onewayBit != 0, nil
			}
			if topic, ok := binaryExtValue(ext, "topic"); ok {
				if found, ok := a.routeByTopic[string(topic)]; ok {
					return &found[st], value, flag&onewayBit != 0, nil
				}
			}
		}
	}
	return a.decoded(frame)
}

// decoded is pick's slow path: the header decoded by the remoting codec.
// An unknown topic gets the NameServer's TOPIC_NOT_EXIST answer.
func (a *answers) decoded(frame []byte) (*load.Template, int32, bool, error) {
	req, err := remoting.DecodeFrame(frame[4:])
	if err != nil {
		return nil, 0, false, fmt.Errorf("baseline: %w", err)
	}
	st := req.SerializeType
	if st != remoting.ROCKETMQ {
		st = remoting.JSON
	}
	answer := &a.byCode(int64(req.Code))[st]
	if req.Code == remoting.GET_ROUTEINFO_BY_TOPIC {
		topic := req.ExtFields["topic"]
		found, ok := a.routeByTopic[topic]
		if !ok {
			t := responseTemplates(remoting.TOPIC_NOT_EXIST, fmt.Sprintf(topicNotExistRemark, topic), nil, nil)
			found = &t
		}
		answer = &found[st]
	}
	return answer, req.Opaque, req.IsOneway(), nil
}

// Server is a running baseline.
type Server struct {
	engine gnet.Engine
	addr   string
	done   chan error
	// listener and conns are a TLS baseline's (tls.go); nil for gnet's.
	listener net.Listener
	conns    sync.Map
}

// Start listens on addr (port 0 picks one) and answers for the data of
// spec on gnet's event loops, one per CPU as the NameServer runs them.
// Every request is answered on the event loop, registrations included:
// reading their frames is all the baseline does with them.
func Start(addr string, spec load.LayoutSpec, log *logrus.Entry) (*Server, error) {
	h := &leanHandler{answers: newAnswers(load.NewLayout(spec)), log: log, booted: make(chan gnet.Engine, 1)}
	s := &Server{done: make(chan error, 1)}
	go func() {
		s.done <- gnet.Run(h, "tcp://"+addr, gnet.WithMulticore(true), gnet.WithReuseAddr(true),
			gnet.WithTCPNoDelay(gnet.TCPNoDelay), gnet.WithLogger(log))
	}()
	select {
	case s.engine = <-h.booted:
	case err := <-s.done:
		return nil, fmt.Errorf("baseline on %s: %w", addr, err)
	}
	bound, err := boundAddr(s.engine)
	if err != nil {
		_ = s.Shutdown()
		return nil, fmt.Errorf("baseline on %s: %w", addr, err)
	}
	s.addr = bound
	return s, nil
}

// boundAddr reads the listener's address from a duplicate of its
// descriptor (gnet exposes no net.Listener).
func boundAddr(engine gnet.Engine) (string, error) {
	fd, err := engine.Dup()
	if err != nil {
		return "", fmt.Errorf("listener address: %w", err)
	}
	f := os.NewFile(uintptr(fd), "baseline-listener")
	defer f.Close()
	l, err := net.FileListener(f)
	if err != nil {
		return "", fmt.Errorf("listener address: %w", err)
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// Addr is the address the baseline listens on.
func (s *Server) Addr() string { return s.addr }

// shutdownTimeout bounds a baseline's stop; it holds no state worth waiting for.
const shutdownTimeout = 5 * time.Second

// Shutdown stops the event loops and closes every connection.
func (s *Server) Shutdown() error {
	if s.listener != nil {
		return s.closeTLS()
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := s.engine.Stop(ctx); err != nil {
		return fmt.Errorf("stop baseline: %w", err)
	}
	return nil
}
