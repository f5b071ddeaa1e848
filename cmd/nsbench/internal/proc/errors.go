package proc

import "errors"

// ErrStatFormat means /proc/<pid>/stat or status did not have the expected shape.
var ErrStatFormat = errors.New("proc: unexpected /proc format")
