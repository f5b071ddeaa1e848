package atomicfile

// ReadWithBackup reads path with read, falling back to path+suffix (the
// previous file a writer kept) when path is missing, empty or corrupt, as
// Java's ConfigManager.load does; found is false when neither exists. The
// error is path's when neither could be read, else the backup's.
func ReadWithBackup[T any](path, suffix string, read func(string) (T, bool, error)) (T, bool, error) {
	v, found, err := read(path)
	if err == nil && found {
		return v, true, nil
	}
	bak, bakFound, bakErr := read(path + suffix)
	if bakErr == nil && bakFound {
		return bak, true, nil
	}
	var zero T
	if err != nil {
		return zero, false, err
	}
	return zero, false, bakErr
}
