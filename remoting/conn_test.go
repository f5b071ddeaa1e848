package remoting

import (
	"testing"
	"time"
)

func TestConnContextAndIdle(t *testing.T) {
	conn := &Conn{id: 3, remoteAddr: "10.0.0.1:5"}
	if conn.Context() != nil {
		t.Fatal("fresh conn has a context")
	}
	conn.SetContext(42)
	conn.SetContext("broker-a") // a different type must be accepted too
	if conn.Context() != "broker-a" {
		t.Fatalf("Context() = %v", conn.Context())
	}
	start := time.Unix(1000, 0)
	conn.touch(start)
	if conn.idleSince(start) || !conn.idleSince(start.Add(time.Nanosecond)) {
		t.Fatal("idleSince disagrees with the last touch")
	}
	if conn.String() != "conn#3(10.0.0.1:5)" || conn.ID() != 3 || conn.RemoteAddr() != "10.0.0.1:5" {
		t.Fatalf("identity: %s", conn)
	}
}

func TestConnAsyncWriteOnClosedConn(t *testing.T) {
	conn := &Conn{}
	conn.closed.Store(true)
	calls := 0
	if err := conn.asyncWrite([]byte("x"), nil, func() { calls++ }); err == nil || calls != 1 {
		t.Fatalf("asyncWrite on closed conn: err %v, done called %d times", err, calls)
	}
	if err := conn.Close(); err != nil {
		t.Fatalf("Close of a closed conn: %v", err)
	}
}
