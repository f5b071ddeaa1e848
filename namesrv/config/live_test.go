package config

import "testing"

func TestLiveKeysAreSettings(t *testing.T) {
	for _, key := range LiveKeys {
		if _, ok := fields.Lookup(key); !ok {
			t.Errorf("live key %s is not a setting", key)
		}
	}
	if !IsLive("orderMessageEnable") || IsLive("listenPort") || IsLive("scanNotActiveBrokerInterval") {
		t.Fatal("IsLive disagrees with protocol.md 6.1")
	}
}
