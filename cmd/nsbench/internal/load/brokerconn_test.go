package load

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/gonamesrv/gonamesrv/remoting"
)

func TestBrokerConnSendsTheWholeBodyAndMatchesAnswers(t *testing.T) {
	received := make(chan *remoting.Command, 4)
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		received <- req
		resp := remoting.NewResponse(req, remoting.SUCCESS, "")
		resp.Body = []byte("ok:" + req.ExtFields["n"])
		return resp
	})
	conn, err := DialBroker(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := bytes.Repeat([]byte("0123456789"), 300_000) // 3 MB, larger than any socket buffer
	for _, n := range []string{"1", "2"} {
		req := remoting.NewRequest(remoting.REGISTER_BROKER, map[string]string{"n": n}, body)
		resp, err := conn.Invoke(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !resp.IsResponse() || string(resp.Body) != "ok:"+n || resp.Opaque != req.Opaque {
			t.Fatalf("answer %+v to request %d", resp, req.Opaque)
		}
		got := <-received
		if !bytes.Equal(got.Body, body) || got.ExtFields["n"] != n {
			t.Fatalf("server received %d body bytes, ext %v", len(got.Body), got.ExtFields)
		}
	}
}

func TestBrokerConnFailsAndClosesOnABrokenStream(t *testing.T) {
	addr := testServer(t, func(_ *remoting.Conn, req *remoting.Command) *remoting.Command {
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	conns, err := DialBrokers(context.Background(), addr, 2)
	if err != nil {
		t.Fatal(err)
	}
	CloseAll(conns)
	_, err = conns[0].Invoke(context.Background(), HeartbeatRequest(Broker{}))
	if !errors.Is(err, remoting.ErrConnectionClosed) {
		t.Fatalf("err %v, want ErrConnectionClosed", err)
	}
	if _, err := DialBroker(context.Background(), "127.0.0.1:1"); err == nil {
		t.Fatal("no error dialing a closed port")
	}
}

func TestDialBrokersFailsCleanlyWhenNobodyListens(t *testing.T) {
	// Before the fix a failed dial left a nil *BrokerConn in the slice,
	// which CloseAll then called Close on.
	if _, err := DialBrokers(context.Background(), "127.0.0.1:1", 3); err == nil {
		t.Fatal("no error dialing a closed port")
	}
}
