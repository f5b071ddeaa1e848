package metrics

import (
	"runtime"
	"testing"
	"time"

	"github.com/gonamesrv/gonamesrv/internal/buildinfo"
)

// TestBuildInfoCarriesTheBuild: build_info keeps its labels (the RocketMQ
// version spoken, the Go version) and adds the build's own, as -version
// prints them.
func TestBuildInfoCarriesTheBuild(t *testing.T) {
	m := New(testSources(), []string{""}, time.Unix(1000, 0))
	families, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	build := buildinfo.Read()
	want := map[string]string{"version": Version, "goversion": runtime.Version(), "module_version": build.ModuleVersion,
		"revision": build.Commit, "commit_time": build.CommitTime, "build_time": build.BuildTime}
	for _, fam := range families {
		if fam.GetName() != Namespace+"_build_info" {
			continue
		}
		if len(fam.Metric) != 1 || fam.Metric[0].GetGauge().GetValue() != 1 {
			t.Fatalf("build_info: %v", fam.Metric)
		}
		got := map[string]string{}
		for _, l := range fam.Metric[0].Label {
			got[l.GetName()] = l.GetValue()
		}
		for name, value := range want {
			if got[name] != value || value == "" {
				t.Errorf("label %s = %q, want %q", name, got[name], value)
			}
		}
		if len(got) != len(want) {
			t.Errorf("labels %v, want exactly %v", got, want)
		}
		return
	}
	t.Fatal("no build_info")
}
