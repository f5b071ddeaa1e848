package test

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/nstest"
	"github.com/gonamesrv/gonamesrv/internal/testcerts"
	"github.com/gonamesrv/gonamesrv/remoting"
)

// startLimitedNamesrv starts cmd/namesrv under `ulimit -n nofile` with
// args and waits until it listens on addr; it returns its log's path.
func startLimitedNamesrv(t *testing.T, nofile int, addr string, args ...string) string {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "namesrv.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logFile.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", fmt.Sprintf(`ulimit -n %d && exec "$@"`, nofile), "sh",
		filepath.Join(binDir, "namesrv")}, args...)...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cancel()
		<-exited
		if t.Failed() {
			out, _ := os.ReadFile(logPath)
			t.Logf("namesrv log:\n%s", out)
		}
	})
	waitListening(t, &process{t: t, name: "namesrv", Addr: addr, logPath: logPath, cmd: cmd, exited: exited})
	return logPath
}

// floodSilently opens n connections to addr that never send a byte, all at
// once, and keeps them open until the test ends; it returns how many the
// kernel let the test open.
func floodSilently(t *testing.T, addr string, n int) int {
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n / 50 {
				c, err := net.DialTimeout("tcp", addr, 2*time.Second)
				if err != nil {
					continue
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	return len(conns)
}

// TestDescriptorsHoldUnderSilentFloods: under `ulimit -n 256`, 1,000 silent
// connections to the remoting port and 1,000 to the HTTP side port at
// once, in plain and in TLS mode, leave a KV write, a new route client, a
// probe and (TLS) a certificate reload working, and nothing in the log says
// "too many open files". Before, TLS connections in their handshake were
// not counted by maxConnections and the side port had no cap: both took
// the descriptors the KV file and the certificates need, and the silent
// connections kept new clients out for a whole idle timeout.
func TestDescriptorsHoldUnderSilentFloods(t *testing.T) {
	for _, mode := range []string{"disabled", "enforcing"} {
		t.Run(mode, func(t *testing.T) {
			port, httpPort := freePort(t), freePort(t)
			addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
			dir := t.TempDir()
			args := []string{"-bindAddress", "127.0.0.1", "-listenPort", strconv.Itoa(port), "-httpListenPort", strconv.Itoa(httpPort),
				"-data", dir, "-readinessWarmUpMillis", "0"}
			var certs *testcerts.Set
			var clientTLS func() *tls.Config
			scheme := "http"
			if mode == "enforcing" {
				var err error
				if certs, err = testcerts.Write(dir); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-tls.server.mode", "enforcing", "-tls.server.certPath", certs.ServerCert, "-tls.server.keyPath", certs.ServerKey)
				clientTLS = func() *tls.Config { return certs.ClientTLS(false) }
				scheme = "https"
			}
			logPath := startLimitedNamesrv(t, 256, addr, args...)
			httpAddr := net.JoinHostPort("127.0.0.1", strconv.Itoa(httpPort))

			var wg sync.WaitGroup
			opened := make([]int, 2)
			for i, target := range []string{addr, httpAddr} {
				wg.Add(1)
				go func() { defer wg.Done(); opened[i] = floodSilently(t, target, 1000) }()
			}
			wg.Wait()
			t.Logf("silent connections opened: remoting %d, http %d", opened[0], opened[1])

			clientConfig := func() remoting.ClientConfig {
				cfg := remoting.ClientConfig{RequestTimeout: 3 * time.Second}
				if clientTLS != nil {
					cfg.TLS = clientTLS()
				}
				return cfg
			}
			invoke := func(req *remoting.Command) (*remoting.Command, error) {
				c := remoting.NewClient(addr, clientConfig())
				defer c.Close()
				return c.Invoke(context.Background(), req)
			}
			eventually(t, 30*time.Second, "a KV write during the flood", func() error {
				resp, err := invoke(remoting.NewRequest(remoting.PUT_KV_CONFIG, map[string]string{"namespace": "flood", "key": "k", "value": "v"}, nil))
				if err == nil && resp.Code != remoting.SUCCESS {
					err = fmt.Errorf("code %d %s", resp.Code, resp.Remark)
				}
				return err
			})
			eventually(t, 30*time.Second, "a new route client during the flood", func() error {
				resp, err := invoke(remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "FloodTopic"}, nil))
				if err == nil && resp.Code != remoting.TOPIC_NOT_EXIST {
					err = fmt.Errorf("code %d %s", resp.Code, resp.Remark)
				}
				return err
			})
			httpClient := &http.Client{Timeout: 3 * time.Second}
			if clientTLS != nil {
				httpClient.Transport = &http.Transport{TLSClientConfig: clientTLS()}
			}
			eventually(t, 30*time.Second, "a probe of the side port during the flood", func() error {
				a, err := nstest.TryHTTP(nstest.HTTPRequest{URL: scheme + "://" + httpAddr + "/readyz", Client: httpClient})
				if err == nil && a.Status != http.StatusOK {
					err = fmt.Errorf("status %d %s", a.Status, a.Body)
				}
				return err
			})
			if certs != nil {
				fresh, err := testcerts.Write(dir) // a new CA and server pair over the same files
				if err != nil {
					t.Fatal(err)
				}
				clientTLS = func() *tls.Config { return fresh.ClientTLS(false) }
				eventually(t, 30*time.Second, "the reloaded certificate during the flood", func() error {
					_, err := invoke(remoting.NewRequest(remoting.GET_ROUTEINFO_BY_TOPIC, map[string]string{"topic": "FloodTopic"}, nil))
					return err
				})
			}
			if out, _ := os.ReadFile(logPath); strings.Contains(string(out), "too many open files") {
				t.Fatalf("the server ran out of descriptors:\n%s", out)
			}
		})
	}
}
