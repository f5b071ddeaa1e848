package config

import (
	"maps"

	"github.com/gonamesrv/gonamesrv/internal/javaprops"
)

// IsSecretKey reports whether key names a secret (javaprops.IsSecretKey):
// its value never appears in GET_NAMESRV_CONFIG or in a log line.
func IsSecretKey(key string) bool { return javaprops.IsSecretKey(key) }

// WithoutSecrets returns a copy of props without the keys IsSecretKey names.
func WithoutSecrets(props map[string]string) map[string]string {
	out := maps.Clone(props)
	maps.DeleteFunc(out, func(key, _ string) bool { return IsSecretKey(key) })
	return out
}
