package route

import "fmt"

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

func findWrapperDataVersion(r *jsonReader) (DataVersion, error) {
	if err := r.enterObject(); err != nil {
		return DataVersion{}, err
	}
	for first := true; ; first = false {
		key, more, err := r.nextMember(first)
		if err != nil || !more {
			return DataVersion{}, err
		}
		if string(key) != "topicConfigSerializeWrapper" {
			if err := r.skipValue(); err != nil {
				return DataVersion{}, err
			}
			continue
		}
		if r.consumeNull() {
			return DataVersion{}, nil
		}
		if err := r.enterObject(); err != nil {
			return DataVersion{}, err
		}
		for innerFirst := true; ; innerFirst = false {
			key, more, err := r.nextMember(innerFirst)
			if err != nil || !more {
				return DataVersion{}, err
			}
			if string(key) == "dataVersion" {
				return readDataVersion(r)
			}
			if err := r.skipValue(); err != nil {
				return DataVersion{}, err
			}
		}
	}
}
