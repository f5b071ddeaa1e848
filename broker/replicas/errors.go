package replicas

import "errors"

var (
	// ErrConfig wraps a controller-mode setting the broker cannot run with.
	ErrConfig = errors.New("broker controller-mode config")
	// ErrMetadata wraps a brokerIdentity file that does not fit the broker.
	ErrMetadata = errors.New("broker identity metadata")
	// ErrController wraps a controller answer other than success.
	ErrController = errors.New("controller refused")
)
