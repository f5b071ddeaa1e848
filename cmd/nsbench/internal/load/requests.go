package load

import (
	"hash/crc32"
	"slices"
	"strconv"
	"strings"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// javaClientVersion is the MQVersion ordinal of the 5.3.3 Java client, whose
// route queries get the standard JSON encoding.
const javaClientVersion = 479

// Versions of a registration body: a broker alternating between two data
// versions changes its registration every time; one that keeps the first
// sends an unchanged one.
const (
	FirstVersion  = 0
	SecondVersion = 1
)

// Registrations holds the REGISTER_BROKER bodies of a layout, encoded once:
// brokers of one cluster send the same topics, so they share bodies.
type Registrations struct {
	layout *Layout
	// bodies[cluster][version] and their CRC32 as the header carries it.
	bodies [][2][]byte
	crcs   [][2]string
}

// NewRegistrations encodes the two body versions of every cluster.
func NewRegistrations(l *Layout) *Registrations {
	r := &Registrations{layout: l, bodies: make([][2][]byte, len(l.Clusters)), crcs: make([][2]string, len(l.Clusters))}
	for c := range l.Clusters {
		table := l.TopicConfigs(c)
		for v := range 2 {
			version := BodyDataVersion(v)
			body := &route.RegisterBrokerBody{FilterServerList: []string{},
				TopicConfigSerializeWrapper: route.TopicConfigSerializeWrapper{DataVersion: version, TopicConfigTable: table}}
			encoded := route.EncodeRegisterBrokerBody(nil, body, version)
			r.bodies[c][v] = encoded
			r.crcs[c][v] = strconv.FormatUint(uint64(crc32.ChecksumIEEE(encoded)&0x7FFFFFFF), 10)
		}
	}
	return r
}

// BodyDataVersion is the data version carried by body version v.
func BodyDataVersion(v int) route.DataVersion {
	return route.DataVersion{Counter: int64(1 + v), Timestamp: 1700000000000 + int64(v)}
}

// BodySize is the size of cluster c's registration body.
func (r *Registrations) BodySize(c int) int { return len(r.bodies[c][FirstVersion]) }

// Request builds broker b's REGISTER_BROKER with body version v, the way a
// 5.x Java broker sends it (uncompressed JSON body with its CRC32).
func (r *Registrations) Request(b Broker, v int) *remoting.Command {
	ext := map[string]string{
		"brokerName": b.Name, "brokerAddr": b.Addr, "clusterName": b.Cluster, "haServerAddr": b.Addr,
		"brokerId": "0", "enableActingMaster": "false", "compressed": "false",
		"bodyCrc32": r.crcs[b.ClusterIndex][v],
	}
	req := remoting.NewRequest(remoting.REGISTER_BROKER, ext, r.bodies[b.ClusterIndex][v])
	req.Language = remoting.JAVA
	req.Version = javaClientVersion
	return req
}

// RouteRequest is a Java 5.3.3 client's GET_ROUTEINFO_BY_TOPIC.
func RouteRequest(topic string) *remoting.Command {
	req := remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": topic}, nil)
	req.Language = remoting.JAVA
	req.Version = javaClientVersion
	return req
}

// HeartbeatRequest is broker b's BROKER_HEARTBEAT.
func HeartbeatRequest(b Broker) *remoting.Command {
	req := remoting.NewRequest(remoting.BROKER_HEARTBEAT,
		map[string]string{"clusterName": b.Cluster, "brokerAddr": b.Addr, "brokerName": b.Name}, nil)
	req.Language = remoting.JAVA
	req.Version = javaClientVersion
	return req
}

// QueryDataVersionRequest is broker b's QUERY_DATA_VERSION with the data
// version of body version v, which brokers send before re-registering.
func QueryDataVersionRequest(b Broker, v int) *remoting.Command {
	req := remoting.NewRequest(remoting.QUERY_DATA_VERSION,
		map[string]string{"brokerName": b.Name, "brokerAddr": b.Addr, "clusterName": b.Cluster, "brokerId": "0"},
		route.EncodeDataVersion(nil, BodyDataVersion(v)))
	req.Language = remoting.JAVA
	req.Version = javaClientVersion
	return req
}

// Check inspects an answer and returns "" when it is right, or the kind of
// error it shows.
type Check func(resp *remoting.Command) string

// ExpectSuccess accepts any answer with code SUCCESS.
func ExpectSuccess(resp *remoting.Command) string {
	if resp.Code != remoting.SUCCESS {
		return "code " + strconv.Itoa(int(resp.Code))
	}
	return ""
}

// ExpectRoute returns the check of a route answer for a topic of cluster c:
// code SUCCESS and a body that decodes to exactly the cluster's broker names,
// both in the broker list and in the queue list.
func (l *Layout) ExpectRoute(c int) Check {
	want := l.Clusters[c].brokerNames
	return func(resp *remoting.Command) string {
		if kind := ExpectSuccess(resp); kind != "" {
			return kind
		}
		data, err := route.DecodeTopicRouteData(resp.Body)
		if err != nil {
			return "bad route body"
		}
		brokers := make([]string, 0, len(data.BrokerDatas))
		for _, bd := range data.BrokerDatas {
			brokers = append(brokers, bd.BrokerName)
		}
		queues := make([]string, 0, len(data.QueueDatas))
		for _, qd := range data.QueueDatas {
			if qd.ReadQueueNums != l.QueueNums {
				return "wrong queues"
			}
			queues = append(queues, qd.BrokerName)
		}
		if sortedJoin(brokers) != want || sortedJoin(queues) != want {
			return "wrong brokers"
		}
		return ""
	}
}

func sortedJoin(names []string) string {
	slices.Sort(names)
	return strings.Join(names, ",")
}
