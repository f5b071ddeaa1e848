package remoting

import (
	"context"
	"errors"
	"testing"
)

func TestSlowPoolBoundAndDrain(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 4)
	var pool *slowPool
	ran := make(chan int32, 4)
	pool = newSlowPool(1, 1, func(job slowJob) {
		started <- struct{}{}
		<-release
		ran <- job.request.Opaque
		pool.finish()
	})
	if !pool.submit(slowJob{request: &Command{Opaque: 1}}) {
		t.Fatal("first job refused")
	}
	<-started
	if !pool.submit(slowJob{request: &Command{Opaque: 2}}) {
		t.Fatal("queued job refused")
	}
	if pool.submit(slowJob{request: &Command{Opaque: 3}}) {
		t.Fatal("job beyond the queue bound accepted")
	}
	pool.closeIntake()
	if pool.submit(slowJob{request: &Command{Opaque: 4}}) {
		t.Fatal("job accepted after closeIntake")
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := pool.waitPending(cancelled); !errors.Is(err, context.Canceled) {
		t.Fatalf("waitPending with work left = %v", err)
	}
	close(release)
	if err := pool.waitPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := pool.stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if first, second := <-ran, <-ran; first != 1 || second != 2 {
		t.Fatalf("ran %d then %d", first, second)
	}
}
