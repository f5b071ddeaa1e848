package remoting

import "errors"

// Sentinel errors of the wire layer. Callers test them with errors.Is; every
// returned error wraps one of these with the context of the failing step.
var (
	// ErrFrameTooLarge: the length field says the frame is larger than the
	// configured maximum (Netty's too-long-frame failure).
	ErrFrameTooLarge = errors.New("remoting: frame too large")
	// ErrFrameTooShort: the length field is below 4, so not even the
	// header-length word fits.
	ErrFrameTooShort = errors.New("remoting: frame too short")
	// ErrRequestMemory: a frame whose header alone would pass the server's
	// request memory limit.
	ErrRequestMemory = errors.New("remoting: request memory limit reached")
	// ErrFrameStalled: a large frame got no byte for LargeFrameStallTimeout,
	// or fewer than LargeFrameMinRate bytes a second over such a window.
	ErrFrameStalled = errors.New("remoting: large frame stalled")
	// ErrBadHeaderLength: the header length word points beyond the frame.
	ErrBadHeaderLength = errors.New("remoting: bad header length")
	// ErrUnknownSerializeType: the serialize-type byte is neither JSON (0)
	// nor ROCKETMQ (1).
	ErrUnknownSerializeType = errors.New("remoting: unknown serialize type")
	// ErrBadHeader: the header bytes do not decode (bad JSON, the JSON
	// literal null, binary lengths beyond the header).
	ErrBadHeader = errors.New("remoting: undecodable header")
	// ErrOutOfRange: a value does not fit the binary header's field width
	// (code and version are 16-bit there).
	ErrOutOfRange = errors.New("remoting: value out of range for binary header")
	// ErrConnectionClosed: the connection broke or was closed while a call
	// was pending.
	ErrConnectionClosed = errors.New("remoting: connection closed")
	// ErrTLSRequired: a client without TLS lost its connection before any
	// answer, as a server that enforces TLS closes it (the likely cause,
	// said in the error; the server cannot say it in a frame).
	ErrTLSRequired = errors.New("turn TLS on to talk to it (broker: useTLS=true; mqadmin: -tls)")
	// ErrClientClosed: the client was closed by its owner.
	ErrClientClosed = errors.New("remoting: client closed")
	// ErrTooManyPending: the client already has its maximum of calls in flight.
	ErrTooManyPending = errors.New("remoting: too many pending requests")
	// ErrServerClosed: the server is shutting down or not started.
	ErrServerClosed = errors.New("remoting: server closed")
	// ErrUnsupportedHeaderType: a header struct field has a Go type that
	// DecodeHeader/EncodeHeader cannot map to text.
	ErrUnsupportedHeaderType = errors.New("remoting: unsupported header field type")
)
