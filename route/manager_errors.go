package route

import "errors"

// Sentinel errors of the route tables; callers test them with errors.Is.
var (
	// ErrRegisterRefused is the refusal of 4.3 step 8: a broker that is not
	// yet a member of its group registered exactly one topic. The daemon
	// answers code 1 with remark "register broker failed".
	ErrRegisterRefused = errors.New("route: register broker failed")
	// ErrTopicTableRequired says a registration sent without its topic table
	// (RegisterBrokerRequest.UndecodedDataVersion) can no longer take the
	// unchanged fast path; the daemon decodes the body and registers again.
	ErrTopicTableRequired = errors.New("route: topic table required")
	// ErrWriterBusy says a RegisterBrokerRequest.NoWait registration found
	// the writer lock held and changed nothing; the daemon applies it again
	// where it may wait.
	ErrWriterBusy = errors.New("route: writer lock held")
	// ErrMissingField rejects a request whose required field is empty
	// (quirk Q4 fixed: Java would half-apply it).
	ErrMissingField = errors.New("route: missing required field")
)
