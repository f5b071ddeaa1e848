package faults

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// scrapeMetric sums the samples of name on the /metrics page at base whose
// label set contains labels ("" for any); -1 when the page has none.
func scrapeMetric(base, name, labels string) float64 {
	resp, err := (&http.Client{Timeout: 2 * time.Second}).Get(base + "/metrics")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	total, found := 0.0, false
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		line := lines.Text()
		series, sample, ok := strings.Cut(line, " ")
		if !ok || (series != name && !strings.HasPrefix(series, name+"{")) || !strings.Contains(series, labels) {
			continue
		}
		if v, err := strconv.ParseFloat(sample, 64); err == nil {
			total, found = total+v, true
		}
	}
	if !found {
		return -1
	}
	return total
}

// TestFloodIdleRequestMemory (issue 21, item 4): strangers holding the
// request memory with frames they never finish. 16 connections each send
// 4 MiB of a 6 MB registration and stall (reconnecting when closed), and
// 1,000 connections each hold 60,000 bytes of a small frame, against a
// requestMemoryLimit of 64 MiB, while a known broker registers 2 MB every
// 200 ms from 127.0.0.1. Before, the 16 stalled frames held the whole limit
// until the idle timeout (120 s) and every registration was answered
// SYSTEM_BUSY, and the small frames were not counted at all.
func TestFloodIdleRequestMemory(t *testing.T) {
	const limit, stall = 64 << 20, 2 * time.Second
	r := record(t, 76, "request memory flood: stalled and partial frames",
		"-requestMemoryLimit 67108864 -largeFrameStallTimeoutMillis 2000; from 127.0.0.2-201: 16 connections each sending 4 MiB of a 6 MB REGISTER_BROKER and stalling (a new one when closed), 1,000 connections each holding 60,000 bytes of a 65,000-byte frame; a known broker registering 2 MB (10,000 topics) every 200 ms from 127.0.0.1")
	httpPort := freePort(t)
	base := "http://127.0.0.1:" + strconv.Itoa(httpPort)
	var registrations registrationTally
	var stalledSent, smallHeld atomic.Int64
	var peakHeld, peakArriving atomic.Int64
	var closesStalled, closesSlow, closesMemory float64
	floodWith(t, r, nsOptions{extra: []string{"-httpListenPort", strconv.Itoa(httpPort), "-requestMemoryLimit", strconv.Itoa(limit),
		"-largeFrameStallTimeoutMillis", strconv.Itoa(int(stall / time.Millisecond))}}, func(addr string, stop <-chan struct{}) {
		known := nstest.Broker{Cluster: "FloodCluster", Name: "known-broker", Addr: "127.0.0.1:10912", Topics: map[string]int32{}, TimeoutMillis: 600_000}
		for i := range 10_000 {
			known.Topics[fmt.Sprintf("KnownBrokerTopic-%05d", i)] = 8
		}
		stranger := nstest.Broker{Cluster: "FloodCluster", Name: "stalling", Addr: "127.0.0.2:10911", Topics: map[string]int32{}}
		for i := range 30_000 {
			stranger.Topics[fmt.Sprintf("StallingBrokerTopic-%05d", i)] = 8
		}
		large, err := remoting.Encode(stranger.RegisterRequest())
		if err != nil {
			t.Error(err)
			return
		}
		small, err := remoting.Encode(remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "T"}, make([]byte, 64_900)))
		if err != nil {
			t.Error(err)
			return
		}
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Add(1)
			go func() { // stall 4 MiB into the frame; when closed, again
				defer wg.Done()
				repeat(stop, 0, func() {
					c, err := localDialer(i).Dial("tcp", addr)
					if err != nil {
						time.Sleep(100 * time.Millisecond)
						return
					}
					defer c.Close()
					if _, err := c.Write(large[:4<<20]); err != nil {
						return
					}
					stalledSent.Add(1)
					closed := make(chan struct{})
					go func() {
						defer close(closed)
						_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
						_, _ = c.Read(make([]byte, 1))
					}()
					select {
					case <-closed:
					case <-stop:
					}
				})
			}()
		}
		var smalls []net.Conn
		for i := range 1000 {
			if c, err := localDialer(16+i).Dial("tcp", addr); err == nil {
				if _, err := c.Write(small[:60_000]); err == nil {
					smallHeld.Add(1)
				}
				smalls = append(smalls, c)
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			repeat(stop, 100*time.Millisecond, func() {
				if v := int64(scrapeMetric(base, "rocketmq_namesrv_request_memory_bytes", "")); v > peakHeld.Load() {
					peakHeld.Store(v)
				}
				if v := int64(scrapeMetric(base, "rocketmq_namesrv_request_memory_arriving_bytes", "")); v > peakArriving.Load() {
					peakArriving.Store(v)
				}
			})
		}()
		client := remoting.NewClient(addr, remoting.ClientConfig{DialTimeout: 2 * time.Second, RequestTimeout: 10 * time.Second})
		defer client.Close()
		body := known.Body()
		repeat(stop, 200*time.Millisecond, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			resp, err := client.Invoke(ctx, known.RequestWith(body))
			cancel()
			registrations.count(resp, err)
		})
		closesStalled = scrapeMetric(base, "rocketmq_namesrv_frame_closes_total", `reason="stalled"`)
		closesSlow = scrapeMetric(base, "rocketmq_namesrv_frame_closes_total", `reason="slow"`)
		closesMemory = scrapeMetric(base, "rocketmq_namesrv_frame_closes_total", `reason="memory"`)
		for _, c := range smalls {
			c.Close()
		}
		wg.Wait()
	})
	r.figure(t, "known broker's 2 MB registrations answered 0 / SYSTEM_BUSY / other or error", registrations.String())
	r.figure(t, "stalled 4 MiB frames sent / connections closed as stalled, slow, for memory",
		fmt.Sprintf("%d / %.0f, %.0f, %.0f", stalledSent.Load(), closesStalled, closesSlow, closesMemory))
	r.figure(t, "partial small frames sent", fmt.Sprint(smallHeld.Load()))
	r.figure(t, "request memory peak / of it frames still arriving (limit 64 MiB, strangers stop at 48 MiB)",
		fmt.Sprintf("%d MiB / %d MiB", peakHeld.Load()>>20, peakArriving.Load()>>20))
	r.observe(t, "the strangers' frames counted from their first byte and stopped at the limit minus the broker headroom; stalled large frames closed after largeFrameStallTimeoutMillis; the known broker's registrations were taken throughout")
	if registrations.ok.Load() == 0 || registrations.busy.Load() > 0 {
		t.Errorf("the known broker's registrations answered 0 / SYSTEM_BUSY / other: %s; want all taken", registrations.String())
	}
	if closesStalled+closesSlow < 16 {
		t.Errorf("%.0f connections closed as stalled or slow, want the 16 stalled frames' at least", closesStalled+closesSlow)
	}
	if peakArriving.Load() <= 0 {
		t.Errorf("frames arriving peaked at %d bytes: the partial frames were not counted", peakArriving.Load())
	}
}
