package proc

import (
	"fmt"
	"syscall"
)

// RaiseOpenFileLimit lifts the soft RLIMIT_NOFILE to the hard limit and
// returns the new soft limit. Child processes inherit it, which is how a
// server started by the tool can accept tens of thousands of connections
// even if it does not raise its own limit.
func RaiseOpenFileLimit() (uint64, error) {
	var limit syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		return 0, fmt.Errorf("read open file limit: %w", err)
	}
	if limit.Cur < limit.Max {
		limit.Cur = limit.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
			return 0, fmt.Errorf("raise open file limit to %d: %w", limit.Max, err)
		}
	}
	return limit.Cur, nil
}

// RaiseOpenFileLimitTo lifts RLIMIT_NOFILE to at least want (soft and
// hard) when the process may (root), else to the hard limit as
// RaiseOpenFileLimit does, and returns the new soft limit.
func RaiseOpenFileLimitTo(want uint64) (uint64, error) {
	var limit syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		return 0, fmt.Errorf("read open file limit: %w", err)
	}
	if limit.Max < want {
		raised := syscall.Rlimit{Cur: want, Max: want}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err == nil {
			return want, nil
		}
	}
	return RaiseOpenFileLimit()
}

// OpenFileLimit returns the soft RLIMIT_NOFILE.
func OpenFileLimit() (uint64, error) {
	var limit syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &limit); err != nil {
		return 0, fmt.Errorf("read open file limit: %w", err)
	}
	return limit.Cur, nil
}
