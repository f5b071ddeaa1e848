package route

// AppendFastjsonString appends s as a quoted JSON string escaped the way
// fastjson writes it in a plain (non-standard) body, for other packages that
// write Java-compatible bodies (controller/wire) without a second escaper.
func AppendFastjsonString(dst []byte, s string) []byte {
	return appendJSONString(dst, s, false)
}
