//go:build linux && !poll_opt

package remoting

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/panjf2000/gnet/v2"
	"golang.org/x/sys/unix"
)

// gnet has no way to stop reading a connection: it reads the socket
// whenever it is readable and keeps what OnTraffic leaves in the
// connection's inbound buffer, which then grows with whatever the peer
// sends (its maintainer declined such an API, panjf2000/gnet#712). A peer
// that pipelines requests and never reads its answers held up to the hard
// limit of requests per connection here. So a connection past its soft
// limit has its read interest taken out of its event loop's epoll set, as
// gnet itself does with write interest: the kernel's receive buffer then
// fills, and the peer's own send buffer after it.
//
// gnet keeps the epoll descriptor and the socket's in unexported fields
// (conn.fd, conn.loop.poller.fd); readInterest finds them once by
// reflection, for the version go.mod pins (v2.9.7, level-triggered epoll,
// the default build). gnet turns read interest back on by itself after it
// has written a connection's whole output buffer, and on a partial write;
// the server pauses such a connection again when it next looks at it
// (OnTraffic), so at most one read (ReadBufferCap) more is taken from it.
// Where the fields are not found (another gnet, another poller) reading
// cannot be paused, and the hard limit closes such peers as before; gnet's
// poll_opt build keeps a pointer in the epoll event rather than the
// descriptor, and other systems have no epoll: read_pause_other.go.

// gnetFields are the indices of the fields readInterest reads.
type gnetFields struct {
	connFd, connLoop, loopPoller, pollerFd []int
	ok                                     bool
}

var (
	gnetFieldsOnce sync.Once
	gnetLayout     gnetFields
)

// findGnetFields looks the fields up on the type of gnetConn.
func findGnetFields(gnetConn gnet.Conn) gnetFields {
	connType := reflect.TypeOf(gnetConn)
	if connType == nil || connType.Kind() != reflect.Pointer || connType.Elem().Kind() != reflect.Struct {
		return gnetFields{}
	}
	var f gnetFields
	field := func(t reflect.Type, name string, kind reflect.Kind) ([]int, reflect.Type) {
		if t.Kind() != reflect.Struct {
			return nil, nil
		}
		sf, found := t.FieldByName(name)
		if !found || sf.Type.Kind() != kind {
			return nil, nil
		}
		return sf.Index, sf.Type
	}
	var loopType, pollerType reflect.Type
	f.connFd, _ = field(connType.Elem(), "fd", reflect.Int)
	if f.connLoop, loopType = field(connType.Elem(), "loop", reflect.Pointer); loopType == nil {
		return gnetFields{}
	}
	if f.loopPoller, pollerType = field(loopType.Elem(), "poller", reflect.Pointer); pollerType == nil {
		return gnetFields{}
	}
	f.pollerFd, _ = field(pollerType.Elem(), "fd", reflect.Int)
	f.ok = f.connFd != nil && f.pollerFd != nil
	return f
}

// epollFds returns the socket and the epoll descriptor of gnetConn.
func epollFds(gnetConn gnet.Conn) (socket, epoll int, ok bool) {
	gnetFieldsOnce.Do(func() { gnetLayout = findGnetFields(gnetConn) })
	if !gnetLayout.ok {
		return 0, 0, false
	}
	conn := reflect.ValueOf(gnetConn)
	if conn.Kind() != reflect.Pointer || conn.IsNil() || conn.Type() != reflect.TypeOf(gnetConn) {
		return 0, 0, false
	}
	loop := conn.Elem().FieldByIndex(gnetLayout.connLoop)
	if loop.IsNil() {
		return 0, 0, false
	}
	poller := loop.Elem().FieldByIndex(gnetLayout.loopPoller)
	if poller.IsNil() {
		return 0, 0, false
	}
	return int(conn.Elem().FieldByIndex(gnetLayout.connFd).Int()), int(poller.Elem().FieldByIndex(gnetLayout.pollerFd).Int()), true
}

// setReading turns gnetConn's read interest on or off, keeping its write
// interest while it has output buffered. It runs on gnetConn's event loop.
func setReading(gnetConn gnet.Conn, on bool) error {
	socket, epoll, ok := epollFds(gnetConn)
	if !ok {
		return errReadPauseUnsupported
	}
	var events uint32
	if on {
		events = unix.EPOLLIN | unix.EPOLLPRI
	}
	if gnetConn.OutboundBuffered() > 0 {
		events |= unix.EPOLLOUT
	}
	if err := unix.EpollCtl(epoll, unix.EPOLL_CTL_MOD, socket, &unix.EpollEvent{Fd: int32(socket), Events: events}); err != nil {
		return fmt.Errorf("epoll_ctl mod fd %d: %w", socket, err)
	}
	return nil
}
