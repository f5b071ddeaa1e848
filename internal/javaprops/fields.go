package javaprops

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Field is one setting of a config struct: a field tagged `prop:"key"`
// (`ext:"true"` when it is a Go addition rather than a Java key) of kind
// String, Bool, Int (a Java int: 32 bits) or Int64 (a Java long).
type Field struct {
	Key       string
	Index     int // field index in the struct
	Kind      reflect.Kind
	Extension bool
}

// Fields is the settings of the config struct T in declaration order (the
// order Java's -p prints), read once from its tags, so that the NameServer's
// and the controller's configs convert and print values by one set of rules.
type Fields[T any] struct {
	list  []Field
	byKey map[string]Field
	// unknownKey and invalidValue are what Set wraps for a key no field has
	// and for a number that does not convert (invalidValue nil: not wrapped).
	unknownKey, invalidValue error
}

// NewFields reads T's tagged fields; it panics on a field of another kind,
// a mistake of the program, not of its input.
func NewFields[T any](unknownKey, invalidValue error) *Fields[T] {
	t := reflect.TypeFor[T]()
	f := &Fields[T]{byKey: map[string]Field{}, unknownKey: unknownKey, invalidValue: invalidValue}
	for i := range t.NumField() {
		sf := t.Field(i)
		key := sf.Tag.Get("prop")
		if key == "" || key == "-" {
			continue
		}
		field := Field{Key: key, Index: i, Kind: sf.Type.Kind(), Extension: sf.Tag.Get("ext") == "true"}
		switch field.Kind {
		case reflect.String, reflect.Bool, reflect.Int, reflect.Int64:
		default:
			panic(fmt.Sprintf("javaprops: field %s of %s has unsupported kind %s", sf.Name, t, field.Kind))
		}
		f.list = append(f.list, field)
		f.byKey[key] = field
	}
	return f
}

// List is every field in declaration order; callers must not change it.
func (f *Fields[T]) List() []Field { return f.list }

// Lookup returns the field of key.
func (f *Fields[T]) Lookup(key string) (Field, bool) {
	field, ok := f.byKey[key]
	return field, ok
}

// Keys returns every key in declaration order.
func (f *Fields[T]) Keys() []string {
	keys := make([]string, len(f.list))
	for i, field := range f.list {
		keys[i] = field.Key
	}
	return keys
}

// IsExtension reports whether key is a Go addition rather than a Java key.
func (f *Fields[T]) IsExtension(key string) bool { return f.byKey[key].Extension }

// Set converts value to the type of key's field of c and stores it, with
// Java's conversion rules: trimmed (TrimJava), booleans true when "true" in
// any case and false otherwise, numbers decimal within the Java type. On
// error c is unchanged.
func (f *Fields[T]) Set(c *T, key, value string) error {
	field, ok := f.byKey[key]
	if !ok {
		return fmt.Errorf("%w: %s", f.unknownKey, key)
	}
	v := reflect.ValueOf(c).Elem().Field(field.Index)
	value = TrimJava(value)
	switch field.Kind {
	case reflect.String:
		v.SetString(value)
	case reflect.Bool:
		v.SetBool(strings.EqualFold(value, "true"))
	default:
		bits := 32
		if field.Kind == reflect.Int64 {
			bits = 64
		}
		n, err := strconv.ParseInt(value, 10, bits)
		if err != nil {
			if f.invalidValue == nil {
				return fmt.Errorf("%s=%q is not a %d-bit integer", key, value, bits)
			}
			return fmt.Errorf("%w: %s=%q is not a %d-bit integer", f.invalidValue, key, value, bits)
		}
		v.SetInt(n)
	}
	return nil
}

// Value returns key's field of c as text (Java's toString: decimal numbers,
// true/false) and whether the key exists.
func (f *Fields[T]) Value(c *T, key string) (string, bool) {
	field, ok := f.byKey[key]
	if !ok {
		return "", false
	}
	return f.Format(c, field), true
}

// Values returns every setting of c as key -> text.
func (f *Fields[T]) Values(c *T) map[string]string {
	values := make(map[string]string, len(f.list))
	for _, field := range f.list {
		values[field.Key] = f.Format(c, field)
	}
	return values
}

// Format renders field of c as Java's toString would.
func (f *Fields[T]) Format(c *T, field Field) string {
	v := reflect.ValueOf(c).Elem().Field(field.Index)
	switch field.Kind {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	default:
		return v.String()
	}
}

// Int is a numeric field's value in c.
func (f *Fields[T]) Int(c *T, field Field) int64 {
	return reflect.ValueOf(c).Elem().Field(field.Index).Int()
}

// TrimJava drops leading and trailing characters up to ' ', as Java's
// String.trim. Java trims only strings; numbers and booleans are trimmed
// too, so a stray trailing blank in a file does not silently turn a `true`
// into false or drop a number.
func TrimJava(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}
