package route

import (
	"fmt"
	"maps"
)

// EncodeTopicQueueMappingInfo appends the JSON of one static-topic mapping
// (protocol.md 3.9). Empty Bname/Scope/Topic stand for Java null and are
// omitted; currIdMap is written sorted, with quoted keys in standard mode.
func EncodeTopicQueueMappingInfo(dst []byte, m *TopicQueueMappingInfo, standard bool) []byte {
	dst = append(dst, '{')
	first := true
	if m.Bname != "" {
		dst = appendJSONString(appendField(dst, "bname", first), m.Bname, standard)
		first = false
	}
	dst = appendCurrIDMap(appendField(dst, "currIdMap", first), m.CurrIDMap, standard)
	dst = appendBool(appendField(dst, "dirty", false), m.Dirty)
	dst = appendLong(appendField(dst, "epoch", false), m.Epoch, standard)
	if m.Scope != "" {
		dst = appendJSONString(appendField(dst, "scope", false), m.Scope, standard)
	}
	if m.Topic != "" {
		dst = appendJSONString(appendField(dst, "topic", false), m.Topic, standard)
	}
	dst = appendInt(appendField(dst, "totalQueues", false), m.TotalQueues)
	return append(dst, '}')
}

// appendCurrIDMap writes logical -> physical queue ids in ascending order.
func appendCurrIDMap(dst []byte, ids map[int32]int32, standard bool) []byte {
	return appendNumericKeyMap(dst, ids, standard, appendInt)
}

// appendMappingTable writes a name -> mapping object sorted by name.
func appendMappingTable(dst []byte, table map[string]TopicQueueMappingInfo, standard bool) []byte {
	dst = append(dst, '{')
	for i, name := range sortedKeys(table) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendJSONString(dst, name, standard), ':')
		info := table[name]
		dst = EncodeTopicQueueMappingInfo(dst, &info, standard)
	}
	return append(dst, '}')
}

// DecodeTopicQueueMappingInfo reads one mapping (the items of a compressed
// registration body carry them one by one). Scope defaults to
// DefaultMappingScope like the Java field initializer.
func DecodeTopicQueueMappingInfo(b []byte) (*TopicQueueMappingInfo, error) {
	var info TopicQueueMappingInfo
	err := decodeJSONBody(b, "topic queue mapping info", func(r *jsonReader) error {
		var err error
		info, err = readMappingInfo(r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &info, nil
}

func readMappingInfo(r *jsonReader) (TopicQueueMappingInfo, error) {
	info := TopicQueueMappingInfo{Scope: DefaultMappingScope}
	err := r.readObject(func(key []byte) (err error) {
		switch string(key) {
		case "bname":
			info.Bname, err = r.readString()
		case "currIdMap":
			info.CurrIDMap, err = readCurrIDMap(r)
		case "dirty":
			info.Dirty, err = r.readBool()
		case "epoch":
			info.Epoch, err = r.readInt64()
		case "scope":
			info.Scope, err = r.readString()
		case "topic":
			info.Topic, err = r.readString()
		case "totalQueues":
			info.TotalQueues, err = r.readInt32()
		default:
			err = r.skipValue()
		}
		return err
	})
	return info, err
}

// readCurrIDMap reads an integer -> integer object whose keys may be bare.
func readCurrIDMap(r *jsonReader) (map[int32]int32, error) {
	if r.consumeNull() {
		return nil, nil
	}
	ids := map[int32]int32{}
	err := r.readObject(func(key []byte) error {
		logical, ok := parseInt64(key)
		if !ok || logical != int64(int32(logical)) {
			return r.typeError(fmt.Sprintf("queue id key %q", truncateForError(key)))
		}
		physical, err := r.readInt32()
		ids[int32(logical)] = physical
		return err
	})
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// readMappingTable reads a name -> mapping object; null reads as nil.
func readMappingTable(r *jsonReader) (map[string]TopicQueueMappingInfo, error) {
	return readNamedTable(r, func(name string) (TopicQueueMappingInfo, error) {
		info, err := readMappingInfo(r)
		if err != nil {
			return info, fmt.Errorf("mapping %s: %w", name, err)
		}
		return info, nil
	})
}

// mappingKey is one static-topic mapping of the table: topic and bname.
type mappingKey struct {
	topic, bname string
}

// noteMapping records that a registration of brokerName wrote the mapping
// (topic, bname).
func (m *Manager) noteMapping(brokerName, topic, bname string) {
	if m.brokerMappings == nil {
		m.brokerMappings = map[string]map[mappingKey]struct{}{}
	}
	keys := m.brokerMappings[brokerName]
	if keys == nil {
		keys = map[mappingKey]struct{}{}
		m.brokerMappings[brokerName] = keys
	}
	keys[mappingKey{topic: topic, bname: bname}] = struct{}{}
}

// removeMappingsOf removes the static-topic mappings brokerName's
// registrations wrote, when that broker name leaves (its last member
// unregistered, closed or expired). Java keeps them for good; since routes
// need queue data, a mapping without its broker is never shown, only kept.
func (t *txn) removeMappingsOf(brokerName string) {
	keys := t.m.brokerMappings[brokerName]
	delete(t.m.brokerMappings, brokerName)
	for key := range keys {
		current := t.view().mappings[key.topic]
		if current == nil {
			continue
		}
		if _, ok := current.byBroker[key.bname]; !ok {
			continue
		}
		s := t.edit()
		if !t.mappings {
			s.mappings = maps.Clone(s.mappings)
			t.mappings = true
		}
		if len(current.byBroker) == 1 {
			delete(s.mappings, key.topic)
		} else {
			byBroker := maps.Clone(current.byBroker)
			delete(byBroker, key.bname)
			s.mappings[key.topic] = &topicMapping{byBroker: byBroker}
		}
		t.m.mappingEpoch++
	}
}

// mappingCount counts the static-topic mappings held (tests).
func (m *Manager) mappingCount() int {
	n := 0
	for _, mapping := range m.current.Load().mappings {
		n += len(mapping.byBroker)
	}
	return n
}
