package remoting

import (
	"bytes"
	"strings"
	"testing"
)

// TestAnswerPastTheFrameLimitIsRefused: an answer larger than the frame
// limit used to go out as is, and the client dropped the connection on it;
// now the request is answered SYSTEM_ERROR with a remark naming the limit,
// and the connection goes on.
func TestAnswerPastTheFrameLimitIsRefused(t *testing.T) {
	const limit = 64 << 10
	server := startServer(t, ServerConfig{MaxFrameSize: limit}, func(s *Server) {
		s.Handle(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = bytes.Repeat([]byte{'t'}, limit)
			return resp
		})
		s.Handle(GET_NAMESRV_CONFIG, echoHandler)
	})
	peer := dialRaw(t, server)
	for _, serialization := range []SerializeType{JSON, ROCKETMQ} {
		peer.send(&Command{Code: GET_ALL_TOPIC_LIST_FROM_NAMESERVER, Opaque: 5, SerializeType: serialization})
		frame := peer.readFrameBytes()
		resp := mustDecodeFrame(t, frame)
		if len(frame) > limit || resp.Code != SYSTEM_ERROR || resp.Opaque != 5 || !strings.Contains(resp.Remark, "frame limit") {
			t.Fatalf("%s: got a frame of %d bytes, code %d %q", serialization, len(frame), resp.Code, resp.Remark)
		}
	}
	peer.send(&Command{Code: GET_NAMESRV_CONFIG, Opaque: 6, ExtFields: map[string]string{"echo": "on"}})
	if resp := peer.read(); resp.Remark != "on" {
		t.Fatalf("next answer %+v", resp)
	}
}
