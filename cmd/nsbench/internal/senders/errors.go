package senders

import "errors"

// Sentinel errors of the storm senders.
var (
	// ErrBadJob means the child's flags do not describe a job.
	ErrBadJob = errors.New("senders: bad job flags")
	// ErrProtocol means the child said something out of turn, or stopped
	// talking before it said what it had to.
	ErrProtocol = errors.New("senders: unexpected message from the storm senders")
	// ErrChildFailed carries the error the child reported.
	ErrChildFailed = errors.New("senders: the storm senders failed")
	// ErrNoAnswer means the child did not answer in time.
	ErrNoAnswer = errors.New("senders: no answer from the storm senders in time")
)
