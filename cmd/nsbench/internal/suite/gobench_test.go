package suite

import "testing"

const sampleGoBench = `goos: linux
goarch: amd64
pkg: github.com/gonamesrv/gonamesrv/route
cpu: Some CPU
BenchmarkDecodeRegisterBody10k/ours-2         	     348	   3442153 ns/op	 626.93 MB/s	 2263513 B/op	   20050 allocs/op
BenchmarkDecodeRegisterBody10k/encoding-json-2	      56	  21042321 ns/op	 102.55 MB/s	 3409617 B/op	   60104 allocs/op
BenchmarkRegister10kTopics/changed-2          	     100	   1000000 ns/op	   1200 B/op	      10 allocs/op
BenchmarkHeartbeat-2                          	19251128	        31.04 ns/op	       0 B/op	       0 allocs/op
BenchmarkLogLine some text that is not a result
PASS
ok  	github.com/gonamesrv/gonamesrv/route	12.3s
`

func TestParseGoBenchReadsResultLinesOnly(t *testing.T) {
	results := ParseGoBench(sampleGoBench)
	if len(results) != 4 {
		t.Fatalf("%d results: %+v", len(results), results)
	}
	ours, ok := findGoBench(results, "DecodeRegisterBody10k/ours")
	if !ok || ours.NsPerOp != 3442153 || ours.BytesPerOp != 2263513 || ours.AllocsPerOp != 20050 {
		t.Fatalf("ours %+v %v", ours, ok)
	}
	if hb, ok := findGoBench(results, "Heartbeat"); !ok || hb.NsPerOp != 31.04 || hb.AllocsPerOp != 0 {
		t.Fatalf("heartbeat %+v %v", hb, ok)
	}
	if _, ok := findGoBench(results, "LogLine"); ok {
		t.Fatal("a log line was read as a result")
	}
}

func TestTrimCPUSuffix(t *testing.T) {
	for name, want := range map[string]string{"Foo-2": "Foo", "Foo/bar-16": "Foo/bar", "Foo/encoding-json": "Foo/encoding-json", "Foo": "Foo"} {
		if got := trimCPUSuffix(name); got != want {
			t.Errorf("trimCPUSuffix(%q) = %q, want %q", name, got, want)
		}
	}
}
