package route

// EncodeTopicList appends a topic list body (protocol.md 3.5): brokerAddr
// only when set, then the names in the given order. Plain encoding, like
// every Java answer but the route query.
func EncodeTopicList(dst []byte, l *TopicList) []byte {
	dst = append(dst, '{')
	first := true
	if l.BrokerAddr != "" {
		dst = appendJSONString(appendField(dst, "brokerAddr", true), l.BrokerAddr, false)
		first = false
	}
	dst = appendStringArray(appendField(dst, "topicList", first), l.TopicList, false)
	return append(dst, '}')
}

// DecodeTopicList reads a topic list body.
func DecodeTopicList(b []byte) (*TopicList, error) {
	l := &TopicList{}
	err := decodeJSONBody(b, "topic list", func(r *jsonReader) error {
		return r.readObject(func(key []byte) (err error) {
			switch string(key) {
			case "brokerAddr":
				l.BrokerAddr, err = r.readString()
			case "topicList":
				l.TopicList, err = r.readStringArray()
			default:
				err = r.skipValue()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}
