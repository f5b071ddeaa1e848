package route

// Equal reports whether two versions are the same state: all three fields
// equal, the comparison the Java NameServer makes everywhere.
func (v DataVersion) Equal(o DataVersion) bool {
	return v == o
}

// EncodeDataVersion appends the JSON of v (QUERY_DATA_VERSION answers and the
// dataVersion member of registration bodies).
func EncodeDataVersion(dst []byte, v DataVersion) []byte {
	dst = appendField(append(dst, '{'), "counter", true)
	dst = appendLong(dst, v.Counter, false)
	dst = appendField(dst, "stateVersion", false)
	dst = appendLong(dst, v.StateVersion, false)
	dst = appendField(dst, "timestamp", false)
	dst = appendLong(dst, v.Timestamp, false)
	return append(dst, '}')
}

// DecodeDataVersion reads a DataVersion JSON body. Missing fields read as 0,
// timestamp included: Java would use the decoder's clock there (quirk Q19),
// which only makes such a version unequal to everything; route is clock-free.
func DecodeDataVersion(b []byte) (DataVersion, error) {
	var v DataVersion
	err := decodeJSONBody(b, "data version", func(r *jsonReader) error {
		var err error
		v, err = readDataVersion(r)
		return err
	})
	return v, err
}

func readDataVersion(r *jsonReader) (DataVersion, error) {
	var v DataVersion
	err := r.readObject(func(key []byte) (err error) {
		switch string(key) {
		case "counter":
			v.Counter, err = r.readInt64()
		case "stateVersion":
			v.StateVersion, err = r.readInt64()
		case "timestamp":
			v.Timestamp, err = r.readInt64()
		default:
			err = r.skipValue()
		}
		return err
	})
	return v, err
}
