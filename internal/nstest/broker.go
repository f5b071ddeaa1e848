// Package nstest is test support shared by the in-process NameServer tests
// (package namesrv) and the end-to-end tests (package test): a broker
// registration as a Java 5.x broker sends it, the standard broker fixtures and
// the request helpers both suites use. It is not for production code.
package nstest

import (
	"fmt"
	"hash/crc32"
	"strconv"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// Broker describes one broker registration as a Java 5.x broker sends it
// (protocol.md 7.3), so tests can register, query and unregister it.
type Broker struct {
	Cluster, Name, Addr, HAAddr, Zone string // Zone "": no __ZONE_NAME header
	ID                                int64
	Topics                            map[string]int32 // topic -> read and write queue count
	Version                           route.DataVersion
	TimeoutMillis                     int64 // 0: not sent (server default 120 s)
}

// Wrapper is the broker's topic table, as the registration body carries it.
func (b Broker) Wrapper() route.TopicConfigSerializeWrapper {
	w := route.TopicConfigSerializeWrapper{DataVersion: b.Version, TopicConfigTable: map[string]route.TopicConfig{}}
	for topic, queues := range b.Topics {
		tc := route.NewTopicConfig(topic)
		tc.ReadQueueNums, tc.WriteQueueNums = queues, queues
		w.TopicConfigTable[topic] = tc
	}
	return w
}

// registerBody is the RegisterBrokerBody both encodings carry.
func (b Broker) registerBody() *route.RegisterBrokerBody {
	return &route.RegisterBrokerBody{TopicConfigSerializeWrapper: b.Wrapper(), FilterServerList: []string{}}
}

// Body is the RegisterBrokerBody JSON a broker of request version >= 37 sends.
func (b Broker) Body() []byte {
	return route.EncodeRegisterBrokerBody(nil, b.registerBody(), b.Version)
}

// CompressedBody is the binary (zlib) RegisterBrokerBody layout of
// protocol.md 3.8, which Java brokers send even with compressed=false.
func (b Broker) CompressedBody() ([]byte, error) {
	raw, err := route.EncodeCompressedRegisterBrokerBody(b.registerBody())
	if err != nil {
		return nil, fmt.Errorf("compress body of %s: %w", b.Addr, err)
	}
	return raw, nil
}

// RequestWith builds REGISTER_BROKER around body with the masked CRC32 of the
// body in its header, so tests can send bodies other than Body.
func (b Broker) RequestWith(body []byte) *remoting.Command {
	ext := map[string]string{
		"brokerName": b.Name, "brokerAddr": b.Addr, "clusterName": b.Cluster, "haServerAddr": b.HAAddr,
		"brokerId": strconv.FormatInt(b.ID, 10), "enableActingMaster": "false", "compressed": "false",
		"bodyCrc32": strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)&0x7FFFFFFF), 10),
	}
	if b.TimeoutMillis > 0 {
		ext["heartbeatTimeoutMillis"] = strconv.FormatInt(b.TimeoutMillis, 10)
	}
	if b.Zone != "" {
		ext["__ZONE_NAME"] = b.Zone
	}
	req := remoting.NewRequest(remoting.REGISTER_BROKER, ext, body)
	req.Language = remoting.JAVA
	return req
}

// RegisterRequest is the REGISTER_BROKER request with the JSON Body.
func (b Broker) RegisterRequest() *remoting.Command { return b.RequestWith(b.Body()) }

// Identity is the header naming the broker in UNREGISTER_BROKER and
// QUERY_DATA_VERSION.
func (b Broker) Identity() map[string]string {
	return map[string]string{"brokerName": b.Name, "brokerAddr": b.Addr, "clusterName": b.Cluster,
		"brokerId": strconv.FormatInt(b.ID, 10)}
}

// TopicNames lists the broker's topics, those other than the shared
// "TopicTest" first, so that in the standard fixtures element 0 is a topic
// the broker alone serves (TopicA for broker-a, TopicB for broker-b).
func (b Broker) TopicNames() []string {
	var own, shared []string
	for topic := range b.Topics {
		if topic == SharedTopic {
			shared = append(shared, topic)
		} else {
			own = append(own, topic)
		}
	}
	return append(own, shared...)
}
