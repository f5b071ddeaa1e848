package load

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// javaClientVersion is the MQVersion ordinal of the 5.3.3 Java client, whose
// route queries get the standard JSON encoding.
const javaClientVersion = 479

// Versions of a registration body. FirstVersion is what Seed registers.
// SecondVersion carries a new data version with the same topic table (and
// the same mapping data version), what Java's JMH brokers send and what a
// broker sends after an updateBrokerConfig: the NameServer may recognise
// the table as the one already applied. ChangedTable carries a new data
// version and a topic table with one more topic, a real change: the server
// must decode and apply the whole table.
const (
	FirstVersion  = 0
	SecondVersion = 1
	ChangedTable  = 2
	bodyVersions  = 3
)

// Registrations holds the REGISTER_BROKER bodies of a layout, encoded once:
// brokers of one cluster send the same topics, so they share bodies.
type Registrations struct {
	layout *Layout
	// bodies[cluster][version] and their CRC32 as the header carries it.
	bodies [][bodyVersions][]byte
	crcs   [][bodyVersions]string
}

// NewRegistrations encodes the body versions of every cluster.
func NewRegistrations(l *Layout) *Registrations {
	r := &Registrations{layout: l, bodies: make([][bodyVersions][]byte, len(l.Clusters)),
		crcs: make([][bodyVersions]string, len(l.Clusters))}
	for c := range l.Clusters {
		table := l.TopicConfigs(c)
		for v := range bodyVersions {
			version := BodyDataVersion(v)
			topics := table
			if v == ChangedTable {
				topics = withChangeTopic(table, l.Clusters[c].Name, l.QueueNums)
			}
			body := &route.RegisterBrokerBody{FilterServerList: []string{},
				TopicConfigSerializeWrapper: route.TopicConfigSerializeWrapper{DataVersion: version, TopicConfigTable: topics}}
			// the mapping data version only moves with static-topic mappings,
			// which these brokers have none of
			encoded := route.EncodeRegisterBrokerBody(nil, body, BodyDataVersion(FirstVersion))
			r.bodies[c][v] = encoded
			r.crcs[c][v] = strconv.FormatUint(uint64(bodyCRC(encoded)), 10)
		}
	}
	return r
}

// bodyCRC is a body's bodyCrc32 as Java brokers write it: the CRC-32 of the
// bytes sent, masked to a positive int.
func bodyCRC(body []byte) uint32 { return crc32.ChecksumIEEE(body) & 0x7FFFFFFF }

// withChangeTopic is table plus one topic no route query asks for, so a
// ChangedTable registration changes the tables without changing any answer
// the route checks compare with the layout.
func withChangeTopic(table map[string]route.TopicConfig, cluster string, queues int32) map[string]route.TopicConfig {
	changed := maps.Clone(table)
	name := "nsbench-changed-" + cluster
	changed[name] = route.TopicConfig{TopicName: name, ReadQueueNums: queues, WriteQueueNums: queues,
		Perm: route.PermRead | route.PermWrite, TopicFilterType: route.TopicFilterSingleTag}
	return changed
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

// goClientVersion is the version rocketmq-client-go v2 writes in every
// request header.
const goClientVersion = 317

// Client is whose request layout a stream's route queries copy: the same
// query reads differently to a server's header scan.
type Client int

// Clients whose layouts the generator writes.
const (
	// JavaClient is the Java 5.3.3 client: fastjson, keys in name order, no
	// remark, serializeTypeCurrentRPC and acceptStandardJsonOnly absent.
	JavaClient Client = iota
	// GoClient is rocketmq-client-go v2: jsoniter over its command struct,
	// keys in field order, an empty remark, extFields last.
	GoClient
	// BinaryClient is the Java client with rocketmq.serialize.type=ROCKETMQ:
	// the binary header, answered in the same encoding.
	BinaryClient
)

// clientNames are the clients' names in flags and reports.
var clientNames = [...]string{JavaClient: "java", GoClient: "go", BinaryClient: "binary"}

// ParseClient reads a client's name as the tool's flags give it.
func ParseClient(name string) (Client, error) {
	for c, known := range clientNames {
		if name == known {
			return Client(c), nil
		}
	}
	return 0, fmt.Errorf("client %q: want one of %s: %w", name, strings.Join(clientNames[:], ", "), ErrBadSpec)
}

// String is the client's name in flags and reports.
func (c Client) String() string { return clientNames[c] }

// routeTemplate is client's GET_ROUTEINFO_BY_TOPIC of topic as a template.
func routeTemplate(client Client, topic string) (Template, error) {
	switch client {
	case GoClient:
		return cutTemplate(GoClientRouteFrame(topic, templateOpaque), remoting.GET_ROUTEINFO_BY_TOPIC)
	case BinaryClient:
		req := RouteRequest(topic)
		req.SerializeType = remoting.ROCKETMQ
		return NewTemplate(req)
	}
	return NewTemplate(RouteRequest(topic))
}

// answeredAs checks, before check, that an answer came in client's header
// encoding: the server must answer a binary header in binary.
func answeredAs(client Client, check Check) Check {
	want := remoting.JSON
	if client == BinaryClient {
		want = remoting.ROCKETMQ
	}
	return func(resp *remoting.Command) string {
		if resp.SerializeType != want {
			return "answer in another header encoding"
		}
		return check(resp)
	}
}

// GoClientRouteFrame is the GET_ROUTEINFO_BY_TOPIC frame rocketmq-client-go
// v2 writes (TestGoClientRouteFrameIsWhatTheGoClientWrites compares it with
// one the real client sent).
func GoClientRouteFrame(topic string, opaque int32) []byte {
	quoted, _ := json.Marshal(topic) // a string always encodes
	header := fmt.Appendf(nil, `{"code":%d,"language":"GO","version":%d,"opaque":%d,"flag":0,"remark":"","extFields":{"topic":%s}}`,
		remoting.GET_ROUTEINFO_BY_TOPIC, goClientVersion, opaque, quoted)
	frame := binary.BigEndian.AppendUint32(nil, uint32(4+len(header)))
	frame = binary.BigEndian.AppendUint32(frame, uint32(len(header))) // serialize type JSON: 0
	return append(frame, header...)
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
// both in the broker list and in the queue list. A body byte for byte equal
// to one that passed is accepted without decoding it again: every topic of
// a cluster has the same route, and decoding each answer would cost the
// load generator, which shares the cores with the server, a quarter of its
// CPU.
func (l *Layout) ExpectRoute(c int) Check {
	want := l.Clusters[c].brokerNames
	var passed verifiedBodies
	return func(resp *remoting.Command) string {
		if kind := ExpectSuccess(resp); kind != "" {
			return kind
		}
		if passed.has(resp.Body) {
			return ""
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
		passed.add(resp.Body)
		return ""
	}
}

// maxVerifiedBodies bounds the bodies a route check remembers: a server may
// order a cluster's brokers differently from topic to topic.
const maxVerifiedBodies = 16

// verifiedBodies are answer bodies that passed a check, safe for the
// concurrent checks of every route client: readers load an immutable list.
type verifiedBodies struct{ list atomic.Pointer[[][]byte] }

func (v *verifiedBodies) has(body []byte) bool {
	if list := v.list.Load(); list != nil {
		for _, known := range *list {
			if bytes.Equal(known, body) {
				return true
			}
		}
	}
	return false
}

// add remembers a copy of body (the caller's may be reused), unless the list
// is full; a lost race only costs a later decode.
func (v *verifiedBodies) add(body []byte) {
	old := v.list.Load()
	var list [][]byte
	if old != nil {
		list = *old
	}
	if len(list) >= maxVerifiedBodies {
		return
	}
	grown := append(slices.Clip(list), bytes.Clone(body))
	v.list.CompareAndSwap(old, &grown)
}

func sortedJoin(names []string) string {
	slices.Sort(names)
	return strings.Join(names, ",")
}
