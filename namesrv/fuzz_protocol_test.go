package namesrv

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// The stateful protocol fuzzer (issue 13 item 7): a fuzz input is a
// sequence of steps (registrations, unregistrations, heartbeats, route
// queries, KV writes, bad requests, garbage frames and connection closes)
// sent over a few connections to a real in-process NameServer. After each
// step the server must answer, and its routes must agree with protocolModel,
// a plain model of what was registered; at the end every connection closes
// and nothing may be left in the tables or their indexes.

// The fixed world of the fuzzer: two broker groups of three addresses each
// (an address always registers under its own group's name, so the model
// needs none of Java's cross-group quirks), four topics, three connections.
const (
	fuzzConns  = 3
	fuzzAddrs  = 6
	fuzzTopics = 4
	fuzzSteps  = 48
	fuzzWait   = 5 * time.Second // bounds a wait for asynchronous work, never an assertion of speed
)

var fuzzTopicNames = [fuzzTopics]string{"FuzzTopic0", "FuzzTopic1", "FuzzTopic2", "FuzzTopic3"}

func fuzzAddr(i int) string      { return "127.0.0.1:" + strconv.Itoa(20000+i) }
func fuzzGroupOf(i int) string   { return "fuzz-broker-" + strconv.Itoa(i/3) }
func fuzzAddrIndex(a string) int { p, _ := strconv.Atoi(a[len("127.0.0.1:"):]); return p - 20000 }

// modelLive is one live broker of the model.
type modelLive struct {
	conn int // connection generation it last registered over
}

// protocolModel is what the route tables must show: live brokers, group
// members, the broker names holding queue data for each topic, KV entries.
type protocolModel struct {
	live    map[string]modelLive        // address -> live entry
	groups  map[string]map[int64]string // broker name -> id -> address (an empty map: a refused first registration's trace)
	topics  map[string]map[string]bool  // topic -> broker names with queue data
	kv      map[string]string
	connGen [fuzzConns]int // current connection generation of each slot
}

func newProtocolModel() *protocolModel {
	return &protocolModel{live: map[string]modelLive{}, groups: map[string]map[int64]string{},
		topics: map[string]map[string]bool{}, kv: map[string]string{}}
}

// register applies a registration of addr as id with the given topics and
// says whether the server must accept it (the rules of route.RegisterBroker
// for this world: no acting master, stateVersion 0).
func (m *protocolModel) register(addr string, id int64, topics []string, conn int) bool {
	name := fuzzGroupOf(fuzzAddrIndex(addr))
	members, exists := m.groups[name]
	// Step 7: every stateVersion here is 0, so a registration takes its id
	// from any holder, live or not (Java's rule, protocol.md 4.3).
	if !exists {
		members = map[int64]string{}
		m.groups[name] = members
	}
	for i, a := range members { // step 6: one address, one id
		if a == addr && i != id {
			delete(members, i)
		}
	}
	if _, taken := members[id]; !taken && len(topics) == 1 {
		return false // step 8 (quirk Q9): steps 1-6 stay, as a trace
	}
	members[id] = addr
	m.live[addr] = modelLive{conn: conn}
	if id == route.MasterID {
		for _, topic := range topics {
			if m.topics[topic] == nil {
				m.topics[topic] = map[string]bool{}
			}
			m.topics[topic][name] = true
		}
	}
	return true
}

// remove is unregistration and connection close: addr leaves the live
// table and its group (when it is a member, or always for an unregister),
// and a group left empty takes its queue data with it.
func (m *protocolModel) remove(addr string) {
	delete(m.live, addr)
	name := fuzzGroupOf(fuzzAddrIndex(addr))
	members, ok := m.groups[name]
	if !ok {
		return
	}
	for id, a := range members {
		if a == addr {
			delete(members, id)
		}
	}
	if len(members) == 0 {
		delete(m.groups, name)
		for topic, names := range m.topics {
			delete(names, name)
			if len(names) == 0 {
				delete(m.topics, topic)
			}
		}
	}
}

// closeConn is a connection close: every broker whose live entry came over
// it goes, under its group when it is still a member of it or when that
// group has no member left (a refused registration's trace).
func (m *protocolModel) closeConn(slot int) {
	gen := m.connGen[slot]
	for addr, l := range m.live {
		if l.conn != gen {
			continue
		}
		name := fuzzGroupOf(fuzzAddrIndex(addr))
		members, exists := m.groups[name]
		if slices.Contains(slices.Collect(maps.Values(members)), addr) || exists && len(members) == 0 {
			m.remove(addr)
		} else {
			delete(m.live, addr)
		}
	}
}

// fuzzWorld is the server, its connections and the model.
type fuzzWorld struct {
	t *testing.T
	s *testServer
	// observer queries the routes over the wire, on a connection of its
	// own that never registers anything.
	observer *remoting.Client
	conns    [fuzzConns]*remoting.Client
	model    *protocolModel
	nextG    int
}

func (w *fuzzWorld) conn(slot int) *remoting.Client {
	if w.conns[slot] == nil {
		w.conns[slot] = remoting.NewClient(w.s.addr(), remoting.ClientConfig{})
		w.nextG++
		w.model.connGen[slot] = w.nextG
	}
	return w.conns[slot]
}

func (w *fuzzWorld) closeConn(slot int) {
	if w.conns[slot] == nil {
		return
	}
	_ = w.conns[slot].Close()
	w.conns[slot] = nil
	w.model.closeConn(slot)
}

func (w *fuzzWorld) invoke(slot int, req *remoting.Command) *remoting.Command {
	w.t.Helper()
	return nstest.Invoke(w.t, w.conn(slot), req)
}

// fuzzBroker is the registration of address index a as id with topics.
func fuzzBroker(a int, id int64, topics []string, counter int64) nstest.Broker {
	b := nstest.Broker{Cluster: "FuzzCluster", Name: fuzzGroupOf(a), Addr: fuzzAddr(a), HAAddr: fuzzAddr(a + 100),
		ID: id, Topics: map[string]int32{}, Version: route.DataVersion{Counter: counter, Timestamp: 1}}
	for _, topic := range topics {
		b.Topics[topic] = 4
	}
	return b
}

// registerRequest is b's registration without enableActingMaster (so
// slaves never apply topics: no prime slave in this world).
func registerRequest(b nstest.Broker) *remoting.Command {
	req := b.RegisterRequest()
	delete(req.ExtFields, "enableActingMaster")
	return req
}

// step runs one step of the input and returns how many bytes it read.
func (w *fuzzWorld) step(in []byte) int {
	t := w.t
	t.Helper()
	op, arg := in[0], byte(0)
	used := 1
	if len(in) > 1 {
		arg, used = in[1], 2
	}
	slot := int(arg>>6) % fuzzConns
	a := int(arg) % fuzzAddrs
	switch op % 10 {
	case 0, 1, 2: // register
		id := int64(op/10) % 3
		topics := []string{fuzzTopicNames[0]}
		for i := 1; i < fuzzTopics; i++ {
			if op&(1<<(3+i)) != 0 {
				topics = append(topics, fuzzTopicNames[i])
			}
		}
		b := fuzzBroker(a, id, topics, int64(op%4))
		w.conn(slot) // the model needs the connection's generation
		want := w.model.register(b.Addr, id, topics, w.model.connGen[slot])
		resp := w.invoke(slot, registerRequest(b))
		if (resp.Code == remoting.SUCCESS) != want {
			t.Fatalf("register %s id %d topics %v on conn %d: code %d %q, model says accepted=%v", b.Addr, id, topics, slot, resp.Code, resp.Remark, want)
		}
	case 3: // unregister, applied by the worker
		b := fuzzBroker(a, int64(op/10)%3, nil, 0)
		nstest.MustCode(t, w.invoke(slot, remoting.NewRequest(remoting.UNREGISTER_BROKER, b.Identity(), nil)), remoting.SUCCESS)
		w.model.remove(b.Addr)
		w.waitModel("after unregister " + b.Addr)
	case 4: // close a connection
		w.closeConn(slot)
		w.waitModel(fmt.Sprintf("after closing conn %d", slot))
	case 5: // heartbeat and data version query: answered, no route change
		b := fuzzBroker(a, 0, nil, 0)
		ext := b.Identity()
		delete(ext, "brokerId")
		nstest.MustCode(t, w.invoke(slot, remoting.NewRequest(remoting.BROKER_HEARTBEAT, ext, nil)), remoting.SUCCESS)
		nstest.MustCode(t, w.invoke(slot, remoting.NewRequest(remoting.QUERY_DATA_VERSION, b.Identity(), nil)), remoting.SUCCESS)
	case 6: // KV write, read back
		key := "k" + strconv.Itoa(int(arg%4))
		value := strconv.Itoa(int(op))
		nstest.MustCode(t, w.invoke(slot, remoting.NewRequest(remoting.PUT_KV_CONFIG,
			map[string]string{"namespace": "fuzz", "key": key, "value": value}, nil)), remoting.SUCCESS)
		w.model.kv[key] = value
		got := w.invoke(slot, remoting.NewRequest(remoting.GET_KV_CONFIG, map[string]string{"namespace": "fuzz", "key": key}, nil))
		if got.Code != remoting.SUCCESS || got.ExtFields["value"] != value {
			t.Fatalf("KV %s: code %d value %q, want %q", key, got.Code, got.ExtFields["value"], value)
		}
	case 7: // invalid requests: clear error answers
		req := registerRequest(fuzzBroker(a, 0, fuzzTopicNames[:2], 1))
		delete(req.ExtFields, []string{"brokerName", "brokerAddr", "clusterName", "haServerAddr", "brokerId"}[int(arg)%5])
		if resp := w.invoke(slot, req); resp.Code != remoting.SYSTEM_ERROR {
			t.Fatalf("registration without a required field: code %d", resp.Code)
		}
		long := registerRequest(fuzzBroker(a, 0, fuzzTopicNames[:2], 1))
		long.ExtFields[[]string{"brokerName", "clusterName", "brokerAddr", "haServerAddr"}[int(arg)%4]] = strings.Repeat("x", 256+int(op))
		if resp := w.invoke(slot, long); resp.Code != remoting.SYSTEM_ERROR {
			t.Fatalf("registration past a name bound: code %d", resp.Code)
		}
		if resp := w.invoke(slot, remoting.NewRequest(9999, nil, nil)); resp.Code != remoting.REQUEST_CODE_NOT_SUPPORTED {
			t.Fatalf("unknown code: code %d", resp.Code)
		}
		bad := registerRequest(fuzzBroker(a, 0, fuzzTopicNames[:2], 1))
		bad.Body = in[:used]
		bad.ExtFields["bodyCrc32"] = "0"
		if resp := w.invoke(slot, bad); resp.Code != remoting.SYSTEM_ERROR {
			t.Fatalf("undecodable body: code %d", resp.Code)
		}
	case 8: // garbage bytes on a connection of their own
		w.garbage(in)
		used = len(in)
		// Whatever the bytes made of a request went with their
		// connection; let the worker catch up before the check.
		w.waitModel("after garbage")
	case 9: // a route query is part of every step's check
	}
	w.checkModel()
	return used
}

// garbage writes the rest of the input as raw bytes, behind a frame length
// taken from it, and closes the connection.
func (w *fuzzWorld) garbage(rest []byte) {
	conn, err := net.DialTimeout("tcp", w.s.addr(), fuzzWait)
	if err != nil {
		w.t.Fatalf("dial for garbage: %v", err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(200 * time.Millisecond))
	_, _ = conn.Write(rest)
	var buf [256]byte
	_, _ = conn.Read(buf[:]) // an answer, a close, or nothing: the server must only go on serving
}

// mismatch compares the server's routes with the model; "" when they agree.
func (w *fuzzWorld) mismatch() string {
	m := w.model
	for _, topic := range fuzzTopicNames {
		resp := nstest.RouteQuery(w.t, w.observer, topic, 0)
		wantNames := slices.Sorted(maps.Keys(m.topics[topic]))
		if resp.Code != remoting.SUCCESS && resp.Code != remoting.TOPIC_NOT_EXIST {
			return fmt.Sprintf("%s: route query answered %d %q", topic, resp.Code, resp.Remark)
		}
		if resp.Code == remoting.TOPIC_NOT_EXIST {
			if len(wantNames) > 0 {
				return fmt.Sprintf("%s: no route, model has queue data of %v", topic, wantNames)
			}
			continue
		}
		data := nstest.DecodeRoute(w.t, resp)
		_, queues := routeBrokerNames(data)
		slices.Sort(queues)
		if !slices.Equal(queues, wantNames) {
			return fmt.Sprintf("%s: queue data of %v, model %v", topic, queues, wantNames)
		}
		for _, bd := range data.BrokerDatas {
			if !maps.Equal(bd.BrokerAddrs, m.groups[bd.BrokerName]) {
				return fmt.Sprintf("%s: %s has %v, model %v", topic, bd.BrokerName, bd.BrokerAddrs, m.groups[bd.BrokerName])
			}
		}
	}
	if got := w.s.ns.routes.IndexSizes().Live; got != len(m.live) {
		return fmt.Sprintf("%d live brokers, model %d", got, len(m.live))
	}
	return ""
}

// checkModel checks that the server answers on every open connection and
// agrees with the model.
func (w *fuzzWorld) checkModel() {
	w.t.Helper()
	for _, c := range w.conns {
		if c != nil {
			nstest.MustCode(w.t, nstest.Invoke(w.t, c, remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil)), remoting.SUCCESS)
		}
	}
	if diff := w.mismatch(); diff != "" {
		w.t.Fatal(diff)
	}
}

// waitModel waits for asynchronous removals (the unregistration worker) to
// make the server agree with the model.
func (w *fuzzWorld) waitModel(what string) {
	w.t.Helper()
	deadline := time.Now().Add(fuzzWait)
	for {
		diff := w.mismatch()
		if diff == "" {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s: %s", what, diff)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// checkNothingLeft closes every connection and checks that the tables and
// their indexes hold nothing of the brokers that are gone.
func (w *fuzzWorld) checkNothingLeft() {
	w.t.Helper()
	for slot := range w.conns {
		w.closeConn(slot)
	}
	w.waitModel("after closing every connection")
	var last error
	deadline := time.Now().Add(fuzzWait)
	for time.Now().Before(deadline) {
		sizes := w.s.ns.routes.IndexSizes()
		switch {
		case sizes.Live != 0 || sizes.Topics != 0 || sizes.ConnBrokers != 0:
			last = fmt.Errorf("tables %+v", sizes)
		case sizes.BrokerTopics != 0 || sizes.QueueDataEpochs != 0 || sizes.Mappings != 0 || sizes.BrokerMappings != 0:
			last = fmt.Errorf("indexes kept for brokers that are gone: %+v", sizes)
		case w.s.ns.brokers.len() != 0:
			last = fmt.Errorf("%d broker connections remembered", w.s.ns.brokers.len())
		default:
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	w.t.Fatal(last)
}

// FuzzProtocolSequence runs a fuzzed sequence of steps against a real
// in-process NameServer and checks it against protocolModel after each.
func FuzzProtocolSequence(f *testing.F) {
	// Each step is an op byte and an argument byte (connection in its top
	// two bits, address = arg % 6); see step.
	f.Add([]byte{0, 0, 9, 0})                                                 // a first registration with one topic: refused (Q9)
	f.Add([]byte{0x70, 0, 10, 1, 0x30, 0, 4, 0})                              // a slave (id 2), a second refused (one topic), garbage
	f.Add([]byte{0x70, 0, 0x71, 0x41, 3, 0, 4, 0x40, 5, 1, 6, 2})             // unregistrations (one of a broker never seen), a close, a heartbeat, KV
	f.Add([]byte{0x70, 0, 0x70, 1, 10, 1, 0x70, 1, 7, 3, 8, 0, 0, 0, 4, 'x'}) // a stranger refused a live slave's id, invalid requests, garbage
	// masters (op 60-62: id 0, three topics): broker-0's master, a
	// stranger refused its id, broker-1's master, a query, the close
	f.Add([]byte{60, 0, 61, 1, 62, 3, 9, 0, 4, 0})
	// a slave (op 70: id 1) promoted to id 0 over the live master, the old
	// master unregistered, then the slave's connection closes
	f.Add([]byte{60, 0, 70, 67, 60, 67, 3, 0, 4, 64})
	f.Fuzz(func(t *testing.T, in []byte) {
		s := startServer(t, nil)
		w := &fuzzWorld{t: t, s: s, model: newProtocolModel(), observer: nstest.NewClient(t, s.addr())}
		for steps := 0; len(in) > 0 && steps < fuzzSteps; steps++ {
			in = in[w.step(in):]
		}
		w.checkNothingLeft()
	})
}

// TestFuzzWorldAddresses keeps the fuzzer's address helpers in step.
func TestFuzzWorldAddresses(t *testing.T) {
	for i := range fuzzAddrs {
		if fuzzAddrIndex(fuzzAddr(i)) != i {
			t.Fatalf("address %d round-trips to %d", i, fuzzAddrIndex(fuzzAddr(i)))
		}
	}
	if fuzzGroupOf(2) == fuzzGroupOf(3) {
		t.Fatal("addresses 2 and 3 share a group")
	}
}
