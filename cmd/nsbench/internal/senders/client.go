package senders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/gonamesrv/gonamesrv/cmd/nsbench/internal/report"
)

// readyTimeout bounds the child's start: encoding the bodies (2 MB each)
// and dialing a connection per broker, niced, on a busy machine.
const readyTimeout = time.Minute

// resultGrace is how long after the parent's own window the child's result
// may take: its window started a moment later and its last registrations
// must come back.
const resultGrace = 30 * time.Second

// stopTimeout bounds the child's exit once told to stop, before it is killed.
const stopTimeout = 15 * time.Second

// messageBacklog bounds the child's messages waiting to be read; the
// protocol has at most two.
const messageBacklog = 4

// Client is the parent's side of one run of the storm senders: Begin when
// the parent's own measured run begins, Result when it is over, then Close
// once the parent has its brokers back on its own connections.
type Client struct {
	job      Job
	commands io.WriteCloser
	// messages are the child's lines, closed when its stdout ends.
	messages <-chan message
	// nice is the niceness the child reported.
	nice int
	// kill stops the child at once; wait returns when it has ended.
	kill func()
	wait func() error
}

// newClient reads the child's replies on a goroutine that ends with them
// (when the child exits) and waits for the child to say it is ready.
func newClient(job Job, commands io.WriteCloser, replies io.Reader, kill func(), wait func() error) (*Client, error) {
	messages := make(chan message, messageBacklog)
	go func() {
		defer close(messages)
		decoder := json.NewDecoder(replies)
		for {
			var m message
			if err := decoder.Decode(&m); err != nil {
				return
			}
			messages <- m
		}
	}()
	c := &Client{job: job, commands: commands, messages: messages, kill: kill, wait: wait}
	m, err := c.next(readyTimeout)
	if err == nil && !m.Ready {
		err = fmt.Errorf("first message %+v: %w", m, ErrProtocol)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("storm senders for %s: %w", job.Addr, err), c.Close())
	}
	c.nice = m.Nice
	return c, nil
}

// next waits up to timeout for the child's next message.
func (c *Client) next(timeout time.Duration) (message, error) {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case m, open := <-c.messages:
		switch {
		case !open:
			return message{}, fmt.Errorf("the child ended without a word: %w", ErrProtocol)
		case m.Error != "":
			return message{}, fmt.Errorf("%w: %s", ErrChildFailed, m.Error)
		}
		return m, nil
	case <-timer.C:
		return message{}, fmt.Errorf("after %v: %w", timeout, ErrNoAnswer)
	}
}

// Nice is the CPU niceness the senders run at, as the child reported it.
func (c *Client) Nice() int { return c.nice }

// Begin tells the child to start its warm-up and measured window; call it
// right before the parent's own run of the same window.
func (c *Client) Begin() error {
	if _, err := io.WriteString(c.commands, startCommand+"\n"); err != nil {
		return fmt.Errorf("start the storm senders: %w", err)
	}
	return nil
}

// Result waits for the phase the child measured: every registration
// answered inside its window, with its latency percentiles and errors.
func (c *Client) Result() (report.Phase, error) {
	m, err := c.next(c.job.Window.Warmup + c.job.Window.Measure + resultGrace)
	if err == nil && m.Phase == nil {
		err = fmt.Errorf("message %+v instead of the result: %w", m, ErrProtocol)
	}
	if err != nil {
		return report.Phase{}, fmt.Errorf("storm senders result: %w", err)
	}
	return *m.Phase, nil
}

// Close tells the child to close its connections and exit (closing its
// stdin), kills it if it has not ended after stopTimeout, and waits for it.
func (c *Client) Close() error {
	_ = c.commands.Close()
	timer := time.NewTimer(stopTimeout)
	defer timer.Stop()
	for open := true; open; {
		select {
		case _, open = <-c.messages:
		case <-timer.C:
			c.kill()
		}
	}
	if err := c.wait(); err != nil {
		return fmt.Errorf("storm senders exit: %w", err)
	}
	return nil
}

// Local runs Serve on a goroutine of this process over in-memory pipes:
// the method before the child process existed (the senders compete with the
// route clients inside one process), kept to compare the two, and what the
// tests use.
func Local(ctx context.Context, job Job, log *logrus.Entry) (*Client, error) {
	ctx, cancel := context.WithCancel(ctx)
	commandsR, commandsW := io.Pipe()
	repliesR, repliesW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Serve(ctx, job, commandsR, repliesW, log)
		_ = repliesW.Close()
		done <- err
	}()
	wait := func() error {
		err := <-done
		cancel()
		if errors.Is(err, context.Canceled) {
			return nil
		}
		return err
	}
	return newClient(job, commandsW, repliesR, cancel, wait)
}
