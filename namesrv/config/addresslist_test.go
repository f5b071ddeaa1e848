package config

import (
	"strconv"
	"testing"
)

func TestAddressServerListMustBeHostPorts(t *testing.T) {
	for list, ok := range map[string]bool{
		"":                                   true,
		"127.0.0.1:9876":                     true,
		"10.0.0.1:9876;ns2.example.org:9876": true,
		"127.0.0.1":                          false,
		"127.0.0.1:9876;":                    false,
		"127.0.0.1:0":                        false,
		"127.0.0.1:70000":                    false,
		":9876":                              false,
	} {
		cfg := Default()
		cfg.AddressServerList = list
		if err := cfg.checkAddressServerList(); (err == nil) != ok {
			t.Errorf("%q: err %v, want ok=%v", list, err, ok)
		}
	}
}

func TestPeerNamesrvAddrsMustBeFewHostPorts(t *testing.T) {
	many := "10.0.0.1:9876"
	for i := 2; i <= MaxPeerNamesrvAddrs+1; i++ {
		many += ";10.0.0." + strconv.Itoa(i) + ":9876"
	}
	for list, ok := range map[string]bool{
		"": true, "10.0.0.2:9876": true, "10.0.0.2:9876; 10.0.0.3:9876": true,
		"10.0.0.2": false, "10.0.0.2:9876;;": false, many: false,
	} {
		cfg := Default()
		cfg.PeerNamesrvAddrs = list
		if err := cfg.checkAddressServerList(); (err == nil) != ok {
			t.Errorf("%q: err %v, want ok=%v", list, err, ok)
		}
	}
	if got := SplitAddrList(" a:1 ; b:2 "); len(got) != 2 || got[0] != "a:1" || got[1] != "b:2" {
		t.Errorf("SplitAddrList: %q", got)
	}
	if !IsProtected("peerNamesrvAddrs") {
		t.Error("peerNamesrvAddrs can be changed over the wire: it is part of the address server's answer")
	}
}

// TestPeerAccountKeysGoTogether: the peer account is both keys or none, is
// protected, and its secret is never listed.
func TestPeerAccountKeysGoTogether(t *testing.T) {
	for _, keys := range []struct {
		access, secret string
		ok             bool
	}{{"", "", true}, {"peer", "peerSecret", true}, {"peer", "", false}, {"", "peerSecret", false}} {
		cfg := Default()
		cfg.PeerAccessKey, cfg.PeerSecretKey = keys.access, keys.secret
		if err := cfg.checkAddressServerList(); (err == nil) != keys.ok {
			t.Errorf("peerAccessKey=%q peerSecretKey=%q: err %v, want ok=%v", keys.access, keys.secret, err, keys.ok)
		}
	}
	if !IsProtected("peerAccessKey") || !IsProtected("peerSecretKey") || !IsSecretKey("peerSecretKey") || IsSecretKey("peerAccessKey") {
		t.Error("peerAccessKey and peerSecretKey: want both protected, the secret a secret")
	}
}
