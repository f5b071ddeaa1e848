package remoting

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// HeaderError reports a custom-header field that is missing while required,
// or whose text does not parse. Handlers answer it with SYSTEM_ERROR and
// Error() as the remark (we enforce Java's CFNotNull: quirk Q4, fixed).
type HeaderError struct {
	// Field is the ext-field key.
	Field string
	// Value is the text that failed to parse; "" when the field is missing.
	Value string
	// Missing is true when a required field is absent.
	Missing bool
}

// Error gives Java's wording for a missing field, and names the field and
// the value otherwise.
func (e *HeaderError) Error() string {
	if e.Missing {
		return "the custom field <" + e.Field + "> is null"
	}
	return "the custom field <" + e.Field + "> has an invalid value: " + strconv.Quote(e.Value)
}

// headerField is what reflection learns once about one tagged struct field.
type headerField struct {
	index     int
	key       string
	required  bool
	omitEmpty bool
	kind      reflect.Kind // of the value, after any pointer
	pointer   bool
	bits      int // for integers
}

// headerFieldCache maps reflect.Type to []headerField (or an error).
var headerFieldCache sync.Map

type headerFieldsEntry struct {
	fields []headerField
	err    error
}

// fieldsOf returns the cached field table of a struct type; tags are
// `rmq:"key"`, `rmq:"key,required"`, `rmq:"key,omitempty"`; untagged fields
// and `rmq:"-"` are skipped.
func fieldsOf(structType reflect.Type) ([]headerField, error) {
	if cached, ok := headerFieldCache.Load(structType); ok {
		entry := cached.(headerFieldsEntry)
		return entry.fields, entry.err
	}
	fields, err := buildFields(structType)
	headerFieldCache.Store(structType, headerFieldsEntry{fields: fields, err: err})
	return fields, err
}

func buildFields(structType reflect.Type) ([]headerField, error) {
	var fields []headerField
	for i := range structType.NumField() {
		structField := structType.Field(i)
		tag, ok := structField.Tag.Lookup("rmq")
		if !ok || tag == "-" || !structField.IsExported() {
			continue
		}
		name, options, _ := strings.Cut(tag, ",")
		field := headerField{index: i, key: name}
		for _, option := range strings.Split(options, ",") {
			switch option {
			case "required":
				field.required = true
			case "omitempty":
				field.omitEmpty = true
			}
		}
		valueType := structField.Type
		if valueType.Kind() == reflect.Pointer {
			field.pointer = true
			valueType = valueType.Elem()
		}
		field.kind = valueType.Kind()
		switch field.kind {
		case reflect.String, reflect.Bool:
		case reflect.Int, reflect.Int64:
			field.bits = 64
		case reflect.Int32:
			field.bits = 32
		default:
			return nil, fmt.Errorf("header %s field %s of type %s: %w",
				structType, structField.Name, structField.Type, ErrUnsupportedHeaderType)
		}
		fields = append(fields, field)
	}
	return fields, nil
}

// DecodeHeader fills the tagged fields of the struct dst points to from
// cmd.ExtFields. Strings are taken as-is, integers parse as decimal, bools
// follow Java Boolean.parseBoolean (case-insensitive "true", anything else
// false). A missing required field or an unparsable number returns a
// *HeaderError; absent optional fields leave dst's value untouched, so
// pointers stay nil and callers may preset defaults.
func DecodeHeader(cmd *Command, dst any) error {
	target := reflect.ValueOf(dst)
	if target.Kind() != reflect.Pointer || target.IsNil() || target.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("decode header into %T: need a non-nil pointer to a struct: %w", dst, ErrUnsupportedHeaderType)
	}
	target = target.Elem()
	fields, err := fieldsOf(target.Type())
	if err != nil {
		return fmt.Errorf("decode header: %w", err)
	}
	for i := range fields {
		field := &fields[i]
		text, present := cmd.ExtFields[field.key]
		if !present {
			if field.required {
				return &HeaderError{Field: field.key, Missing: true}
			}
			continue
		}
		if err := setField(target.Field(field.index), field, text); err != nil {
			return err
		}
	}
	return nil
}

// setField parses text into one struct field, allocating pointer targets.
func setField(fieldValue reflect.Value, field *headerField, text string) error {
	if field.pointer {
		fresh := reflect.New(fieldValue.Type().Elem())
		fieldValue.Set(fresh)
		fieldValue = fresh.Elem()
	}
	switch field.kind {
	case reflect.String:
		fieldValue.SetString(text)
	case reflect.Bool:
		fieldValue.SetBool(strings.EqualFold(text, "true"))
	default:
		number, err := strconv.ParseInt(text, 10, field.bits)
		if err != nil {
			if field.pointer {
				fieldValue.SetZero()
			}
			return &HeaderError{Field: field.key, Value: text}
		}
		fieldValue.SetInt(number)
	}
	return nil
}

// EncodeHeader turns the tagged fields of a struct (or pointer to one) into
// ext fields: numbers as decimal text, bools as "true"/"false". Nil pointers
// and zero values of omitempty fields are left out. The map is never nil, so
// an attached header with nothing set is written as {} like Java's. A type
// with an unsupported field kind yields an empty map (DecodeHeader reports
// the same type as an error, which tests of the header struct catch).
func EncodeHeader(src any) map[string]string {
	ext := make(map[string]string, 4)
	source := reflect.ValueOf(src)
	if source.Kind() == reflect.Pointer {
		if source.IsNil() {
			return ext
		}
		source = source.Elem()
	}
	if source.Kind() != reflect.Struct {
		return ext
	}
	fields, err := fieldsOf(source.Type())
	if err != nil {
		return ext
	}
	for i := range fields {
		field := &fields[i]
		fieldValue := source.Field(field.index)
		if field.pointer {
			if fieldValue.IsNil() {
				continue
			}
			fieldValue = fieldValue.Elem()
		} else if field.omitEmpty && fieldValue.IsZero() {
			continue
		}
		switch field.kind {
		case reflect.String:
			ext[field.key] = fieldValue.String()
		case reflect.Bool:
			ext[field.key] = strconv.FormatBool(fieldValue.Bool())
		default:
			ext[field.key] = strconv.FormatInt(fieldValue.Int(), 10)
		}
	}
	return ext
}
