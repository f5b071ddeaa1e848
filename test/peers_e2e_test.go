package test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/namesrv/peers"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// peersOf is a NameServer's /v1/peers answer.
func peersOf(t *testing.T, s *sidePort) []peers.Status {
	t.Helper()
	var view struct {
		Peers []peers.Status `json:"peers"`
	}
	s.getJSON(t, "/v1/peers", http.StatusOK, &view)
	return view.Peers
}

// onlyPeer waits until s lists exactly one peer, addr, satisfying ok.
func onlyPeer(t *testing.T, s *sidePort, addr, what string, ok func(peers.Status) bool) peers.Status {
	t.Helper()
	var last []peers.Status
	eventually(t, 20*time.Second, what, func() error {
		last = peersOf(t, s)
		if len(last) == 1 && last[0].Addr == addr && ok(last[0]) {
			return nil
		}
		return fmt.Errorf("peers %+v", last)
	})
	return last[0]
}

// TestPeerPairFromAddressServerList: a pair deployed as docs/operations.md
// does, both with addressServerList naming both, sees each other and not
// itself; agrees while no broker registered, tells a broker registered with
// one only as healing, then, past peerRoutesHealMillis, as a difference that
// lasts, naming it, and shows the other down once it is killed; /rocketmq/nsaddr
// answers the list as given.
func TestPeerPairFromAddressServerList(t *testing.T) {
	portA, portB := freePort(t), freePort(t)
	addrA, addrB := "127.0.0.1:"+strconv.Itoa(portA), "127.0.0.1:"+strconv.Itoa(portB)
	list := addrA + ";" + addrB
	start := func(port int) *sidePort {
		http := freePort(t)
		p := startNamesrvIn(t, t.TempDir(), port, "-httpListenPort", strconv.Itoa(http), "-addressServerList", list,
			"-peerRoutesHealMillis", "8000")
		s := &sidePort{process: p, base: "http://127.0.0.1:" + strconv.Itoa(http)}
		s.waitAttached(t)
		return s
	}
	a, b := start(portA), start(portB)
	if status, body, err := a.get("/rocketmq/nsaddr"); err != nil || status != http.StatusOK || string(body) != list {
		t.Fatalf("nsaddr %d %q %v, want %q", status, body, err, list)
	}
	onlyPeer(t, a, addrB, "a sees b agreeing", func(st peers.Status) bool { return st.Up && st.RoutesAgree && st.Topics == 0 })
	onlyPeer(t, b, addrA, "b sees a agreeing", func(st peers.Status) bool { return st.Up && st.RoutesAgree })

	nstest.MustCode(t, nstest.Register(t, nstest.NewClient(t, a.Addr), nstest.BrokerAMaster), remoting.SUCCESS)
	// A broker registered with one NameServer only is first a difference
	// that heals (it may register with the other within its period): told
	// as healing, naming it, the routes still agreeing, and counted apart.
	brokerLine := "1 broker addresses only there: DefaultCluster/broker-a/0=" + nstest.BrokerAMaster.Addr
	eventually(t, 20*time.Second, "b tells a's broker as healing", func() error {
		list := peersOf(t, b)
		if len(list) != 1 || !list[0].RoutesAgree || len(list[0].Healing) != 2 || list[0].Healing[0] != brokerLine {
			return fmt.Errorf("peers %+v", list)
		}
		families := b.scrape(t)
		if agree, healing := value(families, "rocketmq_namesrv_peer_routes_agree", "peer", addrA),
			value(families, "rocketmq_namesrv_peer_routes_healing", "peer", addrA); agree != 1 || healing < 1 {
			return fmt.Errorf("b's metrics of a while the difference heals: peer_routes_agree %v peer_routes_healing %v", agree, healing)
		}
		return nil
	})
	// Past peerRoutesHealMillis it lasts: a broker that does not reach b.
	st := onlyPeer(t, b, addrA, "b sees a's broker", func(st peers.Status) bool {
		return !st.RoutesAgree && st.Brokers == 1 && len(st.Differences) == 2
	})
	if st.Brokers != 1 || len(st.Differences) != 2 || st.Differences[0] != brokerLine || st.HealingCount != 0 {
		t.Fatalf("b's view of a: %+v", st)
	}

	// The panel's verdicts are metrics too (the alert rules read them).
	families := b.scrape(t)
	if up, agree := value(families, "rocketmq_namesrv_peer_up", "peer", addrA), value(families, "rocketmq_namesrv_peer_routes_agree", "peer", addrA); up != 1 || agree != 0 {
		t.Fatalf("b's metrics of a while it differs: peer_up %v peer_routes_agree %v, want 1 and 0", up, agree)
	}

	a.Kill()
	st = onlyPeer(t, b, addrA, "b sees a down", func(st peers.Status) bool { return !st.Up })
	if st.Error == "" || st.LastUpMillis == 0 {
		t.Fatalf("b's view of the killed a: %+v", st)
	}
	families = b.scrape(t)
	if up, agree := value(families, "rocketmq_namesrv_peer_up", "peer", addrA), value(families, "rocketmq_namesrv_peer_routes_agree", "peer", addrA); up != 0 || agree != -1 {
		t.Fatalf("b's metrics of the killed a: peer_up %v peer_routes_agree %v, want 0 and no series", up, agree)
	}
}

// TestNsaddrAnswersThisServerAndItsPeers: with peerNamesrvAddrs and no
// addressServerList, the address server answers this server followed by
// the peers, Java's `;`-separated list; the peers, unreachable, are down.
func TestNsaddrAnswersThisServerAndItsPeers(t *testing.T) {
	dead := "127.0.0.1:" + strconv.Itoa(freePort(t))
	ns := startNamesrvHTTP(t, "-peerNamesrvAddrs", dead)
	if status, body, err := ns.get("/rocketmq/nsaddr"); err != nil || status != http.StatusOK || string(body) != ns.Addr+";"+dead {
		t.Fatalf("nsaddr %d %q %v, want %s;%s", status, body, err, ns.Addr, dead)
	}
	onlyPeer(t, ns, dead, "the unreachable peer down", func(st peers.Status) bool { return !st.Up && st.Error != "" && st.LastUpMillis == 0 })
}

// TestPeersOverTLS: under tls.server.mode=enforcing a NameServer asks its
// peer over TLS, verifying its certificate against tls.server.trustCertPath,
// and sees it up; the peer, trusting no CA, asks without verifying and sees
// it up too.
func TestPeersOverTLS(t *testing.T) {
	dir := t.TempDir()
	certs, err := testcerts.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	portA, portB := freePort(t), freePort(t)
	addrA, addrB := "127.0.0.1:"+strconv.Itoa(portA), "127.0.0.1:"+strconv.Itoa(portB)
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: certs.ClientTLS(false)}}
	start := func(name string, port int, peer, trust string) string {
		conf := filepath.Join(dir, name+".properties")
		text := "tls.server.mode=enforcing\ntls.server.certPath=" + certs.ServerCert + "\ntls.server.keyPath=" + certs.ServerKey +
			"\ntls.server.trustCertPath=" + trust + "\npeerNamesrvAddrs=" + peer + "\n"
		if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		http := freePort(t)
		startNamesrvIn(t, t.TempDir(), port, "-c", conf, "-httpListenPort", strconv.Itoa(http))
		return "https://127.0.0.1:" + strconv.Itoa(http)
	}
	for _, side := range []struct{ base, peer string }{
		{start("a", portA, addrB, certs.CACert), addrB},
		{start("b", portB, addrA, ""), addrA},
	} {
		eventually(t, 20*time.Second, side.base+" sees "+side.peer+" up over TLS", func() error {
			a, err := nstest.TryHTTP(nstest.HTTPRequest{URL: side.base + "/v1/peers", Client: client})
			if err != nil {
				return err
			}
			var view struct {
				Peers []peers.Status `json:"peers"`
			}
			if err := json.Unmarshal([]byte(a.Body), &view); err != nil {
				return fmt.Errorf("%v in %s", err, a.Body)
			}
			if len(view.Peers) != 1 || view.Peers[0].Addr != side.peer || !view.Peers[0].Up || !view.Peers[0].RoutesAgree {
				return fmt.Errorf("peers %+v", view.Peers)
			}
			return nil
		})
	}
}
