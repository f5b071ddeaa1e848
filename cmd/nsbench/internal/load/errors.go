package load

import "errors"

// Sentinel errors of the load generator.
var (
	// ErrEmptyStream: a stream has no connection or no request in flight.
	ErrEmptyStream = errors.New("load: stream without connections or requests in flight")
	// ErrSeedRefused: the server did not accept a seeding registration.
	ErrSeedRefused = errors.New("load: seeding registration refused")
	// ErrBadAnswer: an answer could not be read.
	ErrBadAnswer = errors.New("load: unreadable answer")
	// ErrBadSpec: a flag names no known value.
	ErrBadSpec = errors.New("load: unknown value")
)
