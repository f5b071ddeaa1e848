package load

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"sync/atomic"
	"time"
)

// Sizes of a pipe's buffers: a read takes every answer the kernel holds up
// to pipeReadBuffer at once; a larger answer grows the buffer to its size.
const (
	pipeReadBuffer  = 256 << 10
	pipeWriteBuffer = 16 << 10
)

// pipeDeadlineRefresh is how often a pipe moves its read deadline
// (requestTimeout ahead): setting it on every read would cost a timer
// update per system call.
const pipeDeadlineRefresh = time.Second

// maxPipeOpaque keeps a pipe's opaques positive: they wrap below it.
const maxPipeOpaque = 1 << 30

// Pipe is a plain TCP connection driven by one goroutine with many requests
// in flight: requests are built from templates straight into one write
// buffer and sent with one system call per batch, every answer the kernel
// holds is taken with one read, and answers are matched by their opaque's
// digits without decoding their headers. This is what lets the load
// generator, which shares the cores with the server, ask faster than a
// zero-work server answers (one goroutine and one Invoke per request in
// flight, as the remoting client does, cost it more than the server).
//
// On Linux a plain pipe is a raw non-blocking socket served by one of a
// few event loops (pipe_loop_linux.go), the way the server serves its
// connections: one epoll_wait hands a loop every pipe with answers, and no
// read finds nothing. A TLS pipe, or any pipe elsewhere, is a net.Conn
// driven by a goroutine of its own.
type Pipe struct {
	// conn is the connection of a goroutine-driven pipe; nil for a raw one.
	conn net.Conn
	// fd is the socket of a raw pipe; -1 for a net.Conn.
	fd  int
	in  []byte
	out []byte
	// broken is the failure that left the stream in an unknown state; the
	// pipe is not used again.
	broken error
}

// PipeTLS, when set, makes every pipe a TLS connection (nsbench -tls).
var PipeTLS *tls.Config

// DialPipes opens n pipes to addr.
func DialPipes(ctx context.Context, addr string, n int) ([]*Pipe, error) {
	pipes := make([]*Pipe, n)
	err := forEach(n, 16, func(i int) error {
		if PipeTLS == nil && rawPipes {
			fd, err := dialRaw(ctx, addr)
			if err != nil {
				return fmt.Errorf("pipe %d to %s: %w", i, addr, err)
			}
			pipes[i] = &Pipe{fd: fd, in: make([]byte, pipeReadBuffer), out: make([]byte, 0, pipeWriteBuffer)}
			return nil
		}
		var dialer net.Dialer
		conn, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			return fmt.Errorf("pipe %d to %s: %w", i, addr, err)
		}
		if PipeTLS != nil {
			secure := tls.Client(conn, PipeTLS)
			if err := secure.HandshakeContext(ctx); err != nil {
				_ = conn.Close()
				return fmt.Errorf("pipe %d to %s: TLS handshake: %w", i, addr, err)
			}
			conn = secure
		}
		pipes[i] = &Pipe{conn: conn, fd: -1, in: make([]byte, pipeReadBuffer), out: make([]byte, 0, pipeWriteBuffer)}
		return nil
	})
	if err != nil {
		ClosePipes(pipes)
		return nil, err
	}
	return pipes, nil
}

// Close closes the pipe's connection.
func (p *Pipe) Close() error {
	if p.conn != nil {
		return p.conn.Close()
	}
	fd := p.fd
	p.fd = -1 // the number may be reused at once
	return closeRaw(fd)
}

// read takes what the kernel holds, up to len(buf): for a raw pipe 0 bytes
// when it holds nothing yet.
func (p *Pipe) read(buf []byte) (int, error) {
	if p.conn != nil {
		return p.conn.Read(buf)
	}
	return readRaw(p.fd, buf)
}

// write sends buf whole.
func (p *Pipe) write(buf []byte) error {
	if p.conn != nil {
		_, err := p.conn.Write(buf)
		return err
	}
	return writeRaw(p.fd, buf)
}

// ClosePipes closes every pipe.
func ClosePipes(pipes []*Pipe) {
	for _, p := range pipes {
		if p != nil {
			_ = p.Close()
		}
	}
}

// RequestSet is what a pipelined stream sends: a template picked at random
// for each request, and the check of its answer.
type RequestSet struct {
	Templates []Template
	// Checks[i] checks the answers to Templates[i]; templates whose answers
	// look alike share one.
	Checks []*AnswerCheck
}

// pipeSlot is one request in flight on a pipe.
type pipeSlot struct {
	opaque int32
	// request is the index of its template.
	request int
	// sent is when its batch was written, in nanoseconds since the pipe's
	// run began.
	sent int64
	busy bool
}

// pipeRun is one run of a pipe: its slots and where the answers go.
type pipeRun struct {
	p        *Pipe
	set      *RequestSet
	rng      *rand.Rand
	state    *atomic.Int32
	ws       *workerStats
	slots    []pipeSlot
	unsent   []int
	busy     int
	base     time.Time
	deadline time.Time
	// opaqueAt is where the last answer's opaque digits started.
	opaqueAt int
	// filled is how much of p.in holds bytes not yet consumed.
	filled int
	// lastRead is when bytes last came, in nanoseconds since base (a raw
	// pipe's loop fails a pipe that waits longer than requestTimeout).
	lastRead int64
}

// newPipeRun sets a run of p up and sends its first inFlight requests;
// nil when p is broken or the first write fails (counted in ws).
func newPipeRun(p *Pipe, inFlight int, set *RequestSet, rng *rand.Rand, state *atomic.Int32, ws *workerStats) *pipeRun {
	if p.broken != nil {
		ws.errors["connection closed"]++
		ws.pipeFailed()
		return nil
	}
	r := &pipeRun{p: p, set: set, rng: rng, state: state, ws: ws, slots: make([]pipeSlot, inFlight),
		unsent: make([]int, 0, inFlight), base: time.Now()}
	for i := range r.slots {
		r.slots[i].opaque = int32(i) - int32(inFlight)
		r.issue(i)
	}
	if err := r.flush(); err != nil {
		r.fail(err)
		return nil
	}
	return r
}

// done says the run has stopped and every answer due has come.
func (r *pipeRun) done() bool { return r.busy == 0 }

// runPipe keeps inFlight requests of set in flight on p from the calling
// goroutine until state says stop, then waits for the answers still due,
// so the pipe can serve the next phase. Answers arriving while measuring
// are recorded in ws.
func runPipe(p *Pipe, inFlight int, set *RequestSet, rng *rand.Rand, state *atomic.Int32, ws *workerStats) {
	r := newPipeRun(p, inFlight, set, rng, state, ws)
	if r == nil {
		return
	}
	for !r.done() {
		if err := r.refreshDeadline(); err != nil {
			r.fail(err)
			return
		}
		if err := r.readable(); err != nil {
			r.fail(err)
			return
		}
	}
}

// readable reads what the kernel holds, handles every whole answer in it
// and sends the batch of requests that replace them.
func (r *pipeRun) readable() error {
	p := r.p
	n, err := p.read(p.in[r.filled:])
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	r.filled += n
	consumed, need, err := r.answers(p.in[:r.filled])
	if err != nil {
		return err
	}
	r.filled = copy(p.in, p.in[consumed:r.filled])
	if need > len(p.in) {
		grown := make([]byte, need)
		copy(grown, p.in[:r.filled])
		p.in = grown
	}
	return r.flush()
}

// answers handles every complete answer frame at the start of buf and
// returns how many bytes they took and the size of the incomplete frame
// that follows, if any (the read buffer must hold it whole).
func (r *pipeRun) answers(buf []byte) (consumed, need int, err error) {
	now := time.Since(r.base).Nanoseconds()
	r.lastRead = now
	measuring := r.state.Load() == stateMeasuring
	stopping := r.state.Load() == stateStopped
	at := 0
	for len(buf)-at >= 4 {
		total := 4 + int(binary.BigEndian.Uint32(buf[at:]))
		if total > maxAnswerFrame {
			return at, 0, fmt.Errorf("answer of %d bytes: %w", total, ErrBadAnswer)
		}
		if len(buf)-at < total {
			return at, total, nil
		}
		r.answer(buf[at:at+total], now, measuring, stopping)
		at += total
	}
	return at, 0, nil
}

// answer matches one answer frame to its slot, records and checks it, and
// puts the slot's next request in the write buffer unless stopping.
func (r *pipeRun) answer(frame []byte, now int64, measuring, stopping bool) {
	start, end, opaque, ok := answerOpaque(frame, r.opaqueAt)
	r.opaqueAt = start
	if !ok {
		r.recordError(measuring, "unreadable opaque")
		return
	}
	if opaque < 0 {
		r.recordError(measuring, "unexpected opaque")
		return
	}
	i := int(opaque) % len(r.slots)
	if !r.slots[i].busy || r.slots[i].opaque != opaque {
		r.recordError(measuring, "unexpected opaque")
		return
	}
	slot := &r.slots[i]
	slot.busy = false
	r.busy--
	if measuring {
		r.ws.record(time.Duration(now - slot.sent))
		if kind := r.set.Checks[slot.request].Verify(frame, start, end); kind != "" {
			r.ws.errors[kind]++
		}
	}
	if !stopping {
		r.issue(i)
	}
}

func (r *pipeRun) recordError(measuring bool, kind string) {
	if measuring {
		r.ws.errors[kind]++
	}
}

// issue appends slot i's next request to the write buffer.
func (r *pipeRun) issue(i int) {
	slot := &r.slots[i]
	slot.opaque += int32(len(r.slots))
	if slot.opaque >= maxPipeOpaque {
		slot.opaque = int32(i)
	}
	slot.request = r.rng.IntN(len(r.set.Templates))
	slot.busy = true
	r.busy++
	r.p.out = r.set.Templates[slot.request].Append(r.p.out, slot.opaque)
	r.unsent = append(r.unsent, i)
}

// flush writes the batch of new requests with one system call and stamps
// their send time.
func (r *pipeRun) flush() error {
	if len(r.p.out) == 0 {
		return nil
	}
	sent := time.Since(r.base).Nanoseconds()
	for _, i := range r.unsent {
		r.slots[i].sent = sent
	}
	r.unsent = r.unsent[:0]
	err := r.p.write(r.p.out)
	r.p.out = r.p.out[:0]
	if err != nil {
		return fmt.Errorf("pipe write: %w", err)
	}
	return nil
}

func (r *pipeRun) refreshDeadline() error {
	now := time.Now()
	if now.Before(r.deadline) {
		return nil
	}
	r.deadline = now.Add(pipeDeadlineRefresh)
	if err := r.p.conn.SetReadDeadline(now.Add(requestTimeout)); err != nil {
		return fmt.Errorf("pipe deadline: %w", err)
	}
	return nil
}

// failAll fails every run left in runs.
func failAll(runs []*pipeRun, err error) {
	for _, r := range runs {
		if r != nil {
			r.fail(err)
		}
	}
}

// fail breaks the pipe: the requests in flight are lost, counted as errors
// of the failure's kind.
func (r *pipeRun) fail(err error) {
	r.p.broken = err
	_ = r.p.Close()
	kind := "transport"
	if errors.Is(err, os.ErrDeadlineExceeded) {
		kind = "timeout"
	} else if errors.Is(err, ErrBadAnswer) {
		kind = "bad answer frame"
	}
	r.ws.errors[kind] += uint64(max(r.busy, 1))
	r.ws.pipeFailed()
}
