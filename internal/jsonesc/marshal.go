package jsonesc

import (
	"bytes"
	"encoding/json"
)

// Marshal is compact json.Marshal without HTML escaping: fastjson writes <,
// > and & as they are, so text meant to equal a Java tool's or broker's
// keeps them too.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
