package load

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/latency"
	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// OpenFrom opens n plain TCP connections to addr, spread round-robin over
// the local source addresses sources (each has its own ~28,000 ephemeral
// ports on Linux, so 50,000 connections need two or more), nil or empty
// meaning the kernel's choice. The caller closes them with CloseConns.
func OpenFrom(ctx context.Context, addr string, n int, sources []string) ([]net.Conn, error) {
	conns := make([]net.Conn, n)
	err := forEach(n, idleDialParallelism, func(i int) error {
		dialer := net.Dialer{}
		if len(sources) > 0 {
			dialer.LocalAddr = &net.TCPAddr{IP: net.ParseIP(sources[i%len(sources)])}
		}
		conn, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			return fmt.Errorf("connection %d: %w", i, err)
		}
		conns[i] = conn
		return nil
	})
	if err != nil {
		CloseConns(conns)
		return nil, err
	}
	return conns, nil
}

// QueryEach sends req once on every connection, the sends spread evenly
// over period (connection i at i*period/len(conns)) by workers goroutines,
// and reports the round trips as one phase: the shape of many clients each
// asking for a route every period. Every answer must be SUCCESS.
func QueryEach(ctx context.Context, conns []net.Conn, req *remoting.Command, period time.Duration, workers int) (report.Phase, error) {
	tmpl, err := NewTemplate(req)
	if err != nil {
		return report.Phase{}, err
	}
	hists := make([]latency.Histogram, workers)
	errs := make([]map[string]uint64, workers)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		errs[w] = map[string]uint64{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var frame []byte
			for i := w; i < len(conns); i += workers {
				at := start.Add(time.Duration(int64(period) * int64(i) / int64(len(conns))))
				if err := sleepCtx(ctx, time.Until(at)); err != nil {
					return
				}
				frame = tmpl.Append(frame[:0], int32(i))
				sent := time.Now()
				kind := queryOnce(conns[i], frame)
				hists[w].Record(time.Since(sent))
				if kind != "" {
					errs[w][kind]++
				}
			}
		}()
	}
	wg.Wait()
	seconds := time.Since(start).Seconds()
	var hist latency.Histogram
	total := map[string]uint64{}
	for w := range workers {
		hist.Merge(&hists[w])
		for k, n := range errs[w] {
			total[k] += n
		}
	}
	phase := report.Phase{Op: remoting.RequestCodeName(req.Code), Conns: len(conns), InFlight: 1, Seconds: seconds,
		Requests: hist.Count(), PerSecond: float64(hist.Count()) / seconds, Latency: report.PercentilesOf(&hist)}
	if len(total) > 0 {
		phase.Errors = total
	}
	return phase, ctx.Err()
}

// queryOnce writes frame and reads one answer, "" when it is SUCCESS.
func queryOnce(conn net.Conn, frame []byte) string {
	_ = conn.SetDeadline(time.Now().Add(requestTimeout))
	if _, err := conn.Write(frame); err != nil {
		return "transport"
	}
	resp, err := readAnswer(bufio.NewReaderSize(conn, 4096))
	if err != nil {
		return "transport"
	}
	return ExpectSuccess(resp)
}
