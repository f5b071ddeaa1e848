package javafixture

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
)

// Serialize type codes of the frame's second word (its high byte).
const (
	serializeJSON     byte = 0
	serializeRocketMQ byte = 1
	maxHeaderLength        = 1<<24 - 1
)

// Body returns the request body: bodyHex decoded, else bodyText as UTF-8.
// It returns ErrNoBody when the request was sent without a body.
func (r Request) Body() ([]byte, error) {
	return recordedBody(r.BodyText, r.BodyHex)
}

// Frame rebuilds the request exactly as it went on the wire (fixtures
// README, "Replaying the corpus"): 4-byte big-endian length, a word with the
// serialize type in its high byte and the header length in the low 24 bits,
// the header (JSON text, or the ROCKETMQ header hex-decoded), then the body.
func (r Request) Frame() ([]byte, error) {
	var serializeType byte
	var header []byte
	switch r.SerializeType {
	case "JSON":
		serializeType, header = serializeJSON, []byte(r.Header)
	case "ROCKETMQ":
		decoded, err := hex.DecodeString(r.Header)
		if err != nil {
			return nil, fmt.Errorf("request header hex: %w", err)
		}
		serializeType, header = serializeRocketMQ, decoded
	default:
		return nil, fmt.Errorf("request serializeType %q: %w", r.SerializeType, ErrSerializeType)
	}
	if len(header) > maxHeaderLength {
		return nil, fmt.Errorf("request header of %d bytes: %w", len(header), ErrHeaderTooLong)
	}
	body, err := r.Body()
	if err != nil && !errors.Is(err, ErrNoBody) {
		return nil, err
	}
	frame := make([]byte, 8, 8+len(header)+len(body))
	binary.BigEndian.PutUint32(frame[0:], uint32(4+len(header)+len(body)))
	binary.BigEndian.PutUint32(frame[4:], uint32(serializeType)<<24|uint32(len(header)))
	frame = append(frame, header...)
	return append(frame, body...), nil
}

// Body returns the response body: bodyHex decoded, else bodyText as UTF-8.
// It returns ErrNoBody when the answer has no body and ErrNoResponse on a nil
// Response (the one-way request).
func (r *Response) Body() ([]byte, error) {
	if r == nil {
		return nil, ErrNoResponse
	}
	return recordedBody(r.BodyText, r.BodyHex)
}

// Frame returns the response frame as received, length prefix included. It
// returns ErrNoResponse on a nil Response (the one-way request).
func (r *Response) Frame() ([]byte, error) {
	if r == nil {
		return nil, ErrNoResponse
	}
	frame, err := hex.DecodeString(r.FrameHex)
	if err != nil {
		return nil, fmt.Errorf("response frameHex: %w", err)
	}
	return frame, nil
}

// recordedBody prefers the hex form, which holds any bytes, over the text
// form, which the recorder writes only for printable bodies.
func recordedBody(text, hexText *string) ([]byte, error) {
	switch {
	case hexText != nil:
		body, err := hex.DecodeString(*hexText)
		if err != nil {
			return nil, fmt.Errorf("bodyHex: %w", err)
		}
		return body, nil
	case text != nil:
		return []byte(*text), nil
	default:
		return nil, ErrNoBody
	}
}
