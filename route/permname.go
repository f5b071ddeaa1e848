package route

// PermString spells a permission like Java's PermName.perm2String: R, W and
// X (inherit) in that order, '-' where a bit is missing. mqadmin prints it
// and the HTTP side port shows it.
func PermString(perm int32) string {
	text := []byte("---")
	if perm&PermRead != 0 {
		text[0] = 'R'
	}
	if perm&PermWrite != 0 {
		text[1] = 'W'
	}
	if perm&PermInherit != 0 {
		text[2] = 'X'
	}
	return string(text)
}
