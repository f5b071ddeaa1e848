// Package controller is the replicated state of a RocketMQ 5 controller
// (docs/controller.md §2) with nothing else in it: no I/O, no goroutines, no
// clock. Per broker set it holds the replica info (controller ids, addresses,
// register check codes, the next id) and the sync state info (master, epochs,
// in-sync set). A request is validated against the state and the liveness the
// caller passes in, in Java's order, and gives either a response code with
// Java's remark or the events to propose and the answer to send once they
// commit; State.Apply of committed events is the only way the state changes,
// so every Raft node that applies the same log holds the same state.
package controller
