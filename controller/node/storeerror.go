package node

import "fmt"

// StoreError is a start refused because of the store under Path (raft.db or
// a snapshot damaged, or a log that does not reach back to a good
// snapshot), not because of the configuration: embedded, the NameServer
// goes on without its controller when it gets one.
type StoreError struct {
	Path string
	Err  error
}

func (e *StoreError) Error() string { return fmt.Sprintf("controller store %s: %v", e.Path, e.Err) }

func (e *StoreError) Unwrap() error { return e.Err }
