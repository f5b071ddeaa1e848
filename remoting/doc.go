// Package remoting is the wire of the NameServer: the RocketMQ remoting
// Command, its frame and header codecs (JSON and ROCKETMQ binary), the
// request and response codes with their Java names, a gnet server and a
// pipelining client. It knows nothing of routes, brokers or topics.
//
// # Frame format (protocol.md 1.2)
//
//	offset 0  uint32 length         bytes after this field = 4 + headerLength + bodyLength
//	offset 4  uint32 word           high byte: serialize type (0 JSON, 1 ROCKETMQ); low 24 bits: headerLength
//	offset 8  header                fastjson-compatible JSON text, or the binary layout of 1.6
//	then      body                  opaque bytes; length 0 = no body
//
// All integers are big-endian. A JSON header is written exactly as the Java
// server writes it (keys code, extFields, flag, language, opaque, remark,
// serializeTypeCurrentRPC, version; nulls omitted; extFields keys sorted).
// The server answers in the serialization of the request (quirk Q6, fixed).
//
// # Limits
//
//   - Max frame: 16 MiB (16777216) including the length field, as Java's
//     frameMaxLength; the largest accepted length field is 16777212.
//   - Idle timeout: 120 s without a read or a write closes a connection
//     (scanned every min(max(timeout/4, 10 ms), 1 s)).
//   - Slow handlers: 16 workers and a queue of 10000 requests; a full queue
//     answers SYSTEM_BUSY "[OVERLOAD]system busy, start flow control for a while".
//   - Client: 3 s dial timeout, 5 s per call when the context has no
//     deadline, at most 10000 calls in flight per client.
//   - Connections: MaxConnections (50000, lowered to the file limit less
//     a named headroom and ReservedDescriptors); past it a new connection
//     closes the oldest one silent for 1 s since it connected, or is closed
//     at once. TLS connections count from their accept; at most
//     TLSOptions.MaxHandshakes (256) handshakes run at once, each within
//     HandshakeTimeout (10 s). A failed accept (EMFILE) is retried after
//     5 ms, doubling up to 1 s; the listener stays open.
//   - Output per connection: past OutboundSoftLimit (4 MiB) of answers
//     waiting its requests are left unread; past OutboundHardLimit (32 MiB)
//     of answers and unread requests it is closed.
//   - Header ext fields: MaxExtFields (1024), MaxExtKeyLength (1 KiB),
//     MaxExtValueLength (8 MiB).
//   - Answers: never past the max frame; a larger one becomes SYSTEM_ERROR.
//
// # Bad input
//
// A length over the maximum or below 4, a header length beyond the frame,
// an unknown serialize type, an undecodable header (bad JSON, the JSON
// literal null, binary lengths beyond the header, ext fields past their
// bounds) close that connection without a reply and log a warning with the
// peer address, at most one a second (the next one counts those held back);
// a peer that closes in the middle of a frame is only a debug line. It is refused as
// soon as the bytes show it; answers to good frames before it in the same
// read are still written. Other connections are not affected. A request
// code without a handler is answered REQUEST_CODE_NOT_SUPPORTED with remark
// " request type <code> not supported"; a panicking handler is answered
// SYSTEM_ERROR; a one-way request is never answered.
package remoting
