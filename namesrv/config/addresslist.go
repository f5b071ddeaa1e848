package config

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// MaxPeerNamesrvAddrs bounds peerNamesrvAddrs: a NameServer group is a few
// servers, and each peer is asked every few seconds.
const MaxPeerNamesrvAddrs = 16

// checkAddressServerList reports an addressServerList or peerNamesrvAddrs
// that clients could not use: every `;`-separated item must be host:port
// with a TCP port, since the Java and Go clients split the address server's
// answer on `;` and dial each item as it is. "" (this server's own address,
// no peers) is fine.
func (c *Config) checkAddressServerList() error {
	if err := checkAddrList("addressServerList", c.AddressServerList); err != nil {
		return err
	}
	if err := checkAddrList("peerNamesrvAddrs", c.PeerNamesrvAddrs); err != nil {
		return err
	}
	if n := len(SplitAddrList(c.PeerNamesrvAddrs)); n > MaxPeerNamesrvAddrs {
		return &KeyError{Key: "peerNamesrvAddrs", Reason: fmt.Sprintf("%d peers, more than %d", n, MaxPeerNamesrvAddrs)}
	}
	// One key of the peer account without the other would leave the
	// checks unsigned without a word.
	if (c.PeerAccessKey == "") != (c.PeerSecretKey == "") {
		return &KeyError{Key: "peerAccessKey", Reason: "peerAccessKey and peerSecretKey are set together or not at all"}
	}
	return nil
}

func checkAddrList(key, list string) error {
	if list == "" {
		return nil
	}
	for _, item := range strings.Split(list, ";") {
		host, port, err := net.SplitHostPort(strings.TrimSpace(item))
		if err != nil || host == "" {
			return &KeyError{Key: key, Reason: fmt.Sprintf("%q is not host:port", item)}
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return &KeyError{Key: key, Reason: fmt.Sprintf("%q has no TCP port", item)}
		}
	}
	return nil
}

// SplitAddrList is the items of a checked `;`-separated address list,
// trimmed ("" has none).
func SplitAddrList(list string) []string {
	var out []string
	for _, item := range strings.Split(list, ";") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
