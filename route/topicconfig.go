package route

import "fmt"

// EncodeTopicConfig appends one TopicConfig (protocol.md 3.7) in fastjson
// field order. Nil Attributes are written as {} (what a Java broker holds);
// an empty TopicFilterType as SINGLE_TAG (the Java default); an empty
// TopicName (Java null) is omitted.
func EncodeTopicConfig(dst []byte, tc *TopicConfig) []byte {
	dst = appendStringMap(appendField(append(dst, '{'), "attributes", true), tc.Attributes, false)
	dst = appendBool(appendField(dst, "order", false), tc.Order)
	dst = appendInt(appendField(dst, "perm", false), tc.Perm)
	dst = appendInt(appendField(dst, "readQueueNums", false), tc.ReadQueueNums)
	dst = appendJSONString(appendField(dst, "topicFilterType", false), topicFilterTypeOrDefault(tc.TopicFilterType), false)
	if tc.TopicName != "" {
		dst = appendJSONString(appendField(dst, "topicName", false), tc.TopicName, false)
	}
	dst = appendInt(appendField(dst, "topicSysFlag", false), tc.TopicSysFlag)
	dst = appendInt(appendField(dst, "writeQueueNums", false), tc.WriteQueueNums)
	return append(dst, '}')
}

func topicFilterTypeOrDefault(filterType string) string {
	if filterType == "" {
		return TopicFilterSingleTag
	}
	return filterType
}

// NewTopicConfig returns a TopicConfig with the Java defaults (perm 6, 16/16
// queues, SINGLE_TAG), the values a decoded field takes when it is missing.
func NewTopicConfig(topicName string) TopicConfig {
	return TopicConfig{
		TopicName:       topicName,
		ReadQueueNums:   DefaultQueueNums,
		WriteQueueNums:  DefaultQueueNums,
		Perm:            DefaultPerm,
		TopicFilterType: TopicFilterSingleTag,
	}
}

// appendTopicConfigTable writes topic -> TopicConfig sorted by topic.
func appendTopicConfigTable(dst []byte, table map[string]TopicConfig) []byte {
	dst = append(dst, '{')
	for i, name := range sortedKeys(table) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendJSONString(dst, name, false), ':')
		tc := table[name]
		dst = EncodeTopicConfig(dst, &tc)
	}
	return append(dst, '}')
}

// EncodeTopicConfigSerializeWrapper appends the old-path wrapper
// {"dataVersion":..,"topicConfigTable":..} a broker sends with a request
// version below VersionV3_0_11. The static-topic mappings are not part of
// that form (use EncodeRegisterBrokerBody).
func EncodeTopicConfigSerializeWrapper(dst []byte, w *TopicConfigSerializeWrapper) []byte {
	dst = EncodeDataVersion(appendField(append(dst, '{'), "dataVersion", true), w.DataVersion)
	dst = appendTopicConfigTable(appendField(dst, "topicConfigTable", false), w.TopicConfigTable)
	return append(dst, '}')
}

// DecodeTopicConfigSerializeWrapper reads the old-path registration body
// (request version below VersionV3_0_11). A missing dataVersion reads as the
// zero version (see DecodeDataVersion).
func DecodeTopicConfigSerializeWrapper(b []byte) (*TopicConfigSerializeWrapper, error) {
	w := &TopicConfigSerializeWrapper{}
	err := decodeJSONBody(b, "topic config wrapper", func(r *jsonReader) error {
		return readTopicConfigWrapper(r, w)
	})
	if err != nil {
		return nil, err
	}
	return w, nil
}

// readTopicConfigWrapper reads both wrapper forms: the old one and 5.x's
// TopicConfigAndMappingSerializeWrapper, whose mappingDataVersion and
// topicQueueMappingDetailMap the NameServer does not use (skipped).
func readTopicConfigWrapper(r *jsonReader, w *TopicConfigSerializeWrapper) error {
	if w.TopicConfigTable == nil {
		w.TopicConfigTable = map[string]TopicConfig{}
	}
	err := r.readObject(func(key []byte) (err error) {
		switch string(key) {
		case "dataVersion":
			w.DataVersion, err = readDataVersion(r)
		case "topicConfigTable":
			if len(w.TopicConfigTable) == 0 {
				w.TopicConfigTable = make(map[string]TopicConfig, topicCountHint(r))
			}
			err = readTopicConfigTable(r, w.TopicConfigTable)
		case "topicQueueMappingInfoMap":
			w.TopicQueueMappingInfoMap, err = readMappingTable(r)
		default:
			err = r.skipValue()
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("topicConfigSerializeWrapper: %w", err)
	}
	return nil
}

// topicConfigBytes is about what one entry of a broker's topic table takes
// in its registration body (name, key and the eight fields), a little less
// so that the estimate errs high.
const topicConfigBytes = 160

// maxTopicCountHint bounds the estimate, whatever the body's length.
const maxTopicCountHint = 1 << 17

// topicCountHint estimates the entries of the topic table that starts at
// r's position from the bytes left, so the map is sized once instead of
// growing (and rehashing) a dozen times for 10,000 topics: growth was a
// fifth of the decoding time.
func topicCountHint(r *jsonReader) int {
	return min((len(r.data)-r.pos)/topicConfigBytes, maxTopicCountHint)
}

// readTopicConfigTable fills table from a topic -> TopicConfig object.
func readTopicConfigTable(r *jsonReader, table map[string]TopicConfig) error {
	var y yielder
	return r.readObject(func(key []byte) error {
		y.tick()
		name := string(key)
		tc, err := readTopicConfig(r, name)
		if err != nil {
			return fmt.Errorf("topic %q: %w", name, err)
		}
		table[name] = tc
		return nil
	})
}

// readTopicConfig reads one TopicConfig with the Java defaults for missing
// fields. mapKey is the name it arrived under: when topicName repeats it (the
// normal case) the string is shared instead of allocated again. {} attributes
// stay nil (nil means empty throughout this package).
func readTopicConfig(r *jsonReader, mapKey string) (TopicConfig, error) {
	tc := NewTopicConfig("")
	err := r.readObject(func(key []byte) (err error) {
		switch string(key) {
		case "attributes":
			tc.Attributes, err = r.readStringMap()
			if len(tc.Attributes) == 0 {
				tc.Attributes = nil
			}
		case "order":
			tc.Order, err = r.readBool()
		case "perm":
			tc.Perm, err = r.readInt32()
		case "readQueueNums":
			tc.ReadQueueNums, err = r.readInt32()
		case "topicFilterType":
			tc.TopicFilterType, err = readTopicFilterType(r)
		case "topicName":
			tc.TopicName, err = readSharedString(r, mapKey)
		case "topicSysFlag":
			tc.TopicSysFlag, err = r.readInt32()
		case "writeQueueNums":
			tc.WriteQueueNums, err = r.readInt32()
		default:
			err = r.skipValue()
		}
		return err
	})
	return tc, err
}

// readSharedString reads a string value, returning known itself when equal
// so the common case allocates nothing.
func readSharedString(r *jsonReader, known string) (string, error) {
	if r.consumeNull() {
		return "", nil
	}
	if c := r.peek(); c != '"' && c != '\'' {
		return "", r.typeError("expected a string")
	}
	b, err := r.readStringBytes()
	if err != nil {
		return "", err
	}
	if string(b) == known {
		return known, nil
	}
	return string(b), nil
}

// readTopicFilterType reads the enum name, sharing the two known constants.
func readTopicFilterType(r *jsonReader) (string, error) {
	s, err := readSharedString(r, TopicFilterSingleTag)
	if err == nil && s == TopicFilterMultiTag {
		s = TopicFilterMultiTag
	}
	if s == "" {
		s = TopicFilterSingleTag
	}
	return s, err
}
