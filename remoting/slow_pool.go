package remoting

import (
	"context"
	"fmt"
	"sync"
)

// slowJob is one request waiting for a slow worker.
type slowJob struct {
	conn    *Conn
	request *Command
	handler Handler
	pool    *slowPool // the pool that accepted it, to tell when it is done
}

// slowPool runs Slow() handlers off the event loop on a fixed number of
// goroutines fed by a bounded queue. It owns its workers: stop ends them.
type slowPool struct {
	jobs chan slowJob
	run  func(slowJob)

	// intakeMu orders submit against closeIntake, so no job is sent on a
	// closed channel and no job slips in after shutdown began.
	intakeMu     sync.RWMutex
	intakeClosed bool

	// pending counts jobs accepted and not yet finished (answer written).
	pending sync.WaitGroup
	workers sync.WaitGroup
}

func newSlowPool(workers, queue int, run func(slowJob)) *slowPool {
	pool := &slowPool{jobs: make(chan slowJob, queue), run: run}
	pool.workers.Add(workers)
	for range workers {
		go pool.work()
	}
	return pool
}

func (p *slowPool) work() {
	defer p.workers.Done()
	for job := range p.jobs {
		p.run(job)
	}
}

// submit queues job without blocking; false means the queue is full or the
// pool is shutting down. The runner must call finish once per accepted job.
func (p *slowPool) submit(job slowJob) bool {
	p.intakeMu.RLock()
	defer p.intakeMu.RUnlock()
	if p.intakeClosed {
		return false
	}
	p.pending.Add(1)
	select {
	case p.jobs <- job:
		return true
	default:
		p.pending.Done()
		return false
	}
}

// finish marks one accepted job as fully answered.
func (p *slowPool) finish() { p.pending.Done() }

// closeIntake makes later submits fail; queued jobs still run.
func (p *slowPool) closeIntake() {
	p.intakeMu.Lock()
	defer p.intakeMu.Unlock()
	if !p.intakeClosed {
		p.intakeClosed = true
		close(p.jobs)
	}
}

// waitPending waits until every accepted job finished, or ctx ends.
func (p *slowPool) waitPending(ctx context.Context) error {
	return waitGroupContext(ctx, &p.pending, "slow handlers")
}

// stop closes the intake and waits for the workers to exit, or ctx ends
// (a handler that never returns keeps its worker; nothing can end it).
func (p *slowPool) stop(ctx context.Context) error {
	p.closeIntake()
	return waitGroupContext(ctx, &p.workers, "slow workers")
}

// waitGroupContext waits for group with a deadline. The helper goroutine
// ends when the group does, even if the caller gave up earlier.
func waitGroupContext(ctx context.Context, group *sync.WaitGroup, what string) error {
	done := make(chan struct{})
	go func() {
		group.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for %s: %w", what, ctx.Err())
	}
}
