package remoting

import "sync"

// maxLentAnswerBuffer is the largest buffer AnswerBuffers takes back; one
// that grew beyond it (a route of hundreds of brokers) is left to the
// garbage collector rather than held for every later answer.
const maxLentAnswerBuffer = 64 << 10

// initialAnswerBuffer is the room of a new lent buffer: a route answer of
// 8 brokers is ~2 KB.
const initialAnswerBuffer = 4 << 10

// AnswerBuffers lends buffers for answer bodies that a handler builds per
// request, such as a route: the handler appends the body to a lent buffer
// and attaches it with Command.SetLentBody, and the server takes the
// buffer back once it has copied the body into the answer frame.
// Allocating, zeroing and collecting a fresh 2 KB body for every route
// query cost ~8% of the server's CPU at 50,000 queries/s. Safe for
// concurrent use; the zero value is ready.
type AnswerBuffers struct{ pool sync.Pool }

// Lend returns an empty buffer to append an answer body to.
func (a *AnswerBuffers) Lend() *[]byte {
	if buf, ok := a.pool.Get().(*[]byte); ok {
		*buf = (*buf)[:0]
		return buf
	}
	buf := make([]byte, 0, initialAnswerBuffer)
	return &buf
}

// SetLentBody makes body, built by appending to buf (lent by from), the
// command's Body. The server gives buf back to from once the answer is
// encoded; neither body nor buf may be used after the handler returns.
func (c *Command) SetLentBody(body []byte, buf *[]byte, from *AnswerBuffers) {
	c.Body, c.lentBody, c.lentFrom = body, buf, from
}

// Return takes back a lent buffer that carries no answer (the handler
// answered something else); SetLentBody is the way for one that does.
func (a *AnswerBuffers) Return(buf *[]byte) {
	if cap(*buf) <= maxLentAnswerBuffer {
		a.pool.Put(buf)
	}
}

// returnLentBody gives a lent body's buffer back, keeping what it grew to;
// it does nothing for other commands.
func (c *Command) returnLentBody() {
	if c.lentFrom == nil {
		return
	}
	*c.lentBody = c.Body[:0]
	c.lentFrom.Return(c.lentBody)
	c.Body, c.lentBody, c.lentFrom = nil, nil, nil
}
