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
		if err := r.enterObject(); err != nil {
			return err
		}
		for first := true; ; first = false {
			key, more, err := r.nextMember(first)
			if err != nil || !more {
				return err
			}
			switch string(key) {
			case "brokerAddrTable":
				c.BrokerAddrTable, err = readBrokerAddrTable(r)
			case "clusterAddrTable":
				c.ClusterAddrTable, err = readClusterAddrTable(r)
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
	return c, nil
}

func readBrokerAddrTable(r *jsonReader) (map[string]BrokerData, error) {
	if r.consumeNull() {
		return nil, nil
	}
	if err := r.enterObject(); err != nil {
		return nil, err
	}
	table := map[string]BrokerData{}
	for first := true; ; first = false {
		key, more, err := r.nextMember(first)
		if err != nil {
			return nil, err
		}
		if !more {
			return table, nil
		}
		name := string(key)
		group, err := readBrokerData(r)
		if err != nil {
			return nil, fmt.Errorf("broker %s: %w", name, err)
		}
		table[name] = group
	}
}

func readClusterAddrTable(r *jsonReader) (map[string][]string, error) {
	// Same shape as the filter-server table: name -> list of strings.
	return readFilterServerTable(r)
}
