package test

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The embedded controller's failures never stop the NameServer (issue 35
// item 2), against the binary:
//   - a stranger's AppendEntries with a 3-byte configuration entry, which
//     used to panic the whole process, is refused and counted;
//   - a raft.db holding such an entry (written as a damaged store would
//     hold it), which used to panic at every start, leaves the NameServer
//     serving routes with /readyz, /v1/controller, the log and
//     rocketmq_controller_up saying the controller is down.
func TestEmbeddedControllerFailuresNeverStopTheNameServer(t *testing.T) {
	file, ctlAddr := embeddedControllerFile(t)
	ns := startNamesrvHTTP(t, "-c", file)
	var st struct {
		Serving   bool   `json:"serving"`
		Term      string `json:"term"`
		LastIndex string `json:"lastIndex"`
		Down      string `json:"down"`
	}
	eventually(t, 20*time.Second, "the embedded controller serving", func() error {
		// 404 until the controller is attached, after the side port.
		status, body, err := ns.get("/v1/controller")
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("/v1/controller: %d %v", status, err)
		}
		if err := json.Unmarshal(body, &st); err != nil || !st.Serving {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	})

	_, port, _ := net.SplitHostPort(ctlAddr)
	p, _ := strconv.Atoi(port)
	raftAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(p+1000)) // controllerRaftPortOffset
	term, _ := strconv.ParseUint(st.Term, 10, 64)
	last, _ := strconv.ParseUint(st.LastIndex, 10, 64)
	client, err := raft.NewTCPTransport("127.0.0.1:0", nil, 1, 5*time.Second, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var resp raft.AppendEntriesResponse
	err = client.AppendEntries("n0", raft.ServerAddress(raftAddr), &raft.AppendEntriesRequest{
		RPCHeader: raft.RPCHeader{ProtocolVersion: raft.ProtocolVersionMax, ID: []byte("stranger"), Addr: []byte(client.LocalAddr())},
		Term:      term + 1,
		Entries:   []*raft.Log{{Index: last + 1, Term: term + 1, Type: raft.LogConfiguration, Data: []byte{1, 2, 3}}},
	}, &resp)
	if err == nil || resp.Success {
		t.Fatalf("the 3-byte configuration entry: success %v, err %v (want it refused)", resp.Success, err)
	}
	eventually(t, 10*time.Second, "the refusal counted", func() error {
		if v := value(ns.scrape(t), "rocketmq_controller_refused_entries_total"); v != 1 {
			return fmt.Errorf("rocketmq_controller_refused_entries_total %v", v)
		}
		return nil
	})
	broker := nstest.Broker{Cluster: "BadEntryCluster", Name: "badentry-broker", Addr: "127.0.0.1:10911", Topics: map[string]int32{"BadEntryTopic": 4, "BadEntryOther": 4}}
	nstest.Register(t, nstest.NewClient(t, ns.Addr), broker)
	if _, code, err := routeOf(ns.Addr, "BadEntryTopic"); err != nil || code != remoting.SUCCESS {
		t.Fatalf("route after the stranger's entry: code %d %v", code, err)
	}

	// The entry on disk, as a damaged store would hold it.
	if code := ns.Stop(); code != 0 {
		t.Fatalf("stop: exit %d", code)
	}
	db := filepath.Join(filepath.Dir(file), "ctl", "raft-n0", "raft.db")
	store, err := raftboltdb.NewBoltStore(db)
	if err != nil {
		t.Fatal(err)
	}
	at, _ := store.LastIndex()
	at++
	if err := store.StoreLog(&raft.Log{Index: at, Term: term + 1, Type: raft.LogConfiguration, Data: []byte{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	store.Close()
	ns.start()
	ns.waitAttached(t)

	nstest.Register(t, nstest.NewClient(t, ns.Addr), broker)
	if _, code, err := routeOf(ns.Addr, "BadEntryTopic"); err != nil || code != remoting.SUCCESS {
		t.Fatalf("route with the controller down: code %d %v", code, err)
	}
	where := fmt.Sprintf("raft log index %d", at)
	eventually(t, 20*time.Second, "/readyz naming the controller down", func() error {
		status, body, err := ns.get("/readyz")
		if err != nil || status != http.StatusOK || !strings.Contains(string(body), "controller down: ") ||
			!strings.Contains(string(body), db) || !strings.Contains(string(body), where) {
			return fmt.Errorf("/readyz: %d %q %v", status, body, err)
		}
		return nil
	})
	if v := value(ns.scrape(t), "rocketmq_controller_up"); v != 0 {
		t.Fatalf("rocketmq_controller_up %v", v)
	}
	ns.getJSON(t, "/v1/controller", http.StatusOK, &st)
	if !strings.Contains(st.Down, where) || st.Serving {
		t.Fatalf("/v1/controller %+v", st)
	}
	logged, _ := os.ReadFile(ns.logPath)
	if !strings.Contains(string(logged), "embedded controller down") {
		t.Fatalf("the log does not say the controller is down:\n%s", logged)
	}
}
