package load

import (
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// ExpiringRequest is broker b's registration with body version v and a
// heartbeat timeout of its own, so a test can have it expire soon.
func (r *Registrations) ExpiringRequest(b Broker, v int, timeout time.Duration) *remoting.Command {
	req := r.Request(b, v)
	req.ExtFields["heartbeatTimeoutMillis"] = strconv.FormatInt(timeout.Milliseconds(), 10)
	return req
}

// AdminRequest is a Java 5.3.3 admin tool's request with ext fields (nil
// for none): topic lists, cluster info.
func AdminRequest(code int32, ext map[string]string) *remoting.Command {
	req := remoting.NewRequest(code, ext, nil)
	req.Language = remoting.JAVA
	req.Version = javaClientVersion
	return req
}

// RouteStreamOf is RouteStream restricted to the topics of the clusters
// keep accepts (the others' brokers may be gone).
func RouteStreamOf(l *Layout, pipes []*Pipe, inFlight int, keep func(cluster int) bool) Stream {
	all := l.routeRequests(JavaClient)
	set := &RequestSet{}
	for i := range l.TopicCount() {
		if _, c := l.Topic(i); keep(c) {
			set.Templates = append(set.Templates, all.Templates[i])
			set.Checks = append(set.Checks, all.Checks[i])
		}
	}
	return Stream{Op: "route", Pipes: pipes, InFlight: inFlight, Requests: set}
}

// BigBroker is one broker with a topic table of its own, in the three forms
// a Java broker may send it: one JSON frame, one compressed frame
// (compressedRegister=true) and split into frames of splitSize topics
// (enableSplitRegistration=true, each frame a registration of its share).
type BigBroker struct {
	Broker Broker
	table  map[string]route.TopicConfig
}

// NewBigBroker makes a broker of its own cluster with topics topics of
// queues queues.
func NewBigBroker(topics int, queues int32) *BigBroker {
	b := Broker{Cluster: "NsbenchBigCluster", Name: "nsbench-big-broker", Addr: "127.0.0.1:29999"}
	table := make(map[string]route.TopicConfig, topics)
	for i := range topics {
		name := "NsbenchBigTopicXXXXXXXXXXXXXXXXX" + strconv.Itoa(i)
		tc := route.NewTopicConfig(name)
		tc.ReadQueueNums, tc.WriteQueueNums = queues, queues
		table[name] = tc
	}
	return &BigBroker{Broker: b, table: table}
}

// body is a registration body of table with data version v.
func bigBody(table map[string]route.TopicConfig, v int) *route.RegisterBrokerBody {
	return &route.RegisterBrokerBody{FilterServerList: []string{},
		TopicConfigSerializeWrapper: route.TopicConfigSerializeWrapper{DataVersion: BodyDataVersion(v), TopicConfigTable: table}}
}

// request is b's REGISTER_BROKER with body, as 5.x Java brokers send it.
func (b *BigBroker) request(body []byte, compressed bool) *remoting.Command {
	req := remoting.NewRequest(remoting.REGISTER_BROKER, map[string]string{
		"brokerName": b.Broker.Name, "brokerAddr": b.Broker.Addr, "clusterName": b.Broker.Cluster,
		"haServerAddr": b.Broker.Addr, "brokerId": "0", "enableActingMaster": "false",
		"compressed": strconv.FormatBool(compressed), "bodyCrc32": strconv.FormatUint(uint64(bodyCRC(body)), 10),
	}, body)
	req.Language = remoting.JAVA
	req.Version = javaClientVersion
	return req
}

// Plain is the whole table in one JSON body with data version v.
func (b *BigBroker) Plain(v int) *remoting.Command {
	return b.request(route.EncodeRegisterBrokerBody(nil, bigBody(b.table, v), BodyDataVersion(FirstVersion)), false)
}

// Compressed is the whole table in one compressed body with data version v.
func (b *BigBroker) Compressed(v int) (*remoting.Command, error) {
	body, err := route.EncodeCompressedRegisterBrokerBody(bigBody(b.table, v))
	if err != nil {
		return nil, err
	}
	return b.request(body, true), nil
}

// Split is the table in frames of splitSize topics (in name order), each a
// JSON registration with data version v.
func (b *BigBroker) Split(v, splitSize int) []*remoting.Command {
	names := slices.Sorted(maps.Keys(b.table))
	var reqs []*remoting.Command
	for start := 0; start < len(names); start += splitSize {
		part := make(map[string]route.TopicConfig, splitSize)
		for _, name := range names[start:min(start+splitSize, len(names))] {
			part[name] = b.table[name]
		}
		reqs = append(reqs, b.request(route.EncodeRegisterBrokerBody(nil, bigBody(part, v), BodyDataVersion(FirstVersion)), false))
	}
	return reqs
}
