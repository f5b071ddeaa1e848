package test

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// frameWith builds raw bytes: a length word, a header-length word and a header.
func frameWith(length uint32, headerWord uint32, header []byte) []byte {
	b := make([]byte, 8, 8+len(header))
	binary.BigEndian.PutUint32(b, length)
	binary.BigEndian.PutUint32(b[4:], headerWord)
	return append(b, header...)
}

// TestBadInputClosesOnlyThatConnection sends each kind of malformed input of
// the remoting issue on its own connection: the server must close it without a
// reply and go on serving a good query on another connection.
func TestBadInputClosesOnlyThatConnection(t *testing.T) {
	ns := startNamesrv(t)
	validJSON := []byte(`{"code":105,"flag":0,"language":"JAVA","opaque":1,"version":479}`)
	cases := []struct {
		name  string
		bytes []byte
	}{
		{"frame longer than 16 MiB", frameWith(16777213, uint32(len(validJSON)), validJSON)},
		{"negative length", frameWith(0xFFFFFFF0, 0, nil)},
		{"length smaller than the header-length word", []byte{0, 0, 0, 2, 0, 0}},
		{"header length beyond the frame", frameWith(20, 100, make([]byte, 16))},
		{"unknown serialize type", frameWith(4+uint32(len(validJSON)), 5<<24|uint32(len(validJSON)), validJSON)},
		{"header not JSON", frameWith(4+9, 9, []byte("{not json"))},
		{"JSON null header", frameWith(4+4, 4, []byte("null"))},
		{"binary header with remark beyond header", frameWith(4+21, 1<<24|21,
			[]byte{0, 105, 0, 1, 223, 0, 0, 0, 1, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0})},
		{"garbage (an HTTP request)", []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")},
	}
	good := nstest.NewClient(t, ns.Addr)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", ns.Addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Write(tc.bytes); err != nil {
				t.Fatal(err)
			}
			_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
			n, err := io.ReadAll(conn)
			if len(n) != 0 || err != nil {
				t.Fatalf("want the connection closed without a reply, read %q err %v", n, err)
			}
			resp := nstest.Invoke(t, good, remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil))
			nstest.MustCode(t, resp, remoting.SUCCESS)
		})
	}
}

// TestSlowSenderHoldsOnlyItsConnection dribbles a valid frame one byte at a
// time while another client is served.
func TestSlowSenderHoldsOnlyItsConnection(t *testing.T) {
	ns := startNamesrv(t)
	frame, err := remoting.Encode(remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	slow, err := net.Dial("tcp", ns.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	good := nstest.NewClient(t, ns.Addr)
	for i := 0; i < len(frame)-1; i++ {
		if _, err := slow.Write(frame[i : i+1]); err != nil {
			t.Fatal(err)
		}
		if i%10 == 0 {
			nstest.MustCode(t, nstest.Invoke(t, good, remoting.NewRequest(remoting.GET_BROKER_CLUSTER_INFO, nil, nil)), remoting.SUCCESS)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := slow.Write(frame[len(frame)-1:]); err != nil {
		t.Fatal(err)
	}
	_ = slow.SetReadDeadline(time.Now().Add(3 * time.Second))
	var lenWord [4]byte
	if _, err := io.ReadFull(slow, lenWord[:]); err != nil {
		t.Fatalf("the slow sender's complete request got no answer: %v", err)
	}
}
