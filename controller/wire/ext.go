package wire

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// A header struct names each field's ext key with a tag `ext:"javaName"`;
// `ext:"javaName,required"` marks the fields Java annotates @CFNotNull, which
// this side enforces (docs/controller.md §1: Java only logs them). A nil
// pointer field is Java's null: left out of the ext fields, as Java's
// makeCustomHeaderToNet does.

// MissingFieldError is what FromExt returns for an absent required field; the
// handler answers code 1 naming it, as the NameServer does.
type MissingFieldError struct{ Field string }

func (e *MissingFieldError) Error() string {
	return fmt.Sprintf("the custom field <%s> is null", e.Field)
}

// ToExt writes a header's fields as ext fields under their Java names.
func ToExt(header any) map[string]string {
	v := reflect.ValueOf(header).Elem()
	t := v.Type()
	m := make(map[string]string, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		name, _ := extTag(t.Field(i))
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				continue
			}
			f = f.Elem()
		}
		m[name] = formatExt(f)
	}
	return m
}

// FromExt fills a header from ext fields; fields absent from m keep the
// value the header already holds (the caller's defaults, as Java's class
// initialisers). A value that does not parse is an error naming the field.
func FromExt(m map[string]string, header any) error {
	v := reflect.ValueOf(header).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name, required := extTag(t.Field(i))
		s, ok := m[name]
		if !ok {
			if required {
				return &MissingFieldError{Field: name}
			}
			continue
		}
		f := v.Field(i)
		if f.Kind() == reflect.Pointer {
			f.Set(reflect.New(f.Type().Elem()))
			f = f.Elem()
		}
		if err := parseExt(f, s); err != nil {
			return fmt.Errorf("ext field %s=%q: %w", name, s, err)
		}
	}
	return nil
}

func extTag(f reflect.StructField) (name string, required bool) {
	name, opt, _ := strings.Cut(f.Tag.Get("ext"), ",")
	return name, opt == "required"
}

func formatExt(f reflect.Value) string {
	switch f.Kind() {
	case reflect.String:
		return f.String()
	case reflect.Bool:
		return strconv.FormatBool(f.Bool())
	default:
		return strconv.FormatInt(f.Int(), 10)
	}
}

func parseExt(f reflect.Value, s string) error {
	switch f.Kind() {
	case reflect.String:
		f.SetString(s)
	case reflect.Bool:
		// Java's Boolean.parseBoolean: anything but "true" (any case) is false.
		f.SetBool(strings.EqualFold(s, "true"))
	default:
		n, err := strconv.ParseInt(s, 10, f.Type().Bits())
		if err != nil {
			return err
		}
		f.SetInt(n)
	}
	return nil
}
