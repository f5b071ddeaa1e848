package javaprops

import "strings"

// secretWords mark a key whose value is a secret: a Java key such as
// tls.server.keyPassword, someone's secretKey, or Java 5.3's
// innerClientAuthenticationCredentials (JSON holding a secret key).
var secretWords = []string{"secret", "password", "passwd", "credential"}

// IsSecretKey reports whether key names a secret, whose value a server
// never answers, prints or logs.
func IsSecretKey(key string) bool {
	lower := strings.ToLower(key)
	for _, word := range secretWords {
		if strings.Contains(lower, word) {
			return true
		}
	}
	return false
}
