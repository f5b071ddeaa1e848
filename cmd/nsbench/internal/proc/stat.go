// Package proc reads what the benchmark needs to know about a server
// process from Linux's /proc: CPU time spent and resident memory. Reading
// the server's own counters, rather than timing from the client, is what
// separates the server's cost from the load generator's on a machine where
// both share the same cores.
package proc

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTicksPerSecond is USER_HZ, the unit of utime and stime in
// /proc/<pid>/stat; it is 100 on every Linux architecture Go supports.
const clockTicksPerSecond = 100

// CPUTime returns the user plus system CPU time the process has used, all
// threads included. Its resolution is 10 ms, so phases must run for seconds.
func CPUTime(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("cpu time of %d: %w", pid, err)
	}
	ticks, err := parseStatCPUTicks(raw)
	if err != nil {
		return 0, fmt.Errorf("cpu time of %d: %w", pid, err)
	}
	return time.Duration(ticks) * time.Second / clockTicksPerSecond, nil
}

// parseStatCPUTicks reads utime and stime (fields 14 and 15) from a
// /proc/<pid>/stat line. The command name (field 2) may hold spaces and
// parentheses, so fields are counted after its last ')'.
func parseStatCPUTicks(raw []byte) (int64, error) {
	end := bytes.LastIndexByte(raw, ')')
	if end < 0 {
		return 0, fmt.Errorf("no command name: %w", ErrStatFormat)
	}
	// After ')' come fields 3, 4, ...; utime is field 14, index 11 here.
	fields := bytes.Fields(raw[end+1:])
	const utimeIndex, stimeIndex = 14 - 3, 15 - 3
	if len(fields) <= stimeIndex {
		return 0, fmt.Errorf("%d fields: %w", len(fields), ErrStatFormat)
	}
	var total int64
	for _, field := range [][]byte{fields[utimeIndex], fields[stimeIndex]} {
		ticks, err := strconv.ParseInt(string(field), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("tick count %q: %w", field, ErrStatFormat)
		}
		total += ticks
	}
	return total, nil
}

// ResidentBytes returns the process's resident set size (VmRSS).
func ResidentBytes(pid int) (int64, error) { return statusBytes(pid, "VmRSS:", "resident memory") }

// PeakResidentBytes returns the process's peak resident set size (VmHWM).
func PeakResidentBytes(pid int) (int64, error) {
	return statusBytes(pid, "VmHWM:", "peak resident memory")
}

// statusBytes reads one "Key: n kB" figure of /proc/<pid>/status.
func statusBytes(pid int, key, what string) (int64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("%s of %d: %w", what, pid, err)
	}
	value, err := parseStatusKiB(raw, key)
	if err != nil {
		return 0, fmt.Errorf("%s of %d: %w", what, pid, err)
	}
	return value, nil
}

// parseStatusKiB finds a "Key:   1234 kB" line of /proc/<pid>/status and
// returns its value in bytes.
func parseStatusKiB(raw []byte, key string) (int64, error) {
	for line := range bytes.Lines(raw) {
		rest, found := bytes.CutPrefix(line, []byte(key))
		if !found {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) != 2 || string(fields[1]) != "kB" {
			return 0, fmt.Errorf("line %q: %w", bytes.TrimSpace(line), ErrStatFormat)
		}
		kib, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("line %q: %w", bytes.TrimSpace(line), ErrStatFormat)
		}
		return kib << 10, nil
	}
	return 0, fmt.Errorf("no %s line: %w", key, ErrStatFormat)
}
