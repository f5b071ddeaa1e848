// Package prettyjson re-indents compact fastjson output the way fastjson's
// PrettyFormat feature writes it, so files and command output match what Java
// RocketMQ tools produce (topics.json, `mqadmin topicRoute`).
package prettyjson

import (
	"bytes"
	"fmt"
)

// Indent returns compact JSON text (as the route codecs write it, bare numeric
// map keys allowed) laid out as fastjson's PrettyFormat does:
//   - one tab per nesting level, no space after ':';
//   - every member with a quoted key, and every array element, starts a new line;
//   - members with a bare numeric key do not start a new line (a fastjson quirk:
//     `"brokerAddrs":{0:"a",1:"b"` then a newline before the closing brace);
//   - empty objects and arrays stay `{}` and `[]`.
//
// It fails on unbalanced brackets or an unterminated string; it does not
// validate anything else.
func Indent(compact []byte) ([]byte, error) {
	out := make([]byte, 0, len(compact)+len(compact)/4)
	depth := 0
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		switch c {
		case '"':
			end, err := stringEnd(compact, i)
			if err != nil {
				return nil, err
			}
			out = append(out, compact[i:end+1]...)
			i = end
		case '{', '[':
			closer := byte('}')
			if c == '[' {
				closer = ']'
			}
			if i+1 < len(compact) && compact[i+1] == closer {
				out = append(out, c, closer)
				i++
				continue
			}
			depth++
			out = append(out, c)
			out = breakBeforeMember(compact, i+1, depth, out)
		case ',':
			if depth == 0 {
				return nil, fmt.Errorf("prettyjson: ',' outside any object or array at offset %d", i)
			}
			out = append(out, ',')
			out = breakBeforeMember(compact, i+1, depth, out)
		case '}', ']':
			if depth == 0 {
				return nil, fmt.Errorf("prettyjson: unbalanced %q at offset %d", c, i)
			}
			depth--
			out = append(out, '\n')
			out = append(out, bytes.Repeat([]byte{'\t'}, depth)...)
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("prettyjson: %d unclosed object(s) or array(s)", depth)
	}
	return out, nil
}

// breakBeforeMember appends the line break and indent that precede the member
// starting at pos, unless it is an object member with a bare numeric key.
func breakBeforeMember(compact []byte, pos, depth int, out []byte) []byte {
	if pos < len(compact) && isBareKeyStart(compact[pos]) && isObjectKey(compact, pos) {
		return out
	}
	out = append(out, '\n')
	return append(out, bytes.Repeat([]byte{'\t'}, depth)...)
}

// isBareKeyStart tells whether b can start an unquoted numeric map key.
func isBareKeyStart(b byte) bool {
	return b == '-' || (b >= '0' && b <= '9')
}

// isObjectKey tells whether the token at pos is followed by ':',
// i.e. it is an object key and not an array element.
func isObjectKey(compact []byte, pos int) bool {
	for j := pos; j < len(compact); j++ {
		switch compact[j] {
		case ':':
			return true
		case ',', ']', '}':
			return false
		}
	}
	return false
}

// stringEnd returns the index of the quote closing the string that opens at start.
func stringEnd(compact []byte, start int) (int, error) {
	for j := start + 1; j < len(compact); j++ {
		switch compact[j] {
		case '\\':
			j++
		case '"':
			return j, nil
		}
	}
	return 0, fmt.Errorf("prettyjson: unterminated string at offset %d", start)
}
