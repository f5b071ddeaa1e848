package broker

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// TestOversizedFrameClosesTheConnection: the broker's port has the
// NameServer's frame limit (remoting.DefaultMaxFrameSize, Java's
// frameMaxLength): a frame announcing more is not read, its connection is
// closed, and the broker keeps serving the others.
func TestOversizedFrameClosesTheConnection(t *testing.T) {
	b, client := startTestBroker(t, testBrokerConfig(t, "", 0))
	conn, err := net.DialTimeout("tcp", b.Addr(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	frame := make([]byte, 8)
	binary.BigEndian.PutUint32(frame, remoting.DefaultMaxFrameSize) // length+4 over the limit
	binary.BigEndian.PutUint32(frame[4:], 16)                       // a JSON header of 16 bytes to come
	if _, err := conn.Write(frame); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err = conn.Read(make([]byte, 1))
	var timeout net.Error
	if err == nil || errors.As(err, &timeout) && timeout.Timeout() {
		t.Fatalf("the connection that announced a %d-byte frame is still open (read: %v)", remoting.DefaultMaxFrameSize, err)
	}
	if !errors.Is(err, io.EOF) {
		t.Logf("read after the oversized frame: %v", err)
	}
	if props, _ := brokerConfigOf(t, client); props["brokerName"] != "broker-a" {
		t.Fatalf("the broker stopped serving: %v", props)
	}
}
