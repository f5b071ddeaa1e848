package route

import "fmt"

// EncodeClusterInfo appends the GET_BROKER_CLUSTER_INFO body (protocol.md
// 3.4). It is always the plain encoding, bare numeric brokerAddrs keys
// included, whatever the client's version (quirk Q2). Tables are written
// sorted by name, the broker name lists in their own order.
func EncodeClusterInfo(dst []byte, c *ClusterInfo) []byte {
	dst = appendField(append(dst, '{'), "brokerAddrTable", true)
	dst = append(dst, '{')
	for i, name := range sortedKeys(c.BrokerAddrTable) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendJSONString(dst, name, false), ':')
		group := c.BrokerAddrTable[name]
		dst = appendBrokerData(dst, &group, false)
	}
	dst = append(dst, '}')
	dst = appendField(dst, "clusterAddrTable", false)
	dst = append(dst, '{')
	for i, cluster := range sortedKeys(c.ClusterAddrTable) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendJSONString(dst, cluster, false), ':')
		dst = appendStringArray(dst, c.ClusterAddrTable[cluster], false)
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

// DecodeClusterInfo reads a GET_BROKER_CLUSTER_INFO body (bare keys allowed).
func DecodeClusterInfo(b []byte) (*ClusterInfo, error) {
	c := &ClusterInfo{}
	err := decodeJSONBody(b, "cluster info", func(r *jsonReader) error {
		return r.readObject(func(key []byte) (err error) {
			switch string(key) {
			case "brokerAddrTable":
				c.BrokerAddrTable, err = readNamedTable(r, func(name string) (BrokerData, error) {
					group, err := readBrokerData(r)
					if err != nil {
						return group, fmt.Errorf("broker %s: %w", name, err)
					}
					return group, nil
				})
			case "clusterAddrTable":
				c.ClusterAddrTable, err = readStringListTable(r)
			default:
				err = r.skipValue()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}
