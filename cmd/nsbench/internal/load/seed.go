package load

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// seedParallelism bounds the registrations sent at once while seeding.
const seedParallelism = 4

// requestTimeout is generous: a 10,000-topic registration on a loaded
// 2-core machine can take a while, and a timeout would be counted as an error.
const requestTimeout = 30 * time.Second

// ClientHook, when set, adjusts the configuration of every client Dial
// makes (nsbench -tls, -ak, -sk: TLS and ACL signatures).
var ClientHook func(*remoting.ClientConfig)

// Dial makes n clients of addr and opens their connections.
func Dial(ctx context.Context, addr string, n int, log *logrus.Entry) ([]Invoker, error) {
	clients := make([]Invoker, n)
	for i := range clients {
		cfg := remoting.ClientConfig{RequestTimeout: requestTimeout, Logger: log}
		if ClientHook != nil {
			ClientHook(&cfg)
		}
		clients[i] = remoting.NewClient(addr, cfg)
	}
	// A route query for a topic nobody registered opens the connection;
	// its answer (TOPIC_NOT_EXIST or a route) does not matter.
	err := forEach(n, 16, func(i int) error {
		_, err := clients[i].Invoke(ctx, RouteRequest("nsbench-connect"))
		return err
	})
	if err != nil {
		CloseAll(clients)
		return nil, fmt.Errorf("dial %d connections to %s: %w", n, addr, err)
	}
	return clients, nil
}

// CloseAll closes every client or connection.
func CloseAll(clients []Invoker) {
	for _, c := range clients {
		if c != nil {
			_ = c.Close()
		}
	}
}

// Seed registers every broker of the layout with body version v, each on
// its own client (brokerClients[i] for broker i), and fails unless all are
// accepted. The clients must stay open: closing one unregisters its broker.
func Seed(ctx context.Context, regs *Registrations, brokerClients []Invoker, v int) error {
	brokers := regs.layout.Brokers()
	return forEach(len(brokers), seedParallelism, func(i int) error {
		resp, err := brokerClients[i].Invoke(ctx, regs.Request(brokers[i], v))
		if err != nil {
			return fmt.Errorf("seed %s: %w", brokers[i].Name, err)
		}
		if kind := ExpectSuccess(resp); kind != "" {
			return fmt.Errorf("seed %s: %s %q: %w", brokers[i].Name, kind, resp.Remark, ErrSeedRefused)
		}
		return nil
	})
}

// forEach runs do(0..n-1) on at most parallel goroutines and returns the
// first error; the others still run to the end.
func forEach(n, parallel int, do func(i int) error) error {
	indexes := make(chan int)
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(parallel, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range indexes {
				if err := do(i); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		indexes <- i
	}
	close(indexes)
	wg.Wait()
	return firstErr
}
