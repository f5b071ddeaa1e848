package remoting

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"
)

// FuzzServerStream sends one connection's worth of bytes, a frame built from
// the input (length field, header word, header and a body of up to 320 KiB,
// consistent or not) followed by a good request, in two writes split at a
// fuzzed point, to a real server whose request memory limit (192 KiB) the
// large bodies pass. Whatever the bytes, the server must not crash, must
// answer a good request on another connection, and must give back every
// byte it counted once the connection is closed.
func FuzzServerStream(f *testing.F) {
	server := startServer(f, ServerConfig{RequestMemoryLimit: 192 << 10}, func(s *Server) {
		s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler)
		s.Handle(REGISTER_BROKER, digestHandler(true), Slow())
	})
	good := mustEncode(f, NewRequest(GET_ROUTEINFO_BY_TOPIC, map[string]string{"echo": "ok"}, nil))
	header := []byte(`{"code":103,"flag":0,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":479}`)
	for _, body := range []uint32{0, 100, 70 << 10, 150 << 10, 300 << 10} {
		f.Add(uint32(4+len(header))+body, uint32(len(header)), header, body, uint16(0))
	}
	f.Add(uint32(1<<20), uint32(len(header)), header, uint32(200<<10), uint16(50)) // announces more than it sends
	f.Add(uint32(1<<20), uint32(len(header)), header, uint32(100<<10), uint16(50)) // the same, within the limit
	f.Add(uint32(300<<10), uint32(250<<10), header, uint32(300<<10), uint16(9))    // header beyond the limit
	f.Fuzz(func(t *testing.T, length, word uint32, header []byte, bodyLen uint32, cut uint16) {
		stream := binary.BigEndian.AppendUint32(nil, length)
		stream = binary.BigEndian.AppendUint32(stream, word)
		stream = append(stream, header...)
		stream = append(stream, make([]byte, bodyLen%(320<<10))...)
		stream = append(stream, good...)
		conn, err := net.DialTimeout("tcp", server.Addr().String(), waitLimit)
		if err != nil {
			t.Fatal(err)
		}
		at := int(cut) % (len(stream) + 1)
		_, _ = conn.Write(stream[:at])
		_, _ = conn.Write(stream[at:])
		// read what comes back for a moment (answers, or the close), then hang up
		_ = conn.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		_, _ = io.Copy(io.Discard, conn)
		conn.Close()

		other := dialRaw(t, server)
		other.write(good)
		if resp := other.read(); resp.Code != SUCCESS || resp.Remark != "ok" {
			t.Fatalf("another connection's request answered %d %q", resp.Code, resp.Remark)
		}
		other.conn.Close()
		waitHeld(t, server, 0)
	})
}
