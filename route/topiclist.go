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
		if err := r.enterObject(); err != nil {
			return err
		}
		for first := true; ; first = false {
			key, more, err := r.nextMember(first)
			if err != nil || !more {
				return err
			}
			switch string(key) {
			case "brokerAddr":
				l.BrokerAddr, err = r.readString()
			case "topicList":
				l.TopicList, err = r.readStringArray()
			default:
				err = r.skipValue()
			}
			if err != nil {
				return err
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}
