package config

import "github.com/gonamesrv/gonamesrv/internal/javaprops"

// setting describes one Config field: its Java key and how to convert it.
type setting = javaprops.Field

// fields is every Config field with a `prop` tag, in declaration order
// (Java's -p order: NamesrvConfig, then NettyServerConfig, then ours).
var fields = javaprops.NewFields[Config](ErrUnknownKey, ErrInvalidValue)

// settings lists them (fields.List()), for the loops over every key.
var settings = fields.List()

// Keys returns every setting's key in declaration order.
func Keys() []string { return fields.Keys() }

// IsExtension reports whether key is a Go addition rather than a Java key.
func IsExtension(key string) bool { return fields.IsExtension(key) }

// Value returns the setting key as text (Java toString: decimal numbers,
// true/false) and whether the key exists.
func (c *Config) Value(key string) (string, bool) { return fields.Value(c, key) }

// Values returns every setting as key → text.
func (c *Config) Values() map[string]string { return fields.Values(c) }

// Set converts value to the type of setting key and stores it, with Java's
// conversion rules (protocol.md 6.6, javaprops.Fields.Set). An unknown key
// wraps ErrUnknownKey, an unparsable number ErrInvalidValue; on error c is
// unchanged.
func (c *Config) Set(key, value string) error { return fields.Set(c, key, value) }

// format renders one setting as Java's toString would.
func (c *Config) format(s setting) string { return fields.Format(c, s) }

// intValue is a numeric setting's value.
func (c *Config) intValue(s setting) int64 { return fields.Int(c, s) }
