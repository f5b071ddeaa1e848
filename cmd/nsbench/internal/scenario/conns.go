package scenario

import (
	"fmt"
	"time"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/load"
)

// connsSpec is the tiny layout the idle connections' probe queries.
var connsSpec = load.LayoutSpec{Clusters: 1, BrokersPerCluster: 1, TopicsPerCluster: 2, QueueNums: 8}

// settle is how long idle connections sit before memory is read, so the
// server has finished setting them up.
const settle = time.Second

// Conns opens n idle connections to a fresh server of each target, each
// after one route query, and reports the server's memory growth per
// connection.
func Conns(e *Env, n int) (Result, error) {
	var result Result
	for _, kind := range e.Targets {
		if err := idleConns(e, kind, n, &result); err != nil {
			return result, err
		}
	}
	return result, nil
}

func idleConns(e *Env, kind string, n int, result *Result) error {
	regs := load.NewRegistrations(load.NewLayout(connsSpec))
	s, err := e.seed(kind, connsSpec, regs, 1)
	if err != nil {
		return err
	}
	defer s.close()
	topic, _ := s.layout.Topic(0)
	time.Sleep(settle)
	before := s.server.ResidentBytes()
	conns, err := load.OpenIdle(e.Ctx, s.server.Addr, n, topic)
	if err != nil {
		return fmt.Errorf("%d idle connections to %s: %w", n, kind, err)
	}
	defer load.CloseConns(conns)
	time.Sleep(settle)
	after := s.server.ResidentBytes()
	result.fact(fmt.Sprintf("%s resident memory before %d idle connections", kind, n), mib(before), "MiB")
	result.fact(fmt.Sprintf("%s resident memory with %d idle connections", kind, n), mib(after), "MiB")
	result.fact(fmt.Sprintf("%s memory growth for %d idle connections", kind, n), mib(after-before), "MiB")
	result.fact(kind+" bytes per idle connection", float64(after-before)/float64(n), "bytes")
	return nil
}
