package repo

import "testing"

// TestConfigKeysReadsTheServerSource: the keys come from the real Config
// struct (a Java key, a Go addition, a dotted TLS key), and nothing else.
func TestConfigKeysReadsTheServerSource(t *testing.T) {
	keys := ConfigKeys(t)
	for _, key := range []string{"listenPort", "httpListenPort", "kvConfigPath", "tls.server.mode"} {
		if !keys[key] {
			t.Errorf("key %s missing from %d keys", key, len(keys))
		}
	}
	if keys["fileProperties"] || keys["loadedFrom"] || keys["ListenPort"] {
		t.Errorf("field names taken as keys: %v", keys)
	}
}

// TestControllerConfigKeysReadsTheControllerSource: Java's controller keys
// and ours, from controller/config's Config.
func TestControllerConfigKeysReadsTheControllerSource(t *testing.T) {
	keys := ControllerConfigKeys(t)
	for _, key := range []string{"controllerDLegerPeers", "controllerDLegerSelfId", "controllerStorePath", "controllerRaftPortOffset", "httpListenPort"} {
		if !keys[key] {
			t.Errorf("key %s missing from %d keys", key, len(keys))
		}
	}
	if keys["listenPort"] || keys["wireKeys"] {
		t.Errorf("keys that are not the controller's: %v", keys)
	}
}
