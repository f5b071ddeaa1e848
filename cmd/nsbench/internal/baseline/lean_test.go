package baseline

import (
	"context"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/testlog"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestHeaderScanFindsCodeOpaqueFlagAndTopic(t *testing.T) {
	req := load.RouteRequest("Topic-1")
	req.Opaque, req.Flag = -42, 2
	frame, err := remoting.Encode(req)
	if err != nil {
		t.Fatal(err)
	}
	header := frame[8:]
	for key, want := range map[string]int64{`"code":`: remoting.GET_ROUTEINFO_BY_TOPIC, `"opaque":`: -42, `"flag":`: 2} {
		if got, ok := scanInt(header, []byte(key)); !ok || got != want {
			t.Errorf("%s: %d %v, want %d", key, got, ok, want)
		}
	}
	if topic, ok := scanTopic(header); !ok || string(topic) != "Topic-1" {
		t.Errorf("topic %q %v", topic, ok)
	}
	if _, ok := scanInt([]byte(`{"code":}`), codeKey); ok {
		t.Error("a key without digits scanned")
	}
	if _, ok := scanTopic([]byte(`{"extFields":{"topic":"a\"b"}}`)); ok {
		t.Error("an escaped topic must go to the decoder")
	}
}

func TestHeaderScanTakesTheTopLevelKeyNotAnExtFieldOfItsName(t *testing.T) {
	for _, header := range []string{
		// sorted keys, as Java writes them: flag and opaque follow extFields
		`{"code":105,"extFields":{"flag":"9","opaque":"9","code":"9"},"flag":2,"language":"JAVA","opaque":-42,"version":0}`,
		// the Go client's order: extFields last
		`{"code":105,"language":"GO","version":0,"opaque":-42,"flag":2,"extFields":{"flag":"9","opaque":"9","code":"9"}}`,
	} {
		for key, want := range map[string]int64{`"code":`: 105, `"opaque":`: -42, `"flag":`: 2} {
			if got, ok := scanInt([]byte(header), []byte(key)); !ok || got != want {
				t.Errorf("%s in %s: %d %v, want %d", key, header, got, ok, want)
			}
		}
	}
}

func TestPickDecodesWhatTheScanCannotRead(t *testing.T) {
	a := newAnswers(load.NewLayout(testSpec))
	l := load.NewLayout(testSpec)
	topic, _ := l.Topic(3)
	for _, serialize := range []remoting.SerializeType{remoting.JSON, remoting.ROCKETMQ} {
		req := load.RouteRequest(topic)
		req.SerializeType, req.Opaque = serialize, 77
		frame, err := remoting.Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, opaque, oneway, err := a.pick(frame)
		if err != nil || opaque != 77 || oneway || answer != &a.routeByTopic[topic][serialize] {
			t.Fatalf("%v: answer %p opaque %d oneway %v err %v", serialize, answer, opaque, oneway, err)
		}
		// answered in the request's encoding, as the NameServer answers
		resp, err := remoting.DecodeFrame(answer.Append(nil, 77)[4:])
		if err != nil || resp.SerializeType != serialize || resp.Opaque != 77 || resp.Code != remoting.SUCCESS {
			t.Fatalf("%v: answer %+v %v", serialize, resp, err)
		}
		// the binary scan reads a one-way request's flag and any ext order
		req.ExtFields = map[string]string{"a": "1", "topic": topic, "zz": "2"}
		req.MarkOneway()
		frame, err = remoting.Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		if answer, _, oneway, err := a.pick(frame); err != nil || !oneway || answer != &a.routeByTopic[topic][serialize] {
			t.Fatalf("%v one-way with more ext fields: %p %v %v", serialize, answer, oneway, err)
		}
	}
	req := load.RouteRequest("unknown")
	req.Opaque = 5
	frame, _ := remoting.Encode(req)
	answer, _, _, err := a.pick(frame)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := remoting.DecodeFrame(answer.Append(nil, 5)[4:])
	if err != nil || resp.Code != remoting.TOPIC_NOT_EXIST || resp.Opaque != 5 {
		t.Fatalf("unknown topic: %+v %v", resp, err)
	}
	if _, _, _, err := a.pick([]byte{0, 0, 0, 6, 1, 0, 0, 2, 0, 1}); err == nil {
		t.Fatal("a broken binary header must be refused")
	}
}

func TestLargeFramesAreDroppedAsTheyArriveAndAnswered(t *testing.T) {
	spec := load.LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 2000, QueueNums: 8}
	srv, err := Start("127.0.0.1:0", spec, testlog.Warnings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Shutdown() })
	l := load.NewLayout(spec)
	regs := load.NewRegistrations(l)
	if regs.BodySize(0) < skipFrameSize {
		t.Fatalf("body of %d bytes does not test the large-frame path", regs.BodySize(0))
	}
	conn, err := load.DialBroker(context.Background(), srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for range 3 { // the connection's framing survives each large frame
		resp, err := conn.Invoke(context.Background(), regs.Request(l.Brokers()[0], load.FirstVersion))
		if err != nil || resp.Code != remoting.SUCCESS {
			t.Fatalf("registration: %+v %v", resp, err)
		}
		topic, c := l.Topic(1)
		resp, err = conn.Invoke(context.Background(), load.RouteRequest(topic))
		if err != nil {
			t.Fatal(err)
		}
		if kind := l.ExpectRoute(c)(resp); kind != "" {
			t.Fatalf("route after a large frame: %s", kind)
		}
	}
}
