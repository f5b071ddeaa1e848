package proc

import (
	"errors"
	"os"
	"testing"
	"time"
)

func TestParseStatCPUTicks(t *testing.T) {
	cases := []struct {
		name string
		line string
		want int64
		err  bool
	}{
		{"plain", "1234 (namesrv) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 9 0 55 1000 200", 325, false},
		{"name with spaces and parens", "77 (a (b) c) R 1 77 77 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0 5 1 1", 7, false},
		{"truncated", "77 (x) R 1 77", 0, true},
		{"no name", "garbage", 0, true},
		{"not a number", "1 (x) S 1 1 1 0 -1 0 0 0 0 0 ab 4 0", 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStatCPUTicks([]byte(tc.line))
			if tc.err {
				if !errors.Is(err, ErrStatFormat) {
					t.Fatalf("err %v, want ErrStatFormat", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestParseStatusKiB(t *testing.T) {
	status := []byte("Name:\tnamesrv\nVmPeak:\t  9000 kB\nVmRSS:\t   2048 kB\nThreads:\t9\n")
	got, err := parseStatusKiB(status, "VmRSS:")
	if err != nil || got != 2048<<10 {
		t.Fatalf("got %d, %v; want %d", got, err, 2048<<10)
	}
	if _, err := parseStatusKiB(status, "VmSwap:"); !errors.Is(err, ErrStatFormat) {
		t.Fatalf("missing key: err %v", err)
	}
	if _, err := parseStatusKiB([]byte("VmRSS: 12 MB\n"), "VmRSS:"); !errors.Is(err, ErrStatFormat) {
		t.Fatalf("wrong unit: err %v", err)
	}
}

// The live readers agree with what this very process does: it spins for a
// while, so its CPU time grows, and it has some resident memory.
func TestLiveCountersOfThisProcess(t *testing.T) {
	pid := os.Getpid()
	before, err := CPUTime(pid)
	if err != nil {
		t.Fatal(err)
	}
	// Spin until the counter moves (it ticks every 10 ms of CPU), at most
	// 10 s: on a starved machine 60 ms of wall time can bring no CPU at all.
	after := before
	for giveUp := time.Now().Add(10 * time.Second); after <= before && time.Now().Before(giveUp); {
		for x := 0; x < 1_000_000; x++ {
			_ = x * x
		}
		if after, err = CPUTime(pid); err != nil {
			t.Fatal(err)
		}
	}
	if after <= before {
		t.Fatalf("cpu time did not grow while spinning: %v then %v", before, after)
	}
	rss, err := ResidentBytes(pid)
	if err != nil || rss <= 0 {
		t.Fatalf("rss %d, %v", rss, err)
	}
	if _, err := CPUTime(1 << 30); err == nil {
		t.Fatal("no error for a process that does not exist")
	}
}

func TestRaiseOpenFileLimitAndMachine(t *testing.T) {
	limit, err := RaiseOpenFileLimit()
	if err != nil || limit == 0 {
		t.Fatalf("limit %d, %v", limit, err)
	}
	m := DescribeMachine()
	if m.CPUs <= 0 || m.GoVersion == "" || m.Kernel == "" {
		t.Fatalf("machine %+v", m)
	}
	if got := cpuModel([]byte("processor\t: 0\nmodel name\t: Test CPU @ 2GHz\n")); got != "Test CPU @ 2GHz" {
		t.Fatalf("cpu model %q", got)
	}
}

func TestOpenFileLimitIsRaisedAsFarAsAllowed(t *testing.T) {
	before, err := OpenFileLimit()
	if err != nil {
		t.Fatal(err)
	}
	after, err := RaiseOpenFileLimitTo(before + 1)
	if err != nil {
		t.Fatal(err)
	}
	now, _ := OpenFileLimit()
	if after < before || now != after {
		t.Fatalf("limit %d, raised to %d, now %d", before, after, now)
	}
}

func TestPeakResidentIsAtLeastResident(t *testing.T) {
	rss, err1 := ResidentBytes(os.Getpid())
	peak, err2 := PeakResidentBytes(os.Getpid())
	if err1 != nil || err2 != nil || peak < rss || rss <= 0 {
		t.Fatalf("rss %d (%v), peak %d (%v)", rss, err1, peak, err2)
	}
}
