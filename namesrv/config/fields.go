package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// setting describes one Config field: its Java key and how to convert it.
type setting struct {
	key       string
	index     int          // field index in Config
	kind      reflect.Kind // String, Bool, Int (Java int: 32 bits) or Int64 (Java long)
	extension bool         // a Go addition, not a Java key
}

// settings lists every Config field with a `prop` tag, in declaration order
// (Java's -p order: NamesrvConfig, then NettyServerConfig, then ours).
var settings, settingsByKey = buildSettings()

func buildSettings() ([]setting, map[string]setting) {
	t := reflect.TypeFor[Config]()
	var list []setting
	byKey := make(map[string]setting)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		key := f.Tag.Get("prop")
		if key == "" {
			continue
		}
		s := setting{key: key, index: i, kind: f.Type.Kind(), extension: f.Tag.Get("ext") == "true"}
		switch s.kind {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int64:
		default:
			panic(fmt.Sprintf("config: field %s has unsupported kind %s", f.Name, s.kind))
		}
		list = append(list, s)
		byKey[key] = s
	}
	return list, byKey
}

// Keys returns every setting's key in declaration order.
func Keys() []string {
	keys := make([]string, len(settings))
	for i, s := range settings {
		keys[i] = s.key
	}
	return keys
}

// IsExtension reports whether key is a Go addition rather than a Java key.
func IsExtension(key string) bool {
	return settingsByKey[key].extension
}

// Value returns the setting key as text (Java toString: decimal numbers,
// true/false) and whether the key exists.
func (c *Config) Value(key string) (string, bool) {
	s, ok := settingsByKey[key]
	if !ok {
		return "", false
	}
	return c.format(s), true
}

// Values returns every setting as key → text.
func (c *Config) Values() map[string]string {
	values := make(map[string]string, len(settings))
	for _, s := range settings {
		values[s.key] = c.format(s)
	}
	return values
}

// Set converts value to the type of setting key and stores it, with Java's
// conversion rules (protocol.md 6.6): strings trimmed, booleans true when
// "true" in any case and false otherwise, numbers decimal within the Java type.
// An unknown key wraps ErrUnknownKey, an unparsable number ErrInvalidValue;
// on error c is unchanged.
func (c *Config) Set(key, value string) error {
	s, ok := settingsByKey[key]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownKey, key)
	}
	field := reflect.ValueOf(c).Elem().Field(s.index)
	value = trimJava(value)
	switch s.kind {
	case reflect.String:
		field.SetString(value)
	case reflect.Bool:
		field.SetBool(strings.EqualFold(value, "true"))
	case reflect.Int, reflect.Int64:
		bits := 32
		if s.kind == reflect.Int64 {
			bits = 64
		}
		n, err := strconv.ParseInt(value, 10, bits)
		if err != nil {
			return fmt.Errorf("%w: %s=%q is not a %d-bit integer", ErrInvalidValue, key, value, bits)
		}
		field.SetInt(n)
	}
	return nil
}

// format renders one setting as Java's toString would.
func (c *Config) format(s setting) string {
	field := reflect.ValueOf(c).Elem().Field(s.index)
	switch s.kind {
	case reflect.Bool:
		return strconv.FormatBool(field.Bool())
	case reflect.Int, reflect.Int64:
		return strconv.FormatInt(field.Int(), 10)
	default:
		return field.String()
	}
}

// trimJava drops leading and trailing characters up to ' ', as Java's
// String.trim. Java trims only strings; numbers and booleans are trimmed here
// too, so a stray trailing blank in a file does not silently turn a `true`
// into false or drop a number.
func trimJava(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// intValue is a numeric setting's value.
func (c *Config) intValue(s setting) int64 {
	return reflect.ValueOf(c).Elem().Field(s.index).Int()
}
