package remoting

import "testing"

// TestNamedPoolsDoNotWaitForEachOther: with the default pool's one worker
// held and its one queue slot taken, a third registration is answered
// SYSTEM_BUSY, while a request of the "admin" pool is answered at once.
func TestNamedPoolsDoNotWaitForEachOther(t *testing.T) {
	gate, started := make(chan struct{}), make(chan struct{}, 3)
	cfg := ServerConfig{SlowWorkers: 1, SlowQueue: 1, Pools: map[string]PoolSize{"admin": {Workers: 1, Queue: 1}}}
	server := startServer(t, cfg, func(s *Server) {
		s.Handle(REGISTER_BROKER, func(_ *Conn, req *Command) *Command {
			started <- struct{}{}
			<-gate
			return NewResponse(req, SUCCESS, req.ExtFields["echo"])
		}, Slow())
		s.Handle(PUT_KV_CONFIG, echoHandler, SlowIn("admin"))
		s.Handle(DELETE_KV_CONFIG, echoHandler, SlowIn("no such pool")) // the default pool
	})
	defer func() {
		select {
		case <-gate:
		default:
			close(gate)
		}
	}()
	brokers, operator := dialRaw(t, server), dialRaw(t, server)
	brokers.send(bodyRequest(REGISTER_BROKER, 1, 10))
	<-started // the worker holds the first; the second waits in the queue
	brokers.send(bodyRequest(REGISTER_BROKER, 2, 10))
	brokers.send(bodyRequest(REGISTER_BROKER, 3, 10))
	expectAnswer(t, brokers, 3, SYSTEM_BUSY, remarkOverload)
	operator.send(bodyRequest(PUT_KV_CONFIG, 4, 10))
	expectAnswer(t, operator, 4, SUCCESS, "4")
	operator.send(bodyRequest(DELETE_KV_CONFIG, 5, 10))
	expectAnswer(t, operator, 5, SYSTEM_BUSY, remarkOverload) // an unknown pool name is the default pool, full
	close(gate)
	expectAnswer(t, brokers, 1, SUCCESS, "1")
	expectAnswer(t, brokers, 2, SUCCESS, "2")
}
