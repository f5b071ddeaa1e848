// Package raftfsm runs the controller's pure state (package controller) as a
// hashicorp/raft finite state machine: a committed log entry is one
// request's encoded events, applied on every node; a snapshot is the state's
// versioned JSON, so a restart restores it instead of replaying the log.
package raftfsm

import (
	"fmt"
	"io"
	"sync"

	"github.com/hashicorp/raft"

	"github.com/gonamesrv/gonamesrv/controller"
)

// FSM is the state behind a mutex: raft applies from its own goroutine while
// handlers read.
type FSM struct {
	mu    sync.RWMutex
	state *controller.State
	// observers receive elections (Observe); guarded by mu.
	observers []Observer
}

// Observer receives a set's election when this node applies it, and every
// set's last election when it starts observing or restores a snapshot. It
// runs on raft's apply goroutine, after the state's lock is released: it
// must not block (queue the work) and must tolerate repeats and old
// elections (compare MasterEpoch).
type Observer func(controller.Election)

// Observe adds fn and gives it every set's last election at once, so an
// observer added after the log was replayed misses nothing.
func (f *FSM) Observe(fn Observer) {
	f.mu.Lock()
	f.observers = append(f.observers, fn)
	current := f.state.Elections()
	f.mu.Unlock()
	for _, e := range current {
		fn(e)
	}
}

// notify gives elections to every observer; the caller holds no lock.
func notify(observers []Observer, elections []controller.Election) {
	for _, e := range elections {
		for _, fn := range observers {
			fn(e)
		}
	}
}

// New returns an FSM over an empty state.
func New() *FSM { return &FSM{state: controller.NewState()} }

// Read runs f with the state held for reading; f must not keep it.
func (f *FSM) Read(fn func(*controller.State)) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	fn(f.state)
}

// Apply applies one committed entry. A command entry that does not decode
// changes nothing and returns the error as the apply future's response (every
// node decodes the same bytes, so they all skip it alike).
func (f *FSM) Apply(l *raft.Log) interface{} {
	if l.Type != raft.LogCommand {
		return nil
	}
	events, err := controller.DecodeEntry(l.Data)
	if err != nil {
		return fmt.Errorf("raft log index %d: %w", l.Index, err)
	}
	f.mu.Lock()
	f.state.ApplyAll(events)
	var elections []controller.Election
	if len(f.observers) > 0 {
		for _, name := range controller.ElectedSets(events) {
			if e, ok := f.state.Election(name); ok {
				elections = append(elections, e)
			}
		}
	}
	observers := f.observers
	f.mu.Unlock()
	notify(observers, elections)
	return nil
}

// Snapshot encodes the state now; Persist writes those bytes later.
func (f *FSM) Snapshot() (raft.FSMSnapshot, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	b, err := f.state.Snapshot()
	if err != nil {
		return nil, err
	}
	return snapshot(b), nil
}

// Restore replaces the state with a snapshot's.
func (f *FSM) Restore(rc io.ReadCloser) error {
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return fmt.Errorf("read controller snapshot: %w", err)
	}
	f.mu.Lock()
	err = f.state.Restore(b)
	elections, observers := f.state.Elections(), f.observers
	f.mu.Unlock()
	if err != nil {
		return err
	}
	notify(observers, elections)
	return nil
}

type snapshot []byte

func (s snapshot) Persist(sink raft.SnapshotSink) error {
	if _, err := sink.Write(s); err != nil {
		sink.Cancel()
		return fmt.Errorf("write controller snapshot: %w", err)
	}
	return sink.Close()
}

func (snapshot) Release() {}
