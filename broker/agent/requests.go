package agent

import (
	"strconv"

	"github.com/gonamesrv/gonamesrv/internal/crcfast"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// crcMask keeps the CRC positive when Java reads it as a signed int.
const crcMask = 0x7FFFFFFF

// newBrokerRequest builds a request the way a Java broker sends it: language
// JAVA, the current version, JSON header.
func newBrokerRequest(code int32, ext map[string]string, body []byte) *remoting.Command {
	req := remoting.NewRequest(code, ext, body)
	req.Language = remoting.JAVA
	return req
}

// identityFields are the four header fields UNREGISTER_BROKER and
// QUERY_DATA_VERSION carry.
func identityFields(id Identity) map[string]string {
	return map[string]string{
		"brokerAddr":  id.BrokerAddr,
		"brokerId":    strconv.FormatInt(id.BrokerID, 10),
		"brokerName":  id.BrokerName,
		"clusterName": id.ClusterName,
	}
}

// registerBrokerRequest builds REGISTER_BROKER with the header fields of a 5.x
// Java broker (protocol.md 7.3). Unlike Java, compressed says the truth: a Java
// broker always sends false, which makes a Java NameServer reject its
// compressed bodies.
func registerBrokerRequest(cfg *Config, body []byte, compressed bool) *remoting.Command {
	ext := identityFields(cfg.Identity)
	ext["haServerAddr"] = cfg.HAServerAddr
	ext["enableActingMaster"] = strconv.FormatBool(cfg.EnableActingMaster)
	ext["compressed"] = strconv.FormatBool(compressed)
	ext["bodyCrc32"] = strconv.FormatInt(int64(crcfast.Checksum(body)&crcMask), 10)
	if cfg.EnableActingMaster {
		ext["heartbeatTimeoutMillis"] = strconv.FormatInt(cfg.HeartbeatTimeout.Milliseconds(), 10)
	}
	return newBrokerRequest(remoting.REGISTER_BROKER, ext, body)
}

// unregisterBrokerRequest builds UNREGISTER_BROKER (protocol.md 7.4).
func unregisterBrokerRequest(id Identity) *remoting.Command {
	return newBrokerRequest(remoting.UNREGISTER_BROKER, identityFields(id), nil)
}

// queryDataVersionRequest builds QUERY_DATA_VERSION with the broker's version
// as body (protocol.md 7.5); Java brokers also send it as their heartbeat.
func queryDataVersionRequest(id Identity, version route.DataVersion) *remoting.Command {
	return newBrokerRequest(remoting.QUERY_DATA_VERSION, identityFields(id), route.EncodeDataVersion(nil, version))
}

// brokerHeartbeatRequest builds BROKER_HEARTBEAT (protocol.md 7.6).
func brokerHeartbeatRequest(id Identity) *remoting.Command {
	return newBrokerRequest(remoting.BROKER_HEARTBEAT, map[string]string{
		"clusterName": id.ClusterName,
		"brokerAddr":  id.BrokerAddr,
		"brokerName":  id.BrokerName,
	}, nil)
}
