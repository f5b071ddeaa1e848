package remoting

// CurrentVersion is the MQVersion ordinal this implementation announces
// (V5_3_3 = 479, protocol.md 1.11); peers use it to pick body formats.
const CurrentVersion = 479

// Flag bits of Command.Flag (protocol.md 1.8).
const (
	// flagResponse (RPC_TYPE) marks a response.
	flagResponse int32 = 1 << 0
	// flagOneway (RPC_ONEWAY) marks a request that must not be answered.
	flagOneway int32 = 1 << 1
)

// Command is one RocketMQ remoting message, request or response
// (Java RemotingCommand, protocol.md 1.4). Code is int32 because JSON
// requests can carry codes beyond the binary header's 16 bits.
type Command struct {
	// Code is the request code for requests, the response code for responses.
	Code int32
	// Language is the sender's language; LanguageUnknown when it sent none.
	Language LanguageCode
	// Version is the sender's MQVersion ordinal.
	Version int32
	// Opaque is the request id a response echoes.
	Opaque int32
	// Flag holds the response and one-way bits.
	Flag int32
	// Remark is human-readable text, mostly error messages; "" = absent.
	Remark string
	// ExtFields are the custom header fields. nil = omitted from the header;
	// non-nil and empty = written as {} (Java's attached but empty header).
	ExtFields map[string]string
	// Body is the opaque payload; nil or empty = no body.
	Body []byte
	// SerializeType is the header encoding used on the wire for this command.
	SerializeType SerializeType

	// frameBuffer is the pooled buffer a large request's Body lives in, and
	// frameBuffers the pool it goes back to on ReleaseBody; nil otherwise.
	frameBuffer  []byte
	frameBuffers *frameBufferPool
	// bodyCRC is the CRC-32 of Body taken as a large frame arrived, when
	// bodyCRCKnown (BodyCRC32).
	bodyCRC      uint32
	bodyCRCKnown bool
	// lentBody is the buffer Body was built in, lent by lentFrom
	// (SetLentBody); the server returns it after encoding the answer.
	lentBody *[]byte
	lentFrom *AnswerBuffers
	// heldBytes is what the request counts against the server's request
	// memory until it is answered; overMemory says it came past the limit,
	// its body dropped, to be answered SYSTEM_BUSY.
	heldBytes  int64
	heldBy     *Conn // the connection whose share heldBytes count against
	overMemory bool
	// arrivalSeq is ArrivalSeq, stamped on the event loop.
	arrivalSeq uint64
}

// NewRequest builds a request as our tools send it: language GO, version
// CurrentVersion, JSON header. ext and body are used as given (not copied).
func NewRequest(code int32, ext map[string]string, body []byte) *Command {
	return &Command{
		Code:          code,
		Language:      GO,
		Version:       CurrentVersion,
		ExtFields:     ext,
		Body:          body,
		SerializeType: JSON,
	}
}

// NewResponse builds the answer to req: response flag, req's opaque, language
// JAVA and version CurrentVersion like the Java server, and req's
// serialization (we answer in the request's encoding: quirk Q6, fixed).
func NewResponse(req *Command, code int32, remark string) *Command {
	return &Command{
		Code:          code,
		Language:      JAVA,
		Version:       CurrentVersion,
		Opaque:        req.Opaque,
		Flag:          flagResponse,
		Remark:        remark,
		SerializeType: req.SerializeType,
	}
}

// IsResponse reports whether the command is a response (flag bit 0).
func (c *Command) IsResponse() bool { return c.Flag&flagResponse != 0 }

// IsOneway reports whether the command is a one-way request (flag bit 1),
// which the receiver must never answer.
func (c *Command) IsOneway() bool { return c.Flag&flagOneway != 0 }

// MarkResponse sets the response bit.
func (c *Command) MarkResponse() { c.Flag |= flagResponse }

// MarkOneway sets the one-way bit.
func (c *Command) MarkOneway() { c.Flag |= flagOneway }

// SetExt sets one ext field, creating the map when needed.
func (c *Command) SetExt(key, value string) {
	if c.ExtFields == nil {
		c.ExtFields = make(map[string]string, 4)
	}
	c.ExtFields[key] = value
}

// Ext returns one ext field and whether it is present.
func (c *Command) Ext(key string) (string, bool) {
	value, ok := c.ExtFields[key]
	return value, ok
}
