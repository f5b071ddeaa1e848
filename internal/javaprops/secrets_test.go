package javaprops

import "testing"

func TestIsSecretKey(t *testing.T) {
	for key, want := range map[string]bool{"secretKey": true, "peerSecretKey": true, "tls.server.keyPassword": true,
		"innerClientAuthenticationCredentials": true, "accessKey": false, "tls.server.keyPath": false} {
		if IsSecretKey(key) != want {
			t.Errorf("IsSecretKey(%q) = %v", key, !want)
		}
	}
}
