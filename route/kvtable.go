package route

// EncodeKVTable appends a KVTable body (protocol.md 3.6), keys sorted, plain
// encoding (non-ASCII values raw, as in fixture 040).
func EncodeKVTable(dst []byte, t *KVTable) []byte {
	dst = appendField(append(dst, '{'), "table", true)
	dst = appendStringMap(dst, t.Table, false)
	return append(dst, '}')
}

// DecodeKVTable reads a KVTable body.
func DecodeKVTable(b []byte) (*KVTable, error) {
	t := &KVTable{}
	err := decodeJSONBody(b, "kv table", func(r *jsonReader) error {
		return r.readObject(func(key []byte) (err error) {
			if string(key) == "table" {
				t.Table, err = r.readStringMap()
			} else {
				err = r.skipValue()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}
