package namesrv

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/controller/wire"
	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/namesrv/config"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// protocolCodes are the request codes of protocol.md section 2.0.
var protocolCodes = []int32{
	remoting.PUT_KV_CONFIG, remoting.GET_KV_CONFIG, remoting.DELETE_KV_CONFIG, remoting.REGISTER_BROKER,
	remoting.UNREGISTER_BROKER, remoting.GET_ROUTEINFO_BY_TOPIC, remoting.GET_BROKER_CLUSTER_INFO,
	remoting.WIPE_WRITE_PERM_OF_BROKER, remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, remoting.DELETE_TOPIC_IN_NAMESRV,
	remoting.REGISTER_TOPIC_IN_NAMESRV, remoting.GET_KVLIST_BY_NAMESPACE, remoting.GET_TOPICS_BY_CLUSTER,
	remoting.GET_SYSTEM_TOPIC_LIST_FROM_NS, remoting.GET_UNIT_TOPIC_LIST, remoting.GET_HAS_UNIT_SUB_TOPIC_LIST,
	remoting.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST, remoting.UPDATE_NAMESRV_CONFIG, remoting.GET_NAMESRV_CONFIG,
	remoting.QUERY_DATA_VERSION, remoting.ADD_WRITE_PERM_OF_BROKER, remoting.GET_BROKER_MEMBER_GROUP,
	remoting.BROKER_HEARTBEAT,
	wire.CodeNotifyNamesrvMasterElected, // ours: a standalone controller's election notice
}

func TestProcessRequest_UnSupportedRequest(t *testing.T) {
	s := startServer(t, nil)
	resp := s.call(t, 99999, nil, nil)
	nstest.MustCode(t, resp, remoting.REQUEST_CODE_NOT_SUPPORTED)
	if resp.Remark != " request type 99999 not supported" {
		t.Fatalf("remark %q (quirk Q28: leading space)", resp.Remark)
	}
}

// TestHandlerTable: the table holds every code of protocol.md 2.0 once, and
// the classes keep their promises: route reads never wait behind the default
// worker pool (the topic lists have a pool of their own), admin writes never
// run on the event loop.
func TestHandlerTable(t *testing.T) {
	scanningLists := []int32{remoting.GET_ALL_TOPIC_LIST_FROM_NAMESERVER, remoting.GET_TOPICS_BY_CLUSTER,
		remoting.GET_UNIT_TOPIC_LIST, remoting.GET_HAS_UNIT_SUB_TOPIC_LIST, remoting.GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST}
	s := startServer(t, nil)
	table := s.ns.handlerTable()
	var codes []int32
	for _, spec := range table {
		codes = append(codes, spec.code)
		if spec.handler == nil {
			t.Errorf("%s has no handler", remoting.RequestCodeName(spec.code))
		}
		switch {
		case spec.class == classRouteRead && spec.slow != slices.Contains(scanningLists, spec.code):
			t.Errorf("route read %s: slow %v; only the lists that scan every topic run on a pool (the list pool)",
				remoting.RequestCodeName(spec.code), spec.slow)
		case spec.class == classAdminWrite && !spec.slow:
			t.Errorf("admin write %s runs on the event loop", remoting.RequestCodeName(spec.code))
		}
	}
	slices.Sort(codes)
	want := slices.Sorted(slices.Values(protocolCodes))
	if !slices.Equal(codes, want) {
		t.Fatalf("table codes %v, want %v", codes, want)
	}
	for _, code := range protocolCodes {
		if resp := s.call(t, code, nil, nil); resp.Code == remoting.REQUEST_CODE_NOT_SUPPORTED {
			t.Errorf("%s answered as not supported", remoting.RequestCodeName(code))
		}
	}
}

func TestResponseHelpers(t *testing.T) {
	req := remoting.NewRequest(remoting.GET_KV_CONFIG, nil, nil)
	req.Opaque = 42
	cases := []struct {
		name     string
		resp     *remoting.Command
		code     int32
		remark   string
		emptyExt bool
	}{
		{"success", success(req), remoting.SUCCESS, "", false},
		{"system error", systemError(req, "why"), remoting.SYSTEM_ERROR, "why", false},
		{"withExt of a header with only nulls", withExt(success(req), &registerBrokerResponseHeader{}), remoting.SUCCESS, "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.resp
			if r.Code != tc.code || r.Remark != tc.remark || r.Opaque != 42 || !r.IsResponse() {
				t.Fatalf("code %d remark %q opaque %d response %v", r.Code, r.Remark, r.Opaque, r.IsResponse())
			}
			if tc.emptyExt != (r.ExtFields != nil) || len(r.ExtFields) != 0 {
				t.Fatalf("ext %#v, want present-and-empty %v", r.ExtFields, tc.emptyExt)
			}
		})
	}
}

// TestAdminWritesDoNotWaitBehindRegistrations: with the default pool cut to
// one worker and one queue slot, a pipeline of 10,000-topic registrations of
// new brokers (each decoded and applied for milliseconds) keeps it full, and
// the ones that find it full are answered SYSTEM_BUSY; an operator's KV write
// sent once that has happened runs on the admin pool and succeeds.
func TestAdminWritesDoNotWaitBehindRegistrations(t *testing.T) {
	s := startServer(t, func(cfg *config.Config) {
		cfg.DefaultThreadPoolNums, cfg.DefaultThreadPoolQueueCapacity = 1, 1
	})
	broker := nstest.BrokerAMaster
	broker.Topics = map[string]int32{}
	for i := range 10000 {
		broker.Topics[fmt.Sprintf("T%05d", i)] = 8
	}
	body := broker.Body()
	var stream []byte
	for i := range 30 {
		broker.Name, broker.Addr = fmt.Sprintf("flood-%d", i), fmt.Sprintf("10.0.0.%d:10911", i)
		req := broker.RequestWith(body)
		req.Opaque = int32(i + 1)
		frame, err := remoting.Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		stream = append(stream, frame...)
	}
	conn, err := net.Dial("tcp", s.ns.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() { _, _ = conn.Write(stream) }()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	reader := bufio.NewReader(conn)
	for answered := 0; ; answered++ {
		if answered == 30 {
			t.Fatal("no registration was answered SYSTEM_BUSY: the default pool never filled")
		}
		if resp := readFrame(t, reader); resp.Code == remoting.SYSTEM_BUSY {
			break // the default pool is full now
		}
	}
	put := remoting.NewRequest(remoting.PUT_KV_CONFIG, map[string]string{"namespace": "ns", "key": "k", "value": "v"}, nil)
	nstest.MustCode(t, nstest.Invoke(t, s.client, put), remoting.SUCCESS)
}

// readFrame reads and decodes one frame.
func readFrame(t *testing.T, r *bufio.Reader) *remoting.Command {
	t.Helper()
	var length [4]byte
	if _, err := io.ReadFull(r, length[:]); err != nil {
		t.Fatalf("read answer: %v", err)
	}
	frame := make([]byte, binary.BigEndian.Uint32(length[:]))
	if _, err := io.ReadFull(r, frame); err != nil {
		t.Fatalf("read answer: %v", err)
	}
	cmd, err := remoting.DecodeFrame(frame)
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}
