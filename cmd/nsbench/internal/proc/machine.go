package proc

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strings"
	"syscall"
)

// Machine describes the host a benchmark ran on, for the report: figures
// from different machines are not comparable, ratios within one run are.
type Machine struct {
	CPUModel  string `json:"cpuModel"`
	CPUs      int    `json:"cpus"`
	MemoryMiB int64  `json:"memoryMiB"`
	Kernel    string `json:"kernel"`
	GoVersion string `json:"goVersion"`
	OS        string `json:"os"`
}

// DescribeMachine reads the CPU model, memory and kernel of this host;
// fields it cannot read stay empty.
func DescribeMachine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), GoVersion: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if raw, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPUModel = cpuModel(raw)
	}
	if raw, err := os.ReadFile("/proc/meminfo"); err == nil {
		if total, err := parseStatusKiB(raw, "MemTotal:"); err == nil {
			m.MemoryMiB = total >> 20
		}
	}
	var uts syscall.Utsname
	if syscall.Uname(&uts) == nil {
		m.Kernel = utsString(uts.Release[:])
	}
	return m
}

// cpuModel returns the first "model name" of /proc/cpuinfo.
func cpuModel(cpuinfo []byte) string {
	scanner := bufio.NewScanner(bytes.NewReader(cpuinfo))
	for scanner.Scan() {
		key, value, found := strings.Cut(scanner.Text(), ":")
		if found && strings.TrimSpace(key) == "model name" {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// utsString converts a NUL-terminated utsname field.
func utsString[T int8 | uint8](field []T) string {
	var b strings.Builder
	for _, c := range field {
		if c == 0 {
			break
		}
		b.WriteByte(byte(c))
	}
	return b.String()
}

// LoadAverage returns the 1, 5 and 15 minute load averages of
// /proc/loadavg as written there, "" when unreadable: a high figure before a
// run means other work competed for the cores.
func LoadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	fields := strings.Fields(string(raw))
	if len(fields) < 3 {
		return ""
	}
	return strings.Join(fields[:3], " ")
}
