package faults

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// ulimitPrefix starts a binary under a soft file limit of n.
func ulimitPrefix(n int) []string {
	return []string{"sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$@"`, n), "sh"}
}

// probeHTTP asks url every 100 ms until stop, counting the answers that
// were not 200 within 2 s.
func probeHTTP(url string, stop <-chan struct{}) (ok, failed int64) {
	client := &http.Client{Timeout: 2 * time.Second}
	repeat(stop, 100*time.Millisecond, func() {
		resp, err := client.Get(url)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if err != nil || resp.StatusCode != http.StatusOK {
			failed++
			return
		}
		ok++
	})
	return ok, failed
}

// TestFloodSilentDescriptors (issue 21, item 2): under `ulimit -n 256`,
// 1,000 silent connections to the remoting port and 1,000 to the HTTP side
// port at once, held; KV writes on fresh connections and /readyz go on.
func TestFloodSilentDescriptors(t *testing.T) {
	r := record(t, 74, "descriptor flood: silent connections to both ports",
		"`ulimit -n 256`; 1,000 silent connections to the remoting port and 1,000 to the HTTP side port at once, held; a PUT_KV_CONFIG on a fresh connection and a /readyz every 100 ms")
	httpPort := freePort(t)
	httpURL := "http://127.0.0.1:" + strconv.Itoa(httpPort) + "/readyz"
	var kvOK, kvFailed, probesOK, probesFailed, held atomic.Int64
	floodWith(t, r, nsOptions{prefix: ulimitPrefix(256), extra: []string{"-httpListenPort", strconv.Itoa(httpPort)}},
		func(addr string, stop <-chan struct{}) {
			var conns []net.Conn
			var mu sync.Mutex
			var wg sync.WaitGroup
			for i, target := range []string{addr, net.JoinHostPort("127.0.0.1", strconv.Itoa(httpPort))} {
				for w := range 10 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for j := range 100 {
							if c, err := localDialer(i*1000+w*100+j).Dial("tcp", target); err == nil {
								mu.Lock()
								conns = append(conns, c)
								mu.Unlock()
							}
						}
					}()
				}
			}
			wg.Wait()
			held.Store(int64(len(conns)))
			var probes sync.WaitGroup
			probes.Add(1)
			go func() {
				defer probes.Done()
				ok, failed := probeHTTP(httpURL, stop)
				probesOK.Store(ok)
				probesFailed.Store(failed)
			}()
			n := 0
			repeat(stop, 200*time.Millisecond, func() {
				n++
				resp, err := nstest.Call(addr, remoting.PUT_KV_CONFIG, map[string]string{"namespace": "FLOOD", "key": strconv.Itoa(n), "value": "v"}, nil, 2*time.Second)
				if err != nil || resp.Code != remoting.SUCCESS {
					kvFailed.Add(1)
					return
				}
				kvOK.Add(1)
			})
			probes.Wait()
			for _, c := range conns {
				c.Close()
			}
		})
	r.figure(t, "silent connections opened (both ports)", fmt.Sprint(held.Load()))
	r.figure(t, "KV writes on fresh connections ok / failed", fmt.Sprintf("%d / %d", kvOK.Load(), kvFailed.Load()))
	r.figure(t, "/readyz answered 200 / not", fmt.Sprintf("%d / %d", probesOK.Load(), probesFailed.Load()))
	r.observe(t, "KV writes and probes went on while the silent connections held every slot: newcomers closed the oldest silent ones")
	if kvOK.Load() == 0 || probesOK.Load() == 0 {
		t.Errorf("KV writes ok %d, probes ok %d during the flood; want both above 0", kvOK.Load(), probesOK.Load())
	}
}

// TestFloodSlowDebugReaders (issue 21, item 3): 64 readers of /v1/debug
// (20,000 topics, about 5 MB each) that never read past the headers, while
// /healthz and /readyz are probed every 100 ms.
func TestFloodSlowDebugReaders(t *testing.T) {
	r := record(t, 75, "heavy view flood: slow /v1/debug readers",
		"20,000 topics registered; 64 connections asking /v1/debug at once and never reading past the status line (asking again when answered 503); /healthz and /readyz every 100 ms")
	httpPort := freePort(t)
	base := "http://127.0.0.1:" + strconv.Itoa(httpPort)
	var refused, stalled, healthOK, healthFailed, readyOK, readyFailed atomic.Int64
	before, peak := floodWith(t, r, nsOptions{extra: []string{"-httpListenPort", strconv.Itoa(httpPort)}}, func(addr string, stop <-chan struct{}) {
		topics := map[string]int32{}
		for i := range 20_000 {
			topics[fmt.Sprintf("DebugFloodTopic-%05d", i)] = 8
		}
		client := remoting.NewClient(addr, remoting.ClientConfig{RequestTimeout: 10 * time.Second})
		defer client.Close()
		b := nstest.Broker{Cluster: "DebugCluster", Name: "debug-broker", Addr: "127.0.0.1:10999", Topics: topics, TimeoutMillis: 600_000}
		if resp, err := client.Invoke(context.Background(), b.RegisterRequest()); err != nil || resp.Code != remoting.SUCCESS {
			t.Errorf("register 20,000 topics: %v %v", resp, err)
			return
		}
		var wg sync.WaitGroup
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(httpPort), 2*time.Second)
					if err != nil {
						time.Sleep(100 * time.Millisecond)
						continue
					}
					_, _ = io.WriteString(c, "GET /v1/debug HTTP/1.1\r\nHost: x\r\n\r\n")
					head := make([]byte, 12)
					_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
					n, _ := io.ReadFull(c, head)
					if string(head[:n]) == "HTTP/1.1 503" {
						refused.Add(1)
						c.Close()
						time.Sleep(100 * time.Millisecond)
						continue
					}
					stalled.Add(1)
					<-stop // a slow reader: holds its answer until the end
					c.Close()
					return
				}
			}()
		}
		var probes sync.WaitGroup
		probes.Add(2)
		go func() {
			defer probes.Done()
			ok, bad := probeHTTP(base+"/healthz", stop)
			healthOK.Store(ok)
			healthFailed.Store(bad)
		}()
		go func() {
			defer probes.Done()
			ok, bad := probeHTTP(base+"/readyz", stop)
			readyOK.Store(ok)
			readyFailed.Store(bad)
		}()
		probes.Wait()
		wg.Wait()
	})
	r.figure(t, "/v1/debug answers begun (their reader then stopped reading) / answered 503 busy", fmt.Sprintf("%d / %d", stalled.Load(), refused.Load()))
	r.figure(t, "server RSS growth during the flood", fmt.Sprintf("%d MiB (bound %d MiB: two heavy views' budget and the rest)", (peak-before)>>20, heavyFloodGrowthBound>>20))
	r.figure(t, "/healthz 200 / not, /readyz 200 / not", fmt.Sprintf("%d / %d, %d / %d", healthOK.Load(), healthFailed.Load(), readyOK.Load(), readyFailed.Load()))
	r.observe(t, "at most httpHeavyViewConcurrency dumps were built at once, streamed a topic at a time; the others were answered 503 at once; the probes never waited behind them")
	if healthFailed.Load() > 0 || readyFailed.Load() > 0 || healthOK.Load() == 0 {
		t.Errorf("probes failed during the flood: healthz %d of %d, readyz %d of %d", healthFailed.Load(), healthOK.Load()+healthFailed.Load(),
			readyFailed.Load(), readyOK.Load()+readyFailed.Load())
	}
	if peak-before > heavyFloodGrowthBound {
		t.Errorf("the server grew by %d MiB during the flood, over %d MiB", (peak-before)>>20, heavyFloodGrowthBound>>20)
	}
}

// heavyFloodGrowthBound is the resident memory the slow-reader flood may
// add: the 64 MiB heavy-view budget (httpHeavyViewMemoryLimit) and as much
// again for the garbage collector's slack. Before, 64 readers of 10 MB
// dumps took the process from 106 MB to 4 GB.
const heavyFloodGrowthBound = 192 << 20
