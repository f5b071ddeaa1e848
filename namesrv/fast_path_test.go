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
// flavours; an unknown topic still gets TOPIC_NOT_EXIST.
func TestFastRouteAnswersLikeTheHandler(t *testing.T) {
	s := startServer(t, nil)
	nstest.Register(t, s.client, nstest.BrokerAMaster)
	raw := dialRaw(t, s.addr())
	for _, tc := range []struct {
		version int32
		ext     map[string]string
	}{
		{317, map[string]string{"topic": "TopicA"}},
		{317, map[string]string{"topic": "TopicA", "acceptStandardJsonOnly": "true"}},
		{479, map[string]string{"topic": "TopicA"}},
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
			req.Language, req.Version = remoting.JAVA, tc.version
			return successFrame(t, raw, req)
		}
		if fast, normal := query(false), query(true); !bytes.Equal(fast, normal) {
			t.Fatalf("version %d %v: fast path\n%s\nhandler\n%s", tc.version, tc.ext, fast, normal)
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
	answer := func(extra bool) []byte {
		ext := map[string]string{"clusterName": b.Cluster, "brokerAddr": b.Addr, "brokerName": b.Name}
		if extra {
			ext["lo"] = "x"
		}
		return successFrame(t, raw, remoting.NewRequest(remoting.BROKER_HEARTBEAT, ext, nil))
	}
	if fast, normal := answer(false), answer(true); !bytes.Equal(fast, normal) {
		t.Fatalf("fast path\n%q\nhandler\n%q", fast, normal)
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
		answer := func(extra bool) []byte {
			ext := map[string]string{"clusterName": b.Cluster, "brokerAddr": tc.addr, "brokerName": b.Name, "brokerId": "0"}
			if extra {
				ext["lo"] = "x"
			}
			return successFrame(t, raw, remoting.NewRequest(remoting.QUERY_DATA_VERSION, ext, tc.body))
		}
		if fast, normal := answer(false), answer(true); !bytes.Equal(fast, normal) {
			t.Fatalf("%s: fast path\n%q\nhandler\n%q", tc.name, fast, normal)
		}
	}
	bad := raw.invoke(remoting.NewRequest(remoting.QUERY_DATA_VERSION, map[string]string{"clusterName": b.Cluster,
		"brokerAddr": b.Addr, "brokerName": b.Name, "brokerId": "0"}, []byte("not json")), 10)
	nstest.MustCode(t, bad, remoting.SYSTEM_ERROR)
}
