package load

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	rmqadmin "github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/rlog"

	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

func TestRegistrationsCarryTheirVersionAndCRC(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 2, BrokersPerCluster: 2, TopicsPerCluster: 50, QueueNums: 4})
	regs := NewRegistrations(l)
	broker := l.Brokers()[3]
	for _, v := range []int{FirstVersion, SecondVersion} {
		req := regs.Request(broker, v)
		if req.Code != remoting.REGISTER_BROKER || req.ExtFields["brokerName"] != broker.Name || req.ExtFields["clusterName"] != broker.Cluster {
			t.Fatalf("request %+v", req)
		}
		crc, _ := strconv.ParseUint(req.ExtFields["bodyCrc32"], 10, 32)
		if uint32(crc) != crc32.ChecksumIEEE(req.Body)&0x7FFFFFFF {
			t.Fatal("bodyCrc32 does not match the body")
		}
		body, err := route.DecodeRegisterBrokerBody(req.Body)
		if err != nil {
			t.Fatal(err)
		}
		w := body.TopicConfigSerializeWrapper
		if w.DataVersion != BodyDataVersion(v) || len(w.TopicConfigTable) != 50 {
			t.Fatalf("version %d: data version %+v, %d topics", v, w.DataVersion, len(w.TopicConfigTable))
		}
		if _, ok := w.TopicConfigTable[l.Clusters[1].Topics[7]]; !ok {
			t.Fatal("the body lacks a topic of the broker's cluster")
		}
	}
	if BodyDataVersion(FirstVersion) == BodyDataVersion(SecondVersion) {
		t.Fatal("the two body versions must differ")
	}
	if regs.BodySize(0) != len(regs.Request(l.Brokers()[0], FirstVersion).Body) {
		t.Fatal("BodySize disagrees with the body")
	}
}

func TestHeartbeatAndQueryDataVersionRequests(t *testing.T) {
	b := NewLayout(LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 1, QueueNums: 1}).Brokers()[0]
	hb := HeartbeatRequest(b)
	if hb.Code != remoting.BROKER_HEARTBEAT || hb.ExtFields["brokerAddr"] != b.Addr || hb.ExtFields["brokerName"] != b.Name {
		t.Fatalf("heartbeat %+v", hb)
	}
	q := QueryDataVersionRequest(b, SecondVersion)
	dv, err := route.DecodeDataVersion(q.Body)
	if q.Code != remoting.QUERY_DATA_VERSION || err != nil || dv != BodyDataVersion(SecondVersion) {
		t.Fatalf("query data version %+v, body version %+v (%v)", q, dv, err)
	}
	if r := RouteRequest("T"); r.Version < route.VersionV4_9_4 || r.ExtFields["topic"] != "T" {
		t.Fatalf("route request %+v must ask for the standard JSON", r)
	}
}

func TestExpectRouteFindsEveryKindOfWrongAnswer(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 2, BrokersPerCluster: 3, TopicsPerCluster: 1, QueueNums: 8})
	answer := func(code int32, data *route.TopicRouteData) *remoting.Command {
		resp := &remoting.Command{Code: code}
		if data != nil {
			resp.Body = route.EncodeTopicRouteData(nil, data, true)
		}
		return resp
	}
	right := l.RouteData(0)
	missingBroker := l.RouteData(0)
	missingBroker.BrokerDatas = missingBroker.BrokerDatas[1:]
	otherQueues := l.RouteData(0)
	otherQueues.QueueDatas[2].ReadQueueNums = 4
	queuesOfAnotherBroker := l.RouteData(0)
	queuesOfAnotherBroker.QueueDatas[0].BrokerName = "someone-else"
	cases := []struct {
		name string
		resp *remoting.Command
		want string
	}{
		{"right", answer(remoting.SUCCESS, right), ""},
		{"other cluster's brokers", answer(remoting.SUCCESS, l.RouteData(1)), "wrong brokers"},
		{"a broker missing", answer(remoting.SUCCESS, missingBroker), "wrong brokers"},
		{"queues of another broker", answer(remoting.SUCCESS, queuesOfAnotherBroker), "wrong brokers"},
		{"wrong queue count", answer(remoting.SUCCESS, otherQueues), "wrong queues"},
		{"topic not exist", answer(remoting.TOPIC_NOT_EXIST, nil), "code 17"},
		{"garbage body", &remoting.Command{Body: []byte("{not json")}, "bad route body"},
	}
	check := l.ExpectRoute(0)
	for _, tc := range cases {
		if got := check(tc.resp); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestExpectRouteRemembersOnlyWhatPassed(t *testing.T) {
	l := NewLayout(LayoutSpec{Clusters: 2, BrokersPerCluster: 3, TopicsPerCluster: 1, QueueNums: 8})
	check := l.ExpectRoute(0)
	wrong := &remoting.Command{Body: route.EncodeTopicRouteData(nil, l.RouteData(1), true)}
	right := &remoting.Command{Body: route.EncodeTopicRouteData(nil, l.RouteData(0), true)}
	for round := range 3 { // the second and third rounds compare with what the first remembered
		if got := check(wrong); got != "wrong brokers" {
			t.Fatalf("round %d: another cluster's route: got %q", round, got)
		}
		if got := check(right); got != "" {
			t.Fatalf("round %d: the right route: got %q", round, got)
		}
	}
	// A remembered body is a copy: a reused answer buffer changes nothing.
	clean := bytes.Clone(right.Body)
	for i := range right.Body {
		right.Body[i] = 'x'
	}
	if got := check(right); got != "bad route body" {
		t.Fatalf("a garbage body after the right one was remembered: got %q", got)
	}
	if got := check(&remoting.Command{Body: clean}); got != "" {
		t.Fatalf("the right route again: got %q", got)
	}
}

// TestGoClientRouteFrameIsWhatTheGoClientWrites has the Apache Go client
// ask a listener for a route and compares the frame it sent with
// GoClientRouteFrame.
func TestGoClientRouteFrameIsWhatTheGoClientWrites(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer conn.Close()
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		var length [4]byte
		if _, err := io.ReadFull(conn, length[:]); err != nil {
			got <- nil
			return
		}
		frame := make([]byte, 4+binary.BigEndian.Uint32(length[:]))
		copy(frame, length[:])
		if _, err := io.ReadFull(conn, frame[4:]); err != nil {
			got <- nil
			return
		}
		got <- frame
	}()
	rlog.SetLogLevel("fatal") // its failures to reach the listener once it closed are expected
	adm, err := rmqadmin.NewAdmin(rmqadmin.WithResolver(primitive.NewPassthroughResolver([]string{ln.Addr().String()})))
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go func() { _, _ = adm.FetchPublishMessageQueues(ctx, "Some_Topic-1") }() // never answered
	frame := <-got
	if frame == nil {
		t.Fatal("the Go client sent no whole frame")
	}
	_, _, opaque, ok := answerOpaque(frame, 0)
	if !ok {
		t.Fatalf("no opaque in %q", frame)
	}
	if want := GoClientRouteFrame("Some_Topic-1", opaque); !bytes.Equal(frame, want) {
		t.Fatalf("the Go client wrote\n%q\nGoClientRouteFrame is\n%q", frame, want)
	}
	tmpl, err := routeTemplate(GoClient, "Some_Topic-1")
	if err != nil {
		t.Fatal(err)
	}
	if sent := tmpl.Append(nil, opaque); !bytes.Equal(sent, frame) {
		t.Fatalf("the Go client's template wrote\n%q\nwant\n%q", sent, frame)
	}
}
