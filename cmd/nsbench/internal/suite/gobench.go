// Package suite turns one run of every scenario, plus the output of the
// in-process Go benchmarks, into the checked targets of the issue and the
// markdown page docs/performance.md.
package suite

import (
	"bufio"
	"strconv"
	"strings"
)

// GoBench is one result line of "go test -bench -benchmem".
type GoBench struct {
	Name        string // without the "Benchmark" prefix and the -N CPU suffix
	NsPerOp     float64
	BytesPerOp  float64
	AllocsPerOp float64
}

// ParseGoBench reads the result lines of go test's benchmark output and
// ignores everything else (package headers, PASS, ok lines).
func ParseGoBench(output string) []GoBench {
	var results []GoBench
	scanner := bufio.NewScanner(strings.NewReader(output))
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(fields[1]); err != nil {
			continue // not a result line (a benchmark's own log line)
		}
		result := GoBench{Name: trimCPUSuffix(strings.TrimPrefix(fields[0], "Benchmark"))}
		for i := 2; i+1 < len(fields); i++ {
			value, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			switch fields[i+1] {
			case "ns/op":
				result.NsPerOp = value
			case "B/op":
				result.BytesPerOp = value
			case "allocs/op":
				result.AllocsPerOp = value
			}
		}
		results = append(results, result)
	}
	return results
}

// trimCPUSuffix drops go test's "-GOMAXPROCS" suffix ("Foo/bar-2" -> "Foo/bar").
func trimCPUSuffix(name string) string {
	dash := strings.LastIndexByte(name, '-')
	if dash < 0 {
		return name
	}
	if _, err := strconv.Atoi(name[dash+1:]); err != nil {
		return name
	}
	return name[:dash]
}

// findGoBench returns the named result.
func findGoBench(results []GoBench, name string) (GoBench, bool) {
	for _, r := range results {
		if r.Name == name {
			return r, true
		}
	}
	return GoBench{}, false
}
