package namesrv

import (
	"math"
	"testing"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
	"github.com/gonamesrv/gonamesrv/route"
)

// acceptedConn starts a remoting server and returns the server side of a
// raw connection to it, captured by a handler, with the raw client side.
func acceptedConn(t *testing.T) (*remoting.Conn, *rawConn) {
	t.Helper()
	accepted := make(chan *remoting.Conn, 1)
	server := remoting.NewServer(remoting.ServerConfig{Addr: "127.0.0.1:0"})
	server.Handle(remoting.GET_BROKER_CLUSTER_INFO, func(conn *remoting.Conn, req *remoting.Command) *remoting.Command {
		accepted <- conn
		return remoting.NewResponse(req, remoting.SUCCESS, "")
	})
	if err := server.Start(); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = server.Shutdown(nstest.Context(t)) })
	client := dialRaw(t, server.Addr().String())
	nstest.MustCode(t, client.invoke(remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil), 1), remoting.SUCCESS)
	return <-accepted, client
}

func TestBrokerConns(t *testing.T) {
	cases := []struct {
		name       string
		forget     bool
		wantClosed bool
	}{
		{"remembered connection is closed", false, true},
		{"forgotten connection is left alone", true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, client := acceptedConn(t)
			conns := newBrokerConns()
			conns.remember(conn)
			if tc.forget {
				conns.forget(conn)
			}
			conns.close(route.ConnID(conn.ID()))
			if !tc.wantClosed {
				// Still open: it answers.
				nstest.MustCode(t, client.invoke(remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil), 2), remoting.SUCCESS)
				return
			}
			if frame, err := client.read(); !closedByPeer(err) {
				t.Fatalf("read %v (err %v) from a connection that should be closed", frame, err)
			}
		})
	}
}

func TestBrokerConnsCloseUnknown(t *testing.T) {
	conns := newBrokerConns()
	conns.close(route.ConnID(math.MaxUint64)) // must neither fail nor block
	if len(conns.conns) != 0 {
		t.Fatalf("close of an unknown id left entries %v", conns.conns)
	}
}
