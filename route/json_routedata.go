package route

import (
	"fmt"
)

// EncodeTopicRouteData appends the route body of GET_ROUTEINFO_BY_TOPIC
// (protocol.md 3.3). standard selects the encoding a client with version >=
// VersionV4_9_4 or acceptStandardJsonOnly=true gets; otherwise the plain
// fastjson form with bare numeric brokerAddrs keys and raw UTF-8. Maps are
// written sorted in both modes. brokerDatas, queueDatas and filterServerTable
// are always written ([] / {} when empty); orderTopicConf is omitted when ""
// and topicQueueMappingByBroker when nil.
func EncodeTopicRouteData(dst []byte, d *TopicRouteData, standard bool) []byte {
	dst = appendField(append(dst, '{'), "brokerDatas", true)
	dst = append(dst, '[')
	for i := range d.BrokerDatas {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendBrokerData(dst, &d.BrokerDatas[i], standard)
	}
	dst = append(dst, ']')
	dst = appendFilterServerTable(appendField(dst, "filterServerTable", false), d.FilterServerTable, standard)
	if d.OrderTopicConf != "" {
		dst = appendJSONString(appendField(dst, "orderTopicConf", false), d.OrderTopicConf, standard)
	}
	dst = appendField(dst, "queueDatas", false)
	dst = append(dst, '[')
	for i := range d.QueueDatas {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendQueueData(dst, &d.QueueDatas[i], standard)
	}
	dst = append(dst, ']')
	if d.TopicQueueMappingByBroker != nil {
		dst = appendMappingTable(appendField(dst, "topicQueueMappingByBroker", false), d.TopicQueueMappingByBroker, standard)
	}
	return append(dst, '}')
}

// appendBrokerData writes one BrokerData; an empty ZoneName (Java null) is
// omitted.
func appendBrokerData(dst []byte, b *BrokerData, standard bool) []byte {
	dst = appendBrokerAddrs(appendField(append(dst, '{'), "brokerAddrs", true), b.BrokerAddrs, standard)
	dst = appendJSONString(appendField(dst, "brokerName", false), b.BrokerName, standard)
	dst = appendJSONString(appendField(dst, "cluster", false), b.Cluster, standard)
	dst = appendBool(appendField(dst, "enableActingMaster", false), b.EnableActingMaster)
	if b.ZoneName != "" {
		dst = appendJSONString(appendField(dst, "zoneName", false), b.ZoneName, standard)
	}
	return append(dst, '}')
}

// appendQueueData writes one QueueData.
func appendQueueData(dst []byte, q *QueueData, standard bool) []byte {
	dst = appendJSONString(appendField(append(dst, '{'), "brokerName", true), q.BrokerName, standard)
	dst = appendInt(appendField(dst, "perm", false), q.Perm)
	dst = appendInt(appendField(dst, "readQueueNums", false), q.ReadQueueNums)
	dst = appendInt(appendField(dst, "topicSysFlag", false), q.TopicSysFlag)
	dst = appendInt(appendField(dst, "writeQueueNums", false), q.WriteQueueNums)
	return append(dst, '}')
}

// appendFilterServerTable writes broker address -> filter servers sorted by
// address; the lists keep their order.
func appendFilterServerTable(dst []byte, table map[string][]string, standard bool) []byte {
	dst = append(dst, '{')
	if len(table) > 0 {
		for i, addr := range sortedKeys(table) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(appendJSONString(dst, addr, standard), ':')
			dst = appendStringArray(dst, table[addr], standard)
		}
	}
	return append(dst, '}')
}

// DecodeTopicRouteData reads a route body in either encoding (the zone
// filter, REGISTER_TOPIC_IN_NAMESRV bodies, the CLI). A missing or null
// brokerAddrs stays nil, which is how Java's null reaches FilterByZone.
func DecodeTopicRouteData(b []byte) (*TopicRouteData, error) {
	d := &TopicRouteData{}
	err := decodeJSONBody(b, "topic route data", func(r *jsonReader) error {
		return readTopicRouteData(r, d)
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

func readTopicRouteData(r *jsonReader, d *TopicRouteData) error {
	return r.readObject(func(key []byte) (err error) {
		switch string(key) {
		case "brokerDatas":
			d.BrokerDatas, err = readList(r, "broker data", readBrokerData)
		case "filterServerTable":
			d.FilterServerTable, err = readStringListTable(r)
		case "orderTopicConf":
			d.OrderTopicConf, err = r.readString()
		case "queueDatas":
			d.QueueDatas, err = readList(r, "queue data", readQueueData)
		case "topicQueueMappingByBroker":
			d.TopicQueueMappingByBroker, err = readMappingTable(r)
		default:
			err = r.skipValue()
		}
		return err
	})
}

// readList reads an array of objects with readElement; null reads as nil.
func readList[T any](r *jsonReader, what string, readElement func(*jsonReader) (T, error)) ([]T, error) {
	list := []T{}
	isNull, err := r.readArray(func() error {
		v, err := readElement(r)
		if err != nil {
			return fmt.Errorf("%s %d: %w", what, len(list), err)
		}
		list = append(list, v)
		return nil
	})
	if err != nil || isNull {
		return nil, err
	}
	return list, nil
}

func readBrokerData(r *jsonReader) (BrokerData, error) {
	var b BrokerData
	err := r.readObject(func(key []byte) (err error) {
		switch string(key) {
		case "brokerAddrs":
			b.BrokerAddrs, err = readBrokerAddrs(r)
		case "brokerName":
			b.BrokerName, err = r.readString()
		case "cluster":
			b.Cluster, err = r.readString()
		case "enableActingMaster":
			b.EnableActingMaster, err = r.readBool()
		case "zoneName":
			b.ZoneName, err = r.readString()
		default:
			err = r.skipValue()
		}
		return err
	})
	return b, err
}

// readBrokerAddrs reads broker id -> address with bare or quoted id keys.
func readBrokerAddrs(r *jsonReader) (map[int64]string, error) {
	if r.consumeNull() {
		return nil, nil
	}
	addrs := map[int64]string{}
	err := r.readObject(func(key []byte) error {
		id, ok := parseInt64(key)
		if !ok {
			return r.typeError(fmt.Sprintf("broker id key %q", truncateForError(key)))
		}
		addr, err := r.readString()
		addrs[id] = addr
		return err
	})
	if err != nil {
		return nil, err
	}
	return addrs, nil
}

func readQueueData(r *jsonReader) (QueueData, error) {
	var q QueueData
	err := r.readObject(func(key []byte) (err error) {
		switch string(key) {
		case "brokerName":
			q.BrokerName, err = r.readString()
		case "perm":
			q.Perm, err = r.readInt32()
		case "readQueueNums":
			q.ReadQueueNums, err = r.readInt32()
		case "topicSysFlag":
			q.TopicSysFlag, err = r.readInt32()
		case "writeQueueNums":
			q.WriteQueueNums, err = r.readInt32()
		default:
			err = r.skipValue()
		}
		return err
	})
	return q, err
}

// readStringListTable reads name -> list of strings (filter servers by
// broker address, broker names by cluster).
func readStringListTable(r *jsonReader) (map[string][]string, error) {
	return readNamedTable(r, func(string) ([]string, error) { return r.readStringArray() })
}
