package javafixture

import "errors"

// Sentinel errors of the fixture loader, so a test can tell a missing file
// from a malformed one.
var (
	// ErrNotFound means no fixture file matches the requested prefix.
	ErrNotFound = errors.New("javafixture: no fixture file matches")
	// ErrAmbiguous means more than one fixture file matches the requested prefix.
	ErrAmbiguous = errors.New("javafixture: more than one fixture file matches")
	// ErrNoBody means the exchange carries neither bodyText nor bodyHex.
	ErrNoBody = errors.New("javafixture: no body recorded")
	// ErrNoResponse means the exchange has no response (the one-way request).
	ErrNoResponse = errors.New("javafixture: no response recorded")
	// ErrSerializeType means serializeType is neither JSON nor ROCKETMQ.
	ErrSerializeType = errors.New("javafixture: unknown serialize type")
	// ErrHeaderTooLong means a header does not fit the 24-bit length of the frame.
	ErrHeaderTooLong = errors.New("javafixture: header longer than 24 bits can say")
)
