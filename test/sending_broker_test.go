package test

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// The send request codes of Java's RequestCode: SEND_MESSAGE, its V2 (short
// header names) and SEND_BATCH_MESSAGE. Our remoting package names only the
// NameServer's codes.
const (
	codeSendMessage      = 10
	codeSendMessageV2    = 310
	codeSendBatchMessage = 320
)

// sendingBroker is a broker as far as a producer needs one, since cmd/broker
// is route-only: it registers its topics with every NameServer, as a Java
// broker does, at start and every period after, and it accepts every send on
// its own loopback listener, counting what it received. Any other request (a
// client's heartbeat) is answered SUCCESS.
type sendingBroker struct {
	nstest.Broker
	received atomic.Int64
	ln       net.Listener
	done     chan struct{}
	wg       sync.WaitGroup
}

// startSendingBroker listens, registers b (its Addr set to the listener's)
// with every NameServer, which must accept it, and re-registers every period
// until the test ends.
func startSendingBroker(t *testing.T, b nstest.Broker, nameServers []string, period time.Duration) *sendingBroker {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.Addr = ln.Addr().String()
	sb := &sendingBroker{Broker: b, ln: ln, done: make(chan struct{})}
	sb.wg.Add(1)
	go sb.accept()
	clients := make([]*remoting.Client, len(nameServers))
	for i, addr := range nameServers {
		clients[i] = nstest.NewClient(t, addr) // kept open: a closed connection unregisters the broker
		nstest.Register(t, clients[i], b)
	}
	sb.wg.Add(1)
	go sb.registerEvery(period, clients)
	t.Cleanup(sb.stop)
	return sb
}

// registerEvery registers again with each NameServer every period; one that
// is down misses that registration, as with a Java broker.
func (sb *sendingBroker) registerEvery(period time.Duration, clients []*remoting.Client) {
	defer sb.wg.Done()
	ticker := time.NewTicker(period)
	defer ticker.Stop()
	for {
		select {
		case <-sb.done:
			return
		case <-ticker.C:
		}
		for _, c := range clients {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, _ = c.Invoke(ctx, sb.RegisterRequest())
			cancel()
		}
	}
}

func (sb *sendingBroker) stop() {
	close(sb.done)
	_ = sb.ln.Close()
	sb.wg.Wait()
}

func (sb *sendingBroker) accept() {
	defer sb.wg.Done()
	var conns sync.WaitGroup
	defer conns.Wait()
	for {
		conn, err := sb.ln.Accept()
		if err != nil {
			return
		}
		conns.Add(1)
		go func() {
			defer conns.Done()
			sb.serve(conn)
		}()
	}
}

// serve answers one client connection's requests in order until it closes
// or the broker stops.
func (sb *sendingBroker) serve(conn net.Conn) {
	defer conn.Close()
	go func() {
		<-sb.done
		_ = conn.Close()
	}()
	reader := bufio.NewReader(conn)
	for {
		req, err := readCommand(reader)
		if err != nil {
			return
		}
		resp := sb.answer(req)
		if req.IsOneway() {
			continue
		}
		frame, err := remoting.Encode(resp)
		if err != nil {
			return
		}
		if _, err := conn.Write(frame); err != nil {
			return
		}
	}
}

// answer accepts a send with the fields a client's send result reads:
// msgId, queueId (the one asked for) and queueOffset.
func (sb *sendingBroker) answer(req *remoting.Command) *remoting.Command {
	resp := remoting.NewResponse(req, remoting.SUCCESS, "")
	switch req.Code {
	case codeSendMessage, codeSendMessageV2, codeSendBatchMessage:
		offset := sb.received.Add(1) - 1
		queueID, ok := req.Ext("queueId")
		if !ok {
			queueID, _ = req.Ext("e") // V2's short name
		}
		resp.SetExt("msgId", fmt.Sprintf("7F00000100002A9F%016X", offset))
		resp.SetExt("queueId", queueID)
		resp.SetExt("queueOffset", strconv.FormatInt(offset, 10))
	}
	return resp
}

// readCommand reads one frame (length field first) and decodes it.
func readCommand(reader *bufio.Reader) (*remoting.Command, error) {
	var lengthField [4]byte
	if _, err := io.ReadFull(reader, lengthField[:]); err != nil {
		return nil, err
	}
	length := binary.BigEndian.Uint32(lengthField[:])
	if length < 4 || length > remoting.DefaultMaxFrameSize {
		return nil, fmt.Errorf("frame length %d", length)
	}
	frame := make([]byte, length)
	if _, err := io.ReadFull(reader, frame); err != nil {
		return nil, err
	}
	return remoting.DecodeFrame(frame)
}
