package namesrv

import (
	"bytes"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// successFrame sends req (opaque 42), expects SUCCESS and returns the
// answer encoded again, to compare two answers byte for byte.
func successFrame(t *testing.T, raw *rawConn, req *remoting.Command) []byte {
	t.Helper()
	resp := raw.invoke(req, 42)
	nstest.MustCode(t, resp, remoting.SUCCESS)
	frame, err := remoting.Encode(resp)
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

// TestFastRouteAnswersLikeTheHandler: a plain route query (the fast path)
// and the same query with one more ext field (which the fast path leaves to
// getRouteInfoByTopic) get the same answer, byte for byte, in both JSON
// flavours and in JSON and binary headers; an unknown topic still gets
// TOPIC_NOT_EXIST.
func TestFastRouteAnswersLikeTheHandler(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	raw := dialRaw(t, s.addr())
	for _, tc := range []struct {
		version   int32
		ext       map[string]string
		serialize remoting.SerializeType
	}{
		{317, map[string]string{"topic": "TopicA"}, remoting.JSON},
		{317, map[string]string{"topic": "TopicA", "acceptStandardJsonOnly": "true"}, remoting.JSON},
		{479, map[string]string{"topic": "TopicA"}, remoting.JSON},
		{317, map[string]string{"topic": "TopicA"}, remoting.ROCKETMQ},
		{479, map[string]string{"topic": "TopicA", "acceptStandardJsonOnly": "true"}, remoting.ROCKETMQ},
	} {
		query := func(extra bool) []byte {
			ext := map[string]string{}
			for k, v := range tc.ext {
				ext[k] = v
			}
			if extra {
				ext["lo"] = "x" // not a key the fast path takes
			}
			req := remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, ext, nil)
			req.Language, req.Version, req.SerializeType = remoting.JAVA, tc.version, tc.serialize
			return successFrame(t, raw, req)
		}
		fast, normal := query(false), query(true)
		if !bytes.Equal(fast, normal) {
			t.Fatalf("version %d %v %v: fast path\n%s\nhandler\n%s", tc.version, tc.ext, tc.serialize, fast, normal)
		}
		if remoting.SerializeType(fast[4]) != tc.serialize {
			t.Fatalf("%v request answered in serialize type %d", tc.serialize, fast[4])
		}
	}
	req := remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "NoSuchTopic"}, nil)
	nstest.MustCode(t, raw.invoke(req, 43), remoting.TOPIC_NOT_EXIST)
}

// TestFastHeartbeatAnswersLikeTheHandler: a plain heartbeat (the fast path)
// and one with another ext field (the handler) get the same bytes.
func TestFastHeartbeatAnswersLikeTheHandler(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	raw := dialRaw(t, s.addr())
	b := nstest.BrokerAMaster
	for _, serialize := range []remoting.SerializeType{remoting.JSON, remoting.ROCKETMQ} {
		answer := func(extra bool) []byte {
			ext := map[string]string{"clusterName": b.Cluster, "brokerAddr": b.Addr, "brokerName": b.Name}
			if extra {
				ext["lo"] = "x"
			}
			req := remoting.NewRequest(remoting.BROKER_HEARTBEAT, ext, nil)
			req.SerializeType = serialize
			return successFrame(t, raw, req)
		}
		if fast, normal := answer(false), answer(true); !bytes.Equal(fast, normal) || remoting.SerializeType(fast[4]) != serialize {
			t.Fatalf("%v: fast path\n%q\nhandler\n%q", serialize, fast, normal)
		}
	}
}

// TestFastDataVersionAnswersLikeTheHandler: QUERY_DATA_VERSION with the
// stored version, another one, none, and of an unknown broker: the fast
// path and the handler write the same bytes.
func TestFastDataVersionAnswersLikeTheHandler(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	raw := dialRaw(t, s.addr())
	b := nstest.BrokerAMaster
	stored := route.EncodeDataVersion(nil, b.Version)
	other := route.EncodeDataVersion(nil, route.DataVersion{Counter: 99, Timestamp: 1})
	for _, tc := range []struct {
		name, addr string
		body       []byte
	}{{"same version", b.Addr, stored}, {"other version", b.Addr, other}, {"no body", b.Addr, nil}, {"unknown broker", "10.9.9.9:1", stored}} {
		for _, serialize := range []remoting.SerializeType{remoting.JSON, remoting.ROCKETMQ} {
			answer := func(extra bool) []byte {
				ext := map[string]string{"clusterName": b.Cluster, "brokerAddr": tc.addr, "brokerName": b.Name, "brokerId": "0"}
				if extra {
					ext["lo"] = "x"
				}
				req := remoting.NewRequest(remoting.QUERY_DATA_VERSION, ext, tc.body)
				req.SerializeType = serialize
				return successFrame(t, raw, req)
			}
			if fast, normal := answer(false), answer(true); !bytes.Equal(fast, normal) || remoting.SerializeType(fast[4]) != serialize {
				t.Fatalf("%s %v: fast path\n%q\nhandler\n%q", tc.name, serialize, fast, normal)
			}
		}
	}
	bad := raw.invoke(remoting.NewRequest(remoting.QUERY_DATA_VERSION, map[string]string{"clusterName": b.Cluster,
		"brokerAddr": b.Addr, "brokerName": b.Name, "brokerId": "0"}, []byte("not json")), 10)
	nstest.MustCode(t, bad, remoting.SYSTEM_ERROR)
}
