package remoting

import (
	"slices"
	"strconv"
)

// appendJSONHeader appends cmd's header as fastjson writes it (protocol.md
// 1.5): keys in alphabetical order, null fields omitted, compact. ExtFields
// keys are sorted so the output is deterministic (Java uses HashMap order,
// which no peer relies on).
func appendJSONHeader(dst []byte, cmd *Command) []byte {
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, int64(cmd.Code), 10)
	if cmd.ExtFields != nil {
		dst = append(dst, `,"extFields":{`...)
		dst = appendJSONExtFields(dst, cmd.ExtFields)
		dst = append(dst, '}')
	}
	dst = append(dst, `,"flag":`...)
	dst = strconv.AppendInt(dst, int64(cmd.Flag), 10)
	if cmd.Language.Known() {
		dst = append(dst, `,"language":"`...)
		dst = append(dst, cmd.Language.String()...)
		dst = append(dst, '"')
	}
	dst = append(dst, `,"opaque":`...)
	dst = strconv.AppendInt(dst, int64(cmd.Opaque), 10)
	if cmd.Remark != "" {
		dst = append(dst, `,"remark":`...)
		dst = appendJSONString(dst, cmd.Remark)
	}
	dst = append(dst, `,"serializeTypeCurrentRPC":"JSON","version":`...)
	dst = strconv.AppendInt(dst, int64(cmd.Version), 10)
	return append(dst, '}')
}

// appendJSONExtFields writes the map's entries in key order, every value as
// a JSON string.
func appendJSONExtFields(dst []byte, ext map[string]string) []byte {
	var stackKeys [16]string
	keys := sortedKeys(stackKeys[:0], ext)
	for i, key := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, key)
		dst = append(dst, ':')
		dst = appendJSONString(dst, ext[key])
	}
	return dst
}

// sortedKeys appends ext's keys to keys and sorts them; callers pass a stack
// array's slice so small maps cost no allocation.
func sortedKeys(keys []string, ext map[string]string) []string {
	for key := range ext {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}

const upperHex = "0123456789ABCDEF"

// appendJSONString writes text as a quoted JSON string with fastjson's
// escapes: \" \\ \n \t \r \b \f, uppercase \uXXXX for other control
// characters, DEL, U+2028 and U+2029; '/' and other non-ASCII stay raw.
func appendJSONString(dst []byte, text string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(text); i++ {
		b := text[i]
		var escape string
		switch {
		case b == '"':
			escape = `\"`
		case b == '\\':
			escape = `\\`
		case b == '\n':
			escape = `\n`
		case b == '\t':
			escape = `\t`
		case b == '\r':
			escape = `\r`
		case b == '\b':
			escape = `\b`
		case b == '\f':
			escape = `\f`
		case b < 0x20 || b == 0x7F:
			dst = append(dst, text[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', upperHex[b>>4], upperHex[b&0xF])
			start = i + 1
			continue
		case b == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9):
			// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
			dst = append(dst, text[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', upperHex[text[i+2]-0xA0])
			i += 2
			start = i + 1
			continue
		default:
			continue
		}
		dst = append(dst, text[start:i]...)
		dst = append(dst, escape...)
		start = i + 1
	}
	dst = append(dst, text[start:]...)
	return append(dst, '"')
}
