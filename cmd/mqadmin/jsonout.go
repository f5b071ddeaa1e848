package main

import (
	"bytes"
	"encoding/json"
)

// marshalNoEscape is compact JSON without HTML escaping, as fastjson writes
// <, > and & unchanged.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
