package remoting

import (
	"context"
	"strings"
	"testing"
)

// TestAnswerLargerThanTheFrameLimitFails: an answer the peer could not
// read (a 251 MB topic list that every client refuses) is replaced by code 1
// with a remark saying why, in JSON and binary headers alike, and the
// connection goes on serving.
func TestAnswerLargerThanTheFrameLimitFails(t *testing.T) {
	const limit = 64 << 10
	server := startServer(t, ServerConfig{MaxFrameSize: limit}, func(s *Server) {
		s.Handle(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, func(_ *Conn, req *Command) *Command {
			resp := NewResponse(req, SUCCESS, "")
			resp.Body = make([]byte, limit) // with its header, past the limit
			return resp
		})
		s.Handle(GET_BROKER_CLUSTER_INFO, func(_ *Conn, req *Command) *Command { return NewResponse(req, SUCCESS, "") })
	})
	client := NewClient(server.Addr().String(), ClientConfig{})
	defer client.Close()
	for _, serialize := range []SerializeType{JSON, ROCKETMQ} {
		req := NewRequest(GET_ALL_TOPIC_LIST_FROM_NAMESERVER, nil, nil)
		req.SerializeType = serialize
		resp, err := client.Invoke(context.Background(), req)
		if err != nil {
			t.Fatalf("%v: %v", serialize, err)
		}
		if resp.Code != SYSTEM_ERROR || !strings.Contains(resp.Remark, "exceeds the frame limit of 65536 bytes") || len(resp.Body) != 0 {
			t.Fatalf("%v: code %d remark %q body %d bytes", serialize, resp.Code, resp.Remark, len(resp.Body))
		}
		ok, err := client.Invoke(context.Background(), NewRequest(GET_BROKER_CLUSTER_INFO, nil, nil))
		if err != nil || ok.Code != SUCCESS {
			t.Fatalf("the connection stopped serving: %v %v", ok, err)
		}
	}
}
