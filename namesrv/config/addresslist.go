package config

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// checkAddressServerList reports an addressServerList that clients could
// not use: every `;`-separated item must be host:port with a TCP port, since
// the Java and Go clients split the address server's answer on `;` and dial
// each item as it is. "" (this server's own address) is fine.
func (c *Config) checkAddressServerList() error {
	if c.AddressServerList == "" {
		return nil
	}
	for _, item := range strings.Split(c.AddressServerList, ";") {
		host, port, err := net.SplitHostPort(strings.TrimSpace(item))
		if err != nil || host == "" {
			return &KeyError{Key: "addressServerList", Reason: fmt.Sprintf("%q is not host:port", item)}
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return &KeyError{Key: "addressServerList", Reason: fmt.Sprintf("%q has no TCP port", item)}
		}
	}
	return nil
}
