package route

// EncodeGetBrokerMemberGroupResponseBody appends the GET_BROKER_MEMBER_GROUP
// body (protocol.md 3.10): always plain, bare numeric brokerAddrs keys
// (quirk Q2), ids ascending.
func EncodeGetBrokerMemberGroupResponseBody(dst []byte, body *GetBrokerMemberGroupResponseBody) []byte {
	g := &body.BrokerMemberGroup
	dst = appendField(append(dst, '{'), "brokerMemberGroup", true)
	dst = appendBrokerAddrs(appendField(append(dst, '{'), "brokerAddrs", true), g.BrokerAddrs, false)
	dst = appendJSONString(appendField(dst, "brokerName", false), g.BrokerName, false)
	dst = appendJSONString(appendField(dst, "cluster", false), g.Cluster, false)
	return append(dst, '}', '}')
}

// DecodeGetBrokerMemberGroupResponseBody reads a GET_BROKER_MEMBER_GROUP body
// (for the CLI and tests).
func DecodeGetBrokerMemberGroupResponseBody(b []byte) (*GetBrokerMemberGroupResponseBody, error) {
	body := &GetBrokerMemberGroupResponseBody{}
	g := &body.BrokerMemberGroup
	err := decodeJSONBody(b, "broker member group", func(r *jsonReader) error {
		return r.readObject(func(key []byte) (err error) {
			if string(key) != "brokerMemberGroup" {
				return r.skipValue()
			}
			return r.readObject(func(key []byte) (err error) {
				switch string(key) {
				case "brokerAddrs":
					g.BrokerAddrs, err = readBrokerAddrs(r)
				case "brokerName":
					g.BrokerName, err = r.readString()
				case "cluster":
					g.Cluster, err = r.readString()
				default:
					err = r.skipValue()
				}
				return err
			})
		})
	})
	if err != nil {
		return nil, err
	}
	return body, nil
}
