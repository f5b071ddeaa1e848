package remoting

// HoldRequestMemory counts n more bytes against the server's request memory
// limit, for memory a handler needs beyond its request frame (a compressed
// registration body inflating to many times its size). It answers false,
// counting nothing, when that would pass the limit; the handler then
// answers BusyResponse. Every true answer is matched by one
// ReleaseRequestMemory of the same n.
func (s *Server) HoldRequestMemory(n int64) bool { return s.memory.reserve(n) }

// ReleaseRequestMemory gives back bytes counted by HoldRequestMemory.
func (s *Server) ReleaseRequestMemory(n int64) { s.memory.release(n) }

// BusyResponse is the SYSTEM_BUSY answer the server gives past its limits,
// for a handler that finds it cannot hold what a request needs.
func BusyResponse(request *Command) *Command {
	return NewResponse(request, SYSTEM_BUSY, remarkOverload)
}
