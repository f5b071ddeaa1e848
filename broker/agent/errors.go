package agent

import "errors"

// Sentinel errors of the registration agent; callers test them with errors.Is.
var (
	// ErrAgentRefused marks a NameServer answer with a non-success code.
	ErrAgentRefused = errors.New("agent: name server refused the request")
	// ErrAgentNoNameServer marks a round with no NameServer configured.
	ErrAgentNoNameServer = errors.New("agent: no name server configured")
	// ErrAgentStopped marks a call made after Stop.
	ErrAgentStopped = errors.New("agent: stopped")
)
