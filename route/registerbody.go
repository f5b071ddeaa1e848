package route

import (
	"fmt"
	"hash/crc32"
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

// castagnoli is the CRC-32C table; the CPU computes CRC-32C in hardware on
// amd64 and arm64, the fastest checksum the standard library has.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// RegisterBrokerTableFingerprint returns, for a JSON REGISTER_BROKER body,
// topicConfigSerializeWrapper.dataVersion and a fingerprint of every other
// byte of the body: the CRC-32C of the bytes before the version continued
// over the bytes after it, with their count in the upper half. Two bodies
// that differ only in their DataVersion (a broker re-registering after a
// config change, with the same topics) have the same fingerprint; it is
// never 0. A body without the version has no fingerprint (0).
func RegisterBrokerTableFingerprint(b []byte) (DataVersion, uint64, error) {
	r := jsonReader{data: b}
	v, start, end, err := findWrapperDataVersionSpan(&r)
	if err != nil {
		return DataVersion{}, 0, fmt.Errorf("register broker table fingerprint: %w", err)
	}
	if end == 0 {
		return v, 0, nil
	}
	crc := crc32.Update(crc32.Checksum(b[:start], castagnoli), castagnoli, b[end:])
	return v, uint64(len(b)-(end-start))<<32 | uint64(crc), nil
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
