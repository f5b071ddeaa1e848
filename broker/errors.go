package broker

import "errors"

// Sentinel errors of the broker package; callers test them with errors.Is.
var (
	// ErrBrokerConfig marks an invalid configuration value.
	ErrBrokerConfig = errors.New("broker: invalid config")
	// ErrBrokerState marks a call in the wrong lifecycle state.
	ErrBrokerState = errors.New("broker: wrong state")
)
