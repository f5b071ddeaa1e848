package config

import "testing"

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
