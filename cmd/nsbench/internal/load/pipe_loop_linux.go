package load

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// rawPipes says DialPipes opens raw sockets for plain pipes (Linux).
const rawPipes = true

// Timing of a pipe loop: how long one epoll_wait may block, so that the
// loop notices a stalled pipe, and how often it looks for one.
const loopWaitMillis = 100

// Variables for the tests: how often a loop looks for stalled pipes, and
// how long a pipe may wait for an answer or a write.
var (
	loopStallChecks  = time.Second
	pipeStallTimeout = requestTimeout
)

// dialRaw connects a blocking socket to addr, then makes it non-blocking
// for a loop; the runtime's poller never sees it.
func dialRaw(_ context.Context, addr string) (int, error) {
	tcp, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return -1, fmt.Errorf("resolve: %w", err)
	}
	family := unix.AF_INET
	var sa unix.Sockaddr = &unix.SockaddrInet4{Port: tcp.Port, Addr: tcp.AddrPort().Addr().Unmap().As4()}
	if ip := tcp.AddrPort().Addr().Unmap(); ip.Is6() {
		family = unix.AF_INET6
		sa = &unix.SockaddrInet6{Port: tcp.Port, Addr: ip.As16()}
	}
	fd, err := unix.Socket(family, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, unix.IPPROTO_TCP)
	if err != nil {
		return -1, fmt.Errorf("socket: %w", err)
	}
	if err := unix.Connect(fd, sa); err != nil {
		_ = unix.Close(fd)
		return -1, fmt.Errorf("connect: %w", err)
	}
	if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1); err != nil {
		_ = unix.Close(fd)
		return -1, fmt.Errorf("TCP_NODELAY: %w", err)
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return -1, fmt.Errorf("non-blocking: %w", err)
	}
	return fd, nil
}

func closeRaw(fd int) error {
	if fd < 0 {
		return nil
	}
	return unix.Close(fd)
}

// readRaw reads what the socket holds: 0 bytes and no error when it holds
// nothing yet, io.EOF when the peer closed.
func readRaw(fd int, buf []byte) (int, error) {
	if fd < 0 {
		return 0, fmt.Errorf("pipe read: %w", net.ErrClosed)
	}
	for {
		n, err := unix.Read(fd, buf)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return 0, nil
		case err != nil:
			return 0, fmt.Errorf("pipe read: %w", err)
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// writeRaw writes buf whole. A full socket buffer (the server is not
// reading) blocks the loop until it drains or pipeStallTimeout passes: a
// generator that cannot send has nothing else worth doing.
func writeRaw(fd int, buf []byte) error {
	if fd < 0 {
		return fmt.Errorf("pipe write: %w", net.ErrClosed)
	}
	deadline := time.Now().Add(pipeStallTimeout)
	for len(buf) > 0 {
		n, err := unix.Write(fd, buf)
		if n > 0 {
			buf = buf[n:]
		}
		switch {
		case err == nil || err == unix.EINTR:
			continue
		case err != unix.EAGAIN:
			return fmt.Errorf("pipe write: %w", err)
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return fmt.Errorf("pipe write: %w", os.ErrDeadlineExceeded)
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLOUT}}
		if _, err := unix.Poll(fds, int(wait/time.Millisecond)+1); err != nil && err != unix.EINTR {
			return fmt.Errorf("pipe write wait: %w", err)
		}
	}
	return nil
}

// runLoops serves the runs of raw pipes from at most GOMAXPROCS event
// loops, each on a thread of its own, until every run is done.
func runLoops(runs []*pipeRun) {
	loops := min(runtime.GOMAXPROCS(0), len(runs))
	var wg sync.WaitGroup
	for l := range loops {
		var mine []*pipeRun
		for i := l; i < len(runs); i += loops {
			mine = append(mine, runs[i])
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runLoop(mine)
		}()
	}
	wg.Wait()
}

// runLoop is one event loop: level-triggered epoll over its pipes, one
// read per ready pipe per wait.
func runLoop(runs []*pipeRun) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		failAll(runs, fmt.Errorf("epoll: %w", err))
		return
	}
	defer unix.Close(epfd)
	open := 0
	for i, r := range runs {
		ev := unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(i)}
		if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, r.p.fd, &ev); err != nil {
			r.fail(fmt.Errorf("epoll add: %w", err))
			runs[i] = nil
			continue
		}
		open++
	}
	events := make([]unix.EpollEvent, len(runs))
	nextCheck := time.Now().Add(loopStallChecks)
	for open > 0 {
		n, err := unix.EpollWait(epfd, events, loopWaitMillis)
		if err != nil && err != unix.EINTR {
			failAll(runs, fmt.Errorf("epoll wait: %w", err))
			return
		}
		for _, ev := range events[:max(n, 0)] {
			r := runs[ev.Fd]
			if r == nil {
				continue
			}
			if err := r.readable(); err != nil {
				r.fail(err)
			}
			if r.p.broken != nil || r.done() {
				_ = unix.EpollCtl(epfd, unix.EPOLL_CTL_DEL, r.p.fd, nil)
				runs[ev.Fd] = nil
				open--
			}
		}
		if now := time.Now(); now.After(nextCheck) {
			nextCheck = now.Add(loopStallChecks)
			open -= failStalled(runs, epfd)
		}
	}
}

// failStalled fails every run whose answers have not come for
// pipeStallTimeout and returns how many it failed.
func failStalled(runs []*pipeRun, epfd int) int {
	failed := 0
	for i, r := range runs {
		if r == nil || time.Duration(time.Since(r.base).Nanoseconds()-r.lastRead) < pipeStallTimeout {
			continue
		}
		_ = unix.EpollCtl(epfd, unix.EPOLL_CTL_DEL, r.p.fd, nil)
		r.fail(fmt.Errorf("no answer in %s: %w", pipeStallTimeout, os.ErrDeadlineExceeded))
		runs[i] = nil
		failed++
	}
	return failed
}
