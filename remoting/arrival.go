package remoting

// ArrivalSeq is the request's place among the requests its connection sent
// that were dispatched to a handler: 1 for the first, counting on the event
// loop as frames are decoded, so a handler on the pool can tell which of two
// requests of one connection came first. 0 for a command that did not
// arrive on a server connection. (Answers of the route fast path are not
// counted: they change nothing.)
func (c *Command) ArrivalSeq() uint64 { return c.arrivalSeq }

// stampArrival numbers request on its connection; event loop only.
func (c *Conn) stampArrival(request *Command) {
	c.arrivals++
	request.arrivalSeq = c.arrivals
}
