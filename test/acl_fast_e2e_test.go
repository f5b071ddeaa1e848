package test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/aclsign"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// aclRouteQueries sends n route queries of topic on c, in the JSON and the
// binary header, and checks each answer's code (and, on SUCCESS, that the
// route names broker).
func aclRouteQueries(t *testing.T, c *remoting.Client, topic, broker string, n int, want int32) {
	t.Helper()
	for i := range n {
		req := remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": topic}, nil)
		req.Version = remoting.CurrentVersion
		if i%2 == 1 {
			req.SerializeType = remoting.ROCKETMQ
		}
		resp := nstest.Invoke(t, c, req)
		nstest.MustCode(t, resp, want)
		if want == remoting.SUCCESS {
			if data := nstest.DecodeRoute(t, resp); len(data.BrokerDatas) != 1 || data.BrokerDatas[0].BrokerName != broker {
				t.Fatalf("query %d of %s: route %+v", i, topic, data)
			}
		}
	}
}

// TestACLRouteReadsAcrossReload: with ACL on, signed route reads repeated on
// one connection (verified once, then matched by their bytes) and anonymous
// ones are answered; once the accounts file drops the account, the same
// connection's same query is refused, every time, and served again when the
// account comes back.
func TestACLRouteReadsAcrossReload(t *testing.T) {
	ns, file := startACLNamesrv(t)
	nstest.Register(t, aclClient(t, ns.Addr, aclsign.Credentials{}, nil), nstest.BrokerB) // 127.0.0.1 is white-listed
	topic, broker := nstest.BrokerB.TopicNames()[0], nstest.BrokerB.Name
	user := aclClient(t, ns.Addr, aclUser, nil)
	aclRouteQueries(t, user, topic, broker, 6, remoting.SUCCESS)
	aclRouteQueries(t, aclClient(t, ns.Addr, aclsign.Credentials{}, nil), topic, broker, 6, remoting.SUCCESS)

	withoutUser := strings.Replace(aclTestFile, "userKey01", "someoneElse", 1)
	if err := os.WriteFile(file, []byte(withoutUser), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the removed account is refused", func() error {
		return codeIs(nstest.RouteQuery(t, user, topic, remoting.CurrentVersion), remoting.NO_PERMISSION)
	})
	aclRouteQueries(t, user, topic, broker, 4, remoting.NO_PERMISSION)
	aclRouteQueries(t, aclClient(t, ns.Addr, aclAdmin, nil), topic, broker, 4, remoting.SUCCESS)

	if err := os.WriteFile(file, []byte(aclTestFile), 0o600); err != nil {
		t.Fatal(err)
	}
	eventually(t, 10*time.Second, "the account back is served", func() error {
		return codeIs(nstest.RouteQuery(t, user, topic, remoting.CurrentVersion), remoting.SUCCESS)
	})
	aclRouteQueries(t, user, topic, broker, 4, remoting.SUCCESS)
	if log, _ := os.ReadFile(ns.logPath); !strings.Contains(string(log), "unknown_access_key") {
		t.Fatal("the removed account's refusals are not in the log")
	}
}

// TestACLAnonymousRouteReadOff: with aclAnonymousRouteRead=false, unsigned
// route reads are refused however often they come (the fast path serves
// none), signed ones served.
func TestACLAnonymousRouteReadOff(t *testing.T) {
	ns, _ := startACLNamesrv(t, "-aclAnonymousRouteRead=false")
	nstest.Register(t, aclClient(t, ns.Addr, aclsign.Credentials{}, nil), nstest.BrokerB)
	topic, broker := nstest.BrokerB.TopicNames()[0], nstest.BrokerB.Name
	aclRouteQueries(t, aclClient(t, ns.Addr, aclsign.Credentials{}, nil), topic, broker, 6, remoting.NO_PERMISSION)
	aclRouteQueries(t, aclClient(t, ns.Addr, aclUser, nil), topic, broker, 6, remoting.SUCCESS)
}
