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
	// failed is the first entry this FSM could not decode or apply; from
	// it on nothing more is applied (the state would no longer be the
	// group's). Guarded by mu.
	failed error
	// onFailure is told of failed once (OnFailure); guarded by mu.
	onFailure func(error)
	// applyEvents applies decoded events; tests replace it to provoke an
	// apply that panics.
	applyEvents func(*controller.State, []controller.Event)
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
func New() *FSM {
	return &FSM{state: controller.NewState(), applyEvents: (*controller.State).ApplyAll}
}

// OnFailure sets fn to be told, once, of the entry this FSM could not
// decode or apply (at once if that happened already). It runs on raft's
// apply goroutine: it must not block nor call into raft and wait.
func (f *FSM) OnFailure(fn func(error)) {
	f.mu.Lock()
	f.onFailure = fn
	failed := f.failed
	f.mu.Unlock()
	if failed != nil {
		fn(failed)
	}
}

// Failed is the error that stopped this FSM, nil while it applies.
func (f *FSM) Failed() error {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.failed
}

// Read runs f with the state held for reading; f must not keep it.
func (f *FSM) Read(fn func(*controller.State)) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	fn(f.state)
}

// Apply applies one committed entry. An entry it cannot decode or apply
// (the log guard refuses undecodable ones before they are appended, so this
// is a store from elsewhere or a bug) stops the FSM for good: it returns an
// error naming the index, now and for every later entry, and tells
// OnFailure's function, and never panics. Skipping the entry instead would
// leave this node's state apart from the group's without anyone knowing.
func (f *FSM) Apply(l *raft.Log) interface{} {
	if l.Type != raft.LogCommand {
		return nil
	}
	f.mu.Lock()
	if f.failed != nil {
		err := f.failed
		f.mu.Unlock()
		return err
	}
	elections, err := f.applyLocked(l)
	if err != nil {
		f.failed = fmt.Errorf("controller state stopped at raft log index %d: %w", l.Index, err)
		err, onFailure := f.failed, f.onFailure
		f.mu.Unlock()
		if onFailure != nil {
			onFailure(err)
		}
		return err
	}
	observers := f.observers
	f.mu.Unlock()
	notify(observers, elections)
	return nil
}

// applyLocked decodes and applies one entry under mu, a panic made an error.
func (f *FSM) applyLocked(l *raft.Log) (elections []controller.Election, err error) {
	defer func() {
		if r := recover(); r != nil {
			elections, err = nil, fmt.Errorf("apply panicked: %v", r)
		}
	}()
	events, err := controller.DecodeEntry(l.Data)
	if err != nil {
		return nil, err
	}
	f.applyEvents(f.state, events)
	if len(f.observers) > 0 {
		for _, name := range controller.ElectedSets(events) {
			if e, ok := f.state.Election(name); ok {
				elections = append(elections, e)
			}
		}
	}
	return elections, nil
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
	err = restoreState(f.state, b)
	elections, observers := f.state.Elections(), f.observers
	f.mu.Unlock()
	if err != nil {
		// hashicorp/raft names the snapshot beside this error, and at
		// start tries the next older one.
		return err
	}
	notify(observers, elections)
	return nil
}

// restoreState is State.Restore with a panic made an error: hashicorp/raft
// falls back to an older snapshot on an error, never on a panic.
func restoreState(s *controller.State, b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decode controller snapshot panicked: %v", r)
		}
	}()
	return s.Restore(b)
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
