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
type Pipe struct {
	conn net.Conn
	in   []byte
	out  []byte
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
		pipes[i] = &Pipe{conn: conn, in: make([]byte, pipeReadBuffer), out: make([]byte, 0, pipeWriteBuffer)}
		return nil
	})
	if err != nil {
		ClosePipes(pipes)
		return nil, err
	}
	return pipes, nil
}

// Close closes the pipe's connection.
func (p *Pipe) Close() error { return p.conn.Close() }

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
}

// runPipe keeps inFlight requests of set in flight on p until state says
// stop, then waits for the answers still due, so the pipe can serve the
// next phase. Answers arriving while measuring are recorded in ws.
func runPipe(p *Pipe, inFlight int, set *RequestSet, rng *rand.Rand, state *atomic.Int32, ws *workerStats) {
	if p.broken != nil {
		ws.errors["connection closed"]++
		return
	}
	r := &pipeRun{p: p, set: set, rng: rng, state: state, ws: ws, slots: make([]pipeSlot, inFlight),
		unsent: make([]int, 0, inFlight), base: time.Now()}
	for i := range r.slots {
		r.slots[i].opaque = int32(i) - int32(inFlight)
		r.issue(i)
	}
	if err := r.flush(); err != nil {
		r.fail(err)
		return
	}
	filled := 0
	for r.busy > 0 {
		if err := r.refreshDeadline(); err != nil {
			r.fail(err)
			return
		}
		n, err := p.conn.Read(p.in[filled:])
		if err != nil {
			r.fail(err)
			return
		}
		filled += n
		consumed, need, err := r.answers(p.in[:filled])
		if err != nil {
			r.fail(err)
			return
		}
		filled = copy(p.in, p.in[consumed:filled])
		if need > len(p.in) {
			grown := make([]byte, need)
			copy(grown, p.in[:filled])
			p.in = grown
		}
		if err := r.flush(); err != nil {
			r.fail(err)
			return
		}
	}
}

// answers handles every complete answer frame at the start of buf and
// returns how many bytes they took and the size of the incomplete frame
// that follows, if any (the read buffer must hold it whole).
func (r *pipeRun) answers(buf []byte) (consumed, need int, err error) {
	now := time.Since(r.base).Nanoseconds()
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
		r.ws.hist.Record(time.Duration(now - slot.sent))
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
	_, err := r.p.conn.Write(r.p.out)
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

// fail breaks the pipe: the requests in flight are lost, counted as errors
// of the failure's kind.
func (r *pipeRun) fail(err error) {
	r.p.broken = err
	_ = r.p.conn.Close()
	kind := "transport"
	if errors.Is(err, os.ErrDeadlineExceeded) {
		kind = "timeout"
	} else if errors.Is(err, ErrBadAnswer) {
		kind = "bad answer frame"
	}
	r.ws.errors[kind] += uint64(max(r.busy, 1))
}
