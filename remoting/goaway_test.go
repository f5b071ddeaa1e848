package remoting

import "testing"

// TestGoAwayTurnsAwayOnlyClientsThatKnowIt: after GoAway, a request of a
// client later than 5.3.1 (version 476 and up) gets GO_AWAY with Java's
// remark and its opaque, unknown codes included; an older client is still
// served; a one-way request gets nothing.
func TestGoAwayTurnsAwayOnlyClientsThatKnowIt(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(GET_ROUTEINFO_BY_TOPIC, echoHandler) })
	peer := dialRaw(t, server)
	request := func(code int32, opaque, version int32) *Command {
		req := NewRequest(code, map[string]string{"echo": "served"}, nil)
		req.Opaque, req.Version = opaque, version
		return req
	}
	peer.send(request(GET_ROUTEINFO_BY_TOPIC, 1, 479))
	expectAnswer(t, peer, 1, SUCCESS, "served")

	server.GoAway()
	peer.send(request(GET_ROUTEINFO_BY_TOPIC, 2, 476))
	expectAnswer(t, peer, 2, GO_AWAY, "please go away")
	peer.send(request(99999, 3, 479))
	expectAnswer(t, peer, 3, GO_AWAY, "please go away")
	oneway := request(GET_ROUTEINFO_BY_TOPIC, 4, 479)
	oneway.MarkOneway()
	peer.send(oneway)
	peer.send(request(GET_ROUTEINFO_BY_TOPIC, 5, 475))
	expectAnswer(t, peer, 5, SUCCESS, "served") // the one-way request got nothing: this is the next answer
}
