package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gonamesrv/gonamesrv/remoting"
)

// Invoker is the part of a remoting client the agent uses; tests may supply
// their own.
type Invoker interface {
	Invoke(ctx context.Context, req *remoting.Command) (*remoting.Command, error)
	InvokeOneway(ctx context.Context, req *remoting.Command) error
	Close() error
}

// Dialer opens a client to one NameServer address.
type Dialer func(addr string) (Invoker, error)

// pool keeps one persistent client per NameServer, as a Java broker keeps one
// channel per NameServer: the NameServer ties a broker to the connection it
// last registered on. A client that fails is dropped and redialled on the next
// request, which is how the agent catches up with a restarted NameServer.
type pool struct {
	dial Dialer

	mu      sync.Mutex
	addrs   []string           // configured NameServers, in configuration order
	clients map[string]Invoker // open clients by address
	closed  bool
}

func newPool(dial Dialer, addrs []string) *pool {
	return &pool{dial: dial, addrs: slices.Clone(addrs), clients: make(map[string]Invoker)}
}

// list returns the configured addresses.
func (p *pool) list() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.addrs)
}

// set replaces the configured addresses and closes clients of removed ones.
func (p *pool) set(addrs []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.addrs = slices.Clone(addrs)
	for addr, client := range p.clients {
		if !slices.Contains(addrs, addr) {
			client.Close()
			delete(p.clients, addr)
		}
	}
}

func (p *pool) client(addr string) (Invoker, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, ErrAgentStopped
	}
	if c, ok := p.clients[addr]; ok {
		return c, nil
	}
	c, err := p.dial(addr)
	if err != nil {
		return nil, fmt.Errorf("connect to name server %s: %w", addr, err)
	}
	p.clients[addr] = c
	return c, nil
}

// drop closes the client of addr if it is still c, so the next call redials.
func (p *pool) drop(addr string, c Invoker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.clients[addr] == c {
		c.Close()
		delete(p.clients, addr)
	}
}

// invoke sends a request and waits for its answer. Any transport failure drops
// the client; an answer with a non-success code is returned as is.
func (p *pool) invoke(ctx context.Context, addr string, req *remoting.Command) (*remoting.Command, error) {
	c, err := p.client(addr)
	if err != nil {
		return nil, err
	}
	resp, err := c.Invoke(ctx, req)
	if err != nil {
		p.drop(addr, c)
		return nil, fmt.Errorf("%s to name server %s: %w", remoting.RequestCodeName(req.Code), addr, err)
	}
	return resp, nil
}

// oneway sends a request that gets no answer.
func (p *pool) oneway(ctx context.Context, addr string, req *remoting.Command) error {
	c, err := p.client(addr)
	if err != nil {
		return err
	}
	if err := c.InvokeOneway(ctx, req); err != nil {
		p.drop(addr, c)
		return fmt.Errorf("%s to name server %s: %w", remoting.RequestCodeName(req.Code), addr, err)
	}
	return nil
}

// close closes every client; later calls fail with ErrAgentStopped.
func (p *pool) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	var errs []error
	for addr, c := range p.clients {
		if err := c.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close client of %s: %w", addr, err))
		}
		delete(p.clients, addr)
	}
	return errors.Join(errs...)
}
