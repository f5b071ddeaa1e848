package route

import (
	"fmt"

	"github.com/gonamesrv/gonamesrv/internal/crcfast"
	"github.com/gonamesrv/gonamesrv/internal/crcjoin"
)

// EncodeRegisterBrokerBody appends the JSON REGISTER_BROKER body a 5.x broker
// sends (protocol.md 3.7): filterServerList, then the wrapper with
// dataVersion, mappingDataVersion, topicConfigTable, an empty
// topicQueueMappingDetailMap (the NameServer never reads the details, so this
// package does not carry them) and topicQueueMappingInfoMap ({} when nil).
// mappingDataVersion is the broker's mapping-table version, which the
// NameServer ignores.
func EncodeRegisterBrokerBody(dst []byte, body *RegisterBrokerBody, mappingDataVersion DataVersion) []byte {
	w := &body.TopicConfigSerializeWrapper
	dst = appendStringArray(appendField(append(dst, '{'), "filterServerList", true), body.FilterServerList, false)
	dst = appendField(dst, "topicConfigSerializeWrapper", false)
	dst = EncodeDataVersion(appendField(append(dst, '{'), "dataVersion", true), w.DataVersion)
	dst = EncodeDataVersion(appendField(dst, "mappingDataVersion", false), mappingDataVersion)
	dst = appendTopicConfigTable(appendField(dst, "topicConfigTable", false), w.TopicConfigTable)
	dst = append(appendField(dst, "topicQueueMappingDetailMap", false), '{', '}')
	dst = appendMappingTable(appendField(dst, "topicQueueMappingInfoMap", false), w.TopicQueueMappingInfoMap, false)
	return append(dst, '}', '}')
}

// DecodeRegisterBrokerBody reads a JSON REGISTER_BROKER body (request version
// >= VersionV3_0_11). A missing wrapper reads as an empty one (zero version,
// empty table); TopicConfigTable is never nil.
func DecodeRegisterBrokerBody(b []byte) (*RegisterBrokerBody, error) {
	body := &RegisterBrokerBody{}
	body.TopicConfigSerializeWrapper.TopicConfigTable = map[string]TopicConfig{}
	err := decodeJSONBody(b, "register broker body", func(r *jsonReader) error {
		return r.readObject(func(key []byte) (err error) {
			switch string(key) {
			case "filterServerList":
				body.FilterServerList, err = r.readStringArray()
			case "topicConfigSerializeWrapper":
				err = readTopicConfigWrapper(r, &body.TopicConfigSerializeWrapper)
			default:
				err = r.skipValue()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return body, nil
}

// DecodeRegisterBrokerDataVersion returns topicConfigSerializeWrapper.dataVersion
// of a JSON REGISTER_BROKER body without decoding the topic table, so an
// unchanged re-registration can be recognised cheaply. Everything else is
// skipped without allocating (still checked for well-formedness up to the
// version; the rest is not looked at). A body without the version gives the
// zero version, like DecodeRegisterBrokerBody.
func DecodeRegisterBrokerDataVersion(b []byte) (DataVersion, error) {
	r := jsonReader{data: b}
	v, err := findWrapperDataVersion(&r)
	if err != nil {
		return DataVersion{}, fmt.Errorf("decode register broker data version: %w", err)
	}
	return v, nil
}

// RegisterBrokerTableFingerprint returns, for a JSON REGISTER_BROKER body,
// topicConfigSerializeWrapper.dataVersion and a fingerprint of every other
// byte of the body: the CRC-32 (IEEE) of the bytes before the version
// continued over the bytes after it, with their count in the upper half.
// Two bodies that differ only in their DataVersion (a broker re-registering
// after a config change, with the same topics) have the same fingerprint;
// it is never 0. A body without the version has no fingerprint (0).
// SumRegisterBrokerBody gives the same fingerprint along with the body's CRC.
func RegisterBrokerTableFingerprint(b []byte) (DataVersion, uint64, error) {
	sums, err := SumRegisterBrokerBody(b)
	return sums.DataVersion, sums.TableFingerprint, err
}

// RegisterBrokerBodySums is what a registration needs of a JSON
// REGISTER_BROKER body before deciding whether to decode it.
type RegisterBrokerBodySums struct {
	// CRC is the CRC-32 (IEEE) of the whole body, which the bodyCrc32
	// request field checks (masked to 31 bits); always set.
	CRC uint32
	// DataVersion is topicConfigSerializeWrapper.dataVersion (zero when
	// the body has none), and TableFingerprint the fingerprint of
	// RegisterBrokerTableFingerprint (0 when the body has no version).
	DataVersion      DataVersion
	TableFingerprint uint64
}

// SumRegisterBrokerBody reads the DataVersion of a JSON REGISTER_BROKER body
// and computes its CRC and its table fingerprint in one pass over the bytes
// (SumRegisterBrokerBodyWithCRC of its CRC). On an error (the JSON up to the
// version is malformed) the CRC is still that of the whole body, and the
// rest is zero.
func SumRegisterBrokerBody(b []byte) (RegisterBrokerBodySums, error) {
	return SumRegisterBrokerBodyWithCRC(b, crcfast.Checksum(b))
}

// SumRegisterBrokerBodyWithCRC is SumRegisterBrokerBody for a body whose
// CRC-32 (IEEE) is known (the server takes it while a large frame arrives):
// it reads the bytes up to the end of the DataVersion only, and derives the
// CRC of the bytes after it from the whole (internal/crcjoin).
func SumRegisterBrokerBodyWithCRC(b []byte, crc uint32) (RegisterBrokerBodySums, error) {
	return SumRegisterBrokerBodyWithin(b, crc, len(b))
}

// SumRegisterBrokerBodyWithin is SumRegisterBrokerBodyWithCRC reading at
// most the first within bytes: it fails, as for a malformed body, when the
// DataVersion does not end there, so a caller that must not scan a large
// topic table (an event loop) never does. Brokers write the version first
// (fastjson orders "dataVersion" before "topicConfigTable").
func SumRegisterBrokerBodyWithin(b []byte, crc uint32, within int) (RegisterBrokerBodySums, error) {
	sums := RegisterBrokerBodySums{CRC: crc}
	r := jsonReader{data: b[:min(len(b), max(within, 0))]}
	v, start, end, err := findWrapperDataVersionSpan(&r)
	if err != nil {
		return sums, fmt.Errorf("register broker table fingerprint: %w", err)
	}
	sums.DataVersion = v
	if end == 0 {
		return sums, nil
	}
	before := crcfast.Checksum(b[:start])
	after := crcjoin.IEEESuffix(crc, crcfast.Update(before, b[start:end]), len(b)-end)
	sums.TableFingerprint = uint64(len(b)-(end-start))<<32 | uint64(crcjoin.IEEE(before, after, len(b)-end))
	return sums, nil
}

func findWrapperDataVersion(r *jsonReader) (DataVersion, error) {
	v, _, _, err := findWrapperDataVersionSpan(r)
	return v, err
}

// findWrapperDataVersionSpan reads topicConfigSerializeWrapper.dataVersion
// and returns where its value starts and ends in r.data (0, 0 without one).
func findWrapperDataVersionSpan(r *jsonReader) (v DataVersion, start, end int, err error) {
	if err := r.enterObject(); err != nil {
		return DataVersion{}, 0, 0, err
	}
	for first := true; ; first = false {
		key, more, err := r.nextMember(first)
		if err != nil || !more {
			return DataVersion{}, 0, 0, err
		}
		if string(key) != "topicConfigSerializeWrapper" {
			if err := r.skipValue(); err != nil {
				return DataVersion{}, 0, 0, err
			}
			continue
		}
		if r.consumeNull() {
			return DataVersion{}, 0, 0, nil
		}
		if err := r.enterObject(); err != nil {
			return DataVersion{}, 0, 0, err
		}
		for innerFirst := true; ; innerFirst = false {
			key, more, err := r.nextMember(innerFirst)
			if err != nil || !more {
				return DataVersion{}, 0, 0, err
			}
			if string(key) == "dataVersion" {
				start = r.pos
				v, err = readDataVersion(r)
				return v, start, r.pos, err
			}
			if err := r.skipValue(); err != nil {
				return DataVersion{}, 0, 0, err
			}
		}
	}
}
