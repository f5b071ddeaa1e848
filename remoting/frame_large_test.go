package remoting

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/panjf2000/gnet/v2"
)

// digestHandler answers with the SHA-256 of the request body, so a test can
// check a large body arrived intact without echoing megabytes. Its "crc"
// field says whether the server gave the body's CRC (BodyCRC32) and whether
// it was right.
func digestHandler(release bool) Handler {
	return func(_ *Conn, req *Command) *Command {
		sum := sha256.Sum256(req.Body)
		resp := NewResponse(req, SUCCESS, req.ExtFields["echo"])
		resp.ExtFields = map[string]string{"crc": "unknown"}
		if crc, known := req.BodyCRC32(); known {
			resp.ExtFields["crc"] = "right"
			if crc != crc32.ChecksumIEEE(req.Body) {
				resp.ExtFields["crc"] = "wrong"
			}
		}
		resp.Body = sum[:]
		if release {
			req.ReleaseBody()
		}
		return resp
	}
}

func randomBody(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed))
	body := make([]byte, n)
	for i := range body {
		body[i] = byte(rng.Uint32())
	}
	return body
}

func TestServerLargeFramesInPiecesBetweenSmallOnes(t *testing.T) {
	for _, slow := range []bool{false, true} {
		t.Run("slow="+strconv.FormatBool(slow), func(t *testing.T) {
			server := startServer(t, ServerConfig{}, func(s *Server) {
				var opts []HandleOption
				if slow {
					opts = append(opts, Slow())
				}
				s.Handle(REGISTER_BROKER, digestHandler(true), opts...)
			})
			peer := dialRaw(t, server)
			sizes := []int{largeFrameSize, 3 << 20, 10, largeFrameSize - 20, 1 << 20, 0}
			var stream []byte
			for i, size := range sizes {
				req := NewRequest(REGISTER_BROKER, map[string]string{"echo": strconv.Itoa(i)}, randomBody(uint64(i), size))
				req.Opaque = int32(i)
				stream = append(stream, mustEncode(t, req)...)
			}
			// odd-sized writes split every frame, header and length field included
			for start := 0; start < len(stream); {
				end := min(len(stream), start+7919)
				peer.write(stream[start:end])
				start = end
			}
			// slow handlers may answer in any order: match by opaque
			answers := map[int32]*Command{}
			for range sizes {
				resp := peer.read()
				answers[resp.Opaque] = resp
			}
			for i, size := range sizes {
				resp := answers[int32(i)]
				want := sha256.Sum256(randomBody(uint64(i), size))
				if resp == nil || resp.Remark != strconv.Itoa(i) || !bytes.Equal(resp.Body, want[:]) {
					t.Fatalf("answer %d (%d-byte body) missing or wrong: %+v", i, size, resp)
				}
				// frames of largeFrameSize and more are assembled, and their
				// body's CRC taken on the way; the others are left to the handler
				wantCRC := "unknown"
				if size+len(mustEncode(t, NewRequest(REGISTER_BROKER, map[string]string{"echo": strconv.Itoa(i)}, nil))) >= largeFrameSize {
					wantCRC = "right"
				}
				if got := resp.ExtFields["crc"]; got != wantCRC {
					t.Errorf("answer %d (%d-byte body): body CRC %s, want %s", i, size, got, wantCRC)
				}
			}
		})
	}
}

func TestServerLargeFrameWithBadHeaderClosesTheConnection(t *testing.T) {
	server := startServer(t, ServerConfig{}, func(s *Server) { s.Handle(REGISTER_BROKER, digestHandler(true)) })
	peer := dialRaw(t, server)
	header := []byte(`{"code":`) // undecodable: seen only once the whole frame is there
	frame := lengthPrefix(uint32(4+len(header)+largeFrameSize), uint32(len(header)))
	frame = append(append(frame, header...), make([]byte, largeFrameSize)...)
	peer.write(frame)
	peer.expectClosed()
}

func TestReleaseBodyRecyclesTheBuffer(t *testing.T) {
	pool := newFrameBufferPool()
	server := &Server{frameBuffers: pool, memory: newRequestMemory(ServerConfig{}.withDefaults())}
	conn := &Conn{}
	req := NewRequest(REGISTER_BROKER, map[string]string{}, randomBody(1, largeFrameSize))
	frame := mustEncode(t, req)
	total := len(frame)
	fake := &bufferedConn{data: frame[frameLengthSize:]}
	conn.assembly = &frameAssembly{frame: make([]byte, total-frameLengthSize), size: total - frameLengthSize}
	got, err := server.continueLargeFrame(conn, fake)
	if err != nil || got == nil || !bytes.Equal(got.Body, req.Body) {
		t.Fatalf("assembled %v, %v", got, err)
	}
	first := &got.frameBuffer[:1][0]
	got.ReleaseBody()
	got.ReleaseBody() // twice is harmless
	if got.Body != nil {
		t.Fatal("Body kept after ReleaseBody")
	}
	again := pool.reuse(total - frameLengthSize - 100)
	if again == nil || &again[:1][0] != first {
		t.Fatal("the released buffer was not reused")
	}
	pool.put(make([]byte, maxPooledFrameBuffer+1))
	if b := pool.reuse(10); b != nil {
		t.Fatal("a buffer above the pooling limit was kept")
	}
	for range maxPooledFrameBuffers + 3 {
		pool.put(make([]byte, 16))
	}
	if len(pool.free) != maxPooledFrameBuffers {
		t.Fatalf("pool holds %d buffers, bound %d", len(pool.free), maxPooledFrameBuffers)
	}
	(&Command{Body: []byte("x")}).ReleaseBody() // not pooled: nothing happens
}

// TestFrameBufferPoolIsBoundInBytes: the pool keeps as many buffers as fit
// in maxPooledFrameBytes, not more, and counts what reuse takes back out.
func TestFrameBufferPoolIsBoundInBytes(t *testing.T) {
	pool := newFrameBufferPool()
	const size = 3 << 20
	fits := maxPooledFrameBytes / size
	for range fits + 2 {
		pool.put(make([]byte, size))
	}
	if len(pool.free) != fits || pool.held.Load() != int64(fits*size) {
		t.Fatalf("pool holds %d buffers (%d bytes), want %d (%d bytes)", len(pool.free), pool.held.Load(), fits, fits*size)
	}
	if pool.reuse(size) == nil || pool.held.Load() != int64((fits-1)*size) {
		t.Fatalf("after one reuse the pool holds %d bytes, want %d", pool.held.Load(), (fits-1)*size)
	}
	pool.put(make([]byte, size))
	if len(pool.free) != fits {
		t.Fatalf("a put after a reuse kept %d buffers, want %d", len(pool.free), fits)
	}
}

// bufferedConn is a gnet.Conn whose Read serves data; the frame assembly
// uses nothing else.
type bufferedConn struct {
	gnet.Conn
	data []byte
}

func (c *bufferedConn) InboundBuffered() int { return len(c.data) }

func (c *bufferedConn) Discard(n int) (int, error) {
	n = min(n, len(c.data))
	c.data = c.data[n:]
	return n, nil
}

func (c *bufferedConn) Read(p []byte) (int, error) {
	n := copy(p, c.data)
	c.data = c.data[n:]
	return n, nil
}

func TestServerPeerClosingInsideALargeFrame(t *testing.T) {
	closed := make(chan uint64, 1)
	server := startServer(t, ServerConfig{}, func(s *Server) {
		s.Handle(REGISTER_BROKER, digestHandler(true))
		s.OnClose(func(c *Conn) { closed <- c.ID() })
	})
	peer := dialRaw(t, server)
	frame := mustEncode(t, NewRequest(REGISTER_BROKER, map[string]string{}, randomBody(7, 1<<20)))
	peer.write(frame[:len(frame)/2])
	_ = peer.conn.Close()
	select {
	case <-closed:
	case <-time.After(waitLimit):
		t.Fatal("the server kept a connection whose peer left inside a large frame")
	}
	// the server still serves others
	good := dialRaw(t, server)
	req := NewRequest(REGISTER_BROKER, map[string]string{"echo": "ok"}, randomBody(8, largeFrameSize))
	good.send(req)
	if resp := good.read(); resp.Remark != "ok" {
		t.Fatalf("answer %+v", resp)
	}
}

// TestLargeFrameMemoryFollowsWhatArrived: a peer announcing the largest frame
// and sending a few bytes must not make the server allocate the announced
// size (a flood of such connections would exhaust memory).
func TestLargeFrameMemoryFollowsWhatArrived(t *testing.T) {
	server := &Server{frameBuffers: newFrameBufferPool(), memory: newRequestMemory(ServerConfig{}.withDefaults())}
	conn := &Conn{}
	announced := DefaultMaxFrameSize - frameLengthSize
	head := binary.BigEndian.AppendUint32(nil, uint32(announced))
	fake := &bufferedConn{data: append(head, make([]byte, 100)...)}
	server.startLargeFrame(conn, fake, announced+frameLengthSize)
	a := conn.assembly
	if cap(a.frame) > initialAssemblySize {
		t.Fatalf("a frame announced at %d bytes took a %d-byte buffer before any body arrived", announced, cap(a.frame))
	}
	a.ensure(3 * initialAssemblySize)
	if got := len(a.frame); got < 3*initialAssemblySize || got > 4*initialAssemblySize {
		t.Fatalf("after 3x the first buffer arrived the buffer is %d bytes, want it doubled to cover, not the announced size", got)
	}
	a.ensure(announced + 1)
	if len(a.frame) != announced {
		t.Fatalf("grown to %d bytes, want exactly the frame size %d", len(a.frame), announced)
	}
}

// TestLargeFrameTakesItsWholeSizeOnceAnEighthArrived: growing by doubling
// copies and zeroes most of a 2 MB frame again on the event loop; once an
// eighth of it is to be held the buffer takes the whole size in one step,
// and not before.
func TestLargeFrameTakesItsWholeSizeOnceAnEighthArrived(t *testing.T) {
	size := 2 << 20
	a := &frameAssembly{frame: make([]byte, initialAssemblySize), size: size}
	a.ensure(size/wholeFrameFactor - 1)
	if len(a.frame) >= size {
		t.Fatalf("grown to the whole %d bytes with less than an eighth to hold", size)
	}
	a.ensure(size / wholeFrameFactor)
	if len(a.frame) != size {
		t.Fatalf("grown to %d bytes with an eighth to hold, want the whole frame (%d)", len(a.frame), size)
	}
}
