package controller

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
)

// A log entry is one request's events, so they commit or fail together:
// per event a 2-byte big-endian type, a 4-byte big-endian length and the
// event's JSON (the layout of Java's ListEventSerializer). encoding/json
// writes struct fields in declaration order, so the bytes are deterministic.
// An empty entry holds no events (a barrier).

// maxEntryEvents bounds how many events one entry may decode to; a request
// proposes at most a handful.
const maxEntryEvents = 1024

// EncodeEntry writes events as one log entry.
func EncodeEntry(events []Event) ([]byte, error) {
	var dst []byte
	for _, ev := range events {
		body, err := json.Marshal(ev)
		if err != nil {
			return nil, fmt.Errorf("encode %T: %w", ev, err)
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(ev.Type()))
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(body)))
		dst = append(dst, body...)
	}
	return dst, nil
}

// DecodeEntry reads a log entry back into its events.
func DecodeEntry(b []byte) ([]Event, error) {
	var events []Event
	for off := 0; off < len(b); {
		if len(b)-off < 6 {
			return nil, fmt.Errorf("log entry: truncated event header at byte %d", off)
		}
		if len(events) == maxEntryEvents {
			return nil, fmt.Errorf("log entry: more than %d events", maxEntryEvents)
		}
		typ := EventType(binary.BigEndian.Uint16(b[off:]))
		n := int(binary.BigEndian.Uint32(b[off+2:]))
		off += 6
		if n > len(b)-off {
			return nil, fmt.Errorf("log entry: event type %d claims %d bytes, %d left", typ, n, len(b)-off)
		}
		ev, err := decodeEvent(typ, b[off:off+n])
		if err != nil {
			return nil, err
		}
		events = append(events, ev)
		off += n
	}
	return events, nil
}

func decodeEvent(typ EventType, body []byte) (Event, error) {
	var ev Event
	var err error
	switch typ {
	case AlterSyncStateSetEventType:
		ev, err = unmarshalEvent[AlterSyncStateSetEvent](body)
	case ApplyBrokerIDEventType:
		ev, err = unmarshalEvent[ApplyBrokerIDEvent](body)
	case ElectMasterEventType:
		ev, err = unmarshalEvent[ElectMasterEvent](body)
	case ReadEventType:
		ev, err = unmarshalEvent[ReadEvent](body)
	case CleanBrokerDataEventType:
		ev, err = unmarshalEvent[CleanBrokerDataEvent](body)
	case UpdateBrokerAddressEventType:
		ev, err = unmarshalEvent[UpdateBrokerAddressEvent](body)
	default:
		return nil, fmt.Errorf("log entry: unknown event type %d", typ)
	}
	if err != nil {
		return nil, fmt.Errorf("log entry: event type %d: %w", typ, err)
	}
	return ev, nil
}

func unmarshalEvent[E Event](body []byte) (Event, error) {
	var e E
	err := json.Unmarshal(body, &e)
	return e, err
}
