package config

import (
	"maps"
	"strings"
)

// secretWords mark a key whose value is a secret (a -c file may carry a
// Java key such as tls.server.keyPassword, or someone's secretKey).
var secretWords = []string{"secret", "password", "passwd"}

// IsSecretKey reports whether key names a secret: its value never appears in
// GET_NAMESRV_CONFIG or in a log line.
func IsSecretKey(key string) bool {
	lower := strings.ToLower(key)
	for _, word := range secretWords {
		if strings.Contains(lower, word) {
			return true
		}
	}
	return false
}

// WithoutSecrets returns a copy of props without the keys IsSecretKey names.
func WithoutSecrets(props map[string]string) map[string]string {
	out := maps.Clone(props)
	maps.DeleteFunc(out, func(key, _ string) bool { return IsSecretKey(key) })
	return out
}
